// Word co-occurrence in a ±WINDOW window and its positive pointwise mutual information, as a symmetric
// sparse matrix over the vocabulary (words in at least MIN_DF sections, the most widespread first).

/** A square sparse matrix, compressed rows. */
export interface Csr {
  n: number;
  rowStart: Int32Array;
  col: Int32Array;
  val: Float32Array;
}

export interface PpmiOptions {
  window: number;
  /** Context-distribution smoothing (Levy et al. 2015): marginals raised to this power, on both sides. */
  alpha: number;
  /**
   * Pairs seen fewer times get no entry (they still count in the marginals). On the handbook dropping the
   * pairs seen once cut the matrix from 5.25 M entries to 2.69 M, and the SVD's sparse products with it, but
   * the vectors were worse: ranking every section by cosine alone, nDCG@10 0.422 with them and 0.398
   * without (Obsidian Hub 0.499 / 0.482); fused (weight 1, best 100) handbook +0.007 ± 0.013 (21 wins,
   * 15 losses) with them and −0.006 ± 0.015 (15/19) without, Hub +0.042 / +0.049. Training ~25 % longer.
   */
  minPairCount: number;
}

export const PPMI_DEFAULTS: PpmiOptions = { window: 5, alpha: 0.75, minPairCount: 1 };

/**
 * Counts of unordered word pairs, in an open-addressing table keyed by lo × n + hi (n ≤ 65535 keeps a key
 * in 32 bits). The handbook's 3 M kept words give ~30 M pair occurrences: a Map of them took several times
 * as long and as much memory.
 */
class PairCounts {
  keys: Uint32Array; // key + 1; 0 = empty
  counts: Float32Array;
  size = 0;
  private mask: number;
  constructor(capacityPow2 = 1 << 16) {
    this.keys = new Uint32Array(capacityPow2);
    this.counts = new Float32Array(capacityPow2);
    this.mask = capacityPow2 - 1;
  }
  add(key: number, w: number): void {
    const k = key + 1;
    let h = Math.imul(k, 0x9e3779b1) >>> 0 & this.mask;
    const keys = this.keys;
    for (;;) {
      const at = keys[h];
      if (at === k) {
        this.counts[h] += w;
        return;
      }
      if (at === 0) {
        keys[h] = k;
        this.counts[h] = w;
        if (++this.size * 2 > keys.length) this.grow();
        return;
      }
      h = (h + 1) & this.mask;
    }
  }
  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    this.keys = new Uint32Array(oldKeys.length * 2);
    this.counts = new Float32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== 0) this.add(oldKeys[i] - 1, oldCounts[i]);
  }
}

/**
 * The PPMI matrix of `docs` (each a list of vocabulary ids, -1 = not in the vocabulary and skipped before
 * windowing: dropped words do not hold neighbours apart). A word's pairs with itself are left out.
 */
export function ppmiMatrix(docs: Int32Array[], n: number, opts: PpmiOptions = PPMI_DEFAULTS): Csr {
  if (n > 65535) throw new Error('ppmiMatrix: at most 65535 words');
  const pairs = new PairCounts();
  const kept = new Int32Array(docs.reduce((m, d) => Math.max(m, d.length), 0));
  for (const doc of docs) {
    let len = 0;
    for (let i = 0; i < doc.length; i++) if (doc[i] >= 0) kept[len++] = doc[i];
    for (let i = 0; i < len; i++) {
      const a = kept[i];
      const end = Math.min(len, i + opts.window + 1);
      for (let j = i + 1; j < end; j++) {
        const b = kept[j];
        if (a !== b) pairs.add(a < b ? a * n + b : b * n + a, 1);
      }
    }
  }
  return ppmiFromPairs(pairs, n, opts.alpha, opts.minPairCount);
}

function ppmiFromPairs(pairs: PairCounts, n: number, alpha: number, minCount: number): Csr {
  const marginal = new Float64Array(n);
  let total = 0;
  const { keys, counts } = pairs;
  for (let h = 0; h < keys.length; h++) {
    if (keys[h] === 0) continue;
    const key = keys[h] - 1;
    const a = Math.floor(key / n);
    const b = key - a * n;
    marginal[a] += counts[h];
    marginal[b] += counts[h];
    total += 2 * counts[h];
  }
  let z = 0;
  for (let i = 0; i < n; i++) z += Math.pow(marginal[i], alpha);
  const logSmoothed = new Float64Array(n);
  for (let i = 0; i < n; i++) logSmoothed[i] = marginal[i] > 0 ? alpha * Math.log(marginal[i]) - Math.log(z) : 0;
  // pmi(a, b) = log P(a, b) − log Pα(a) − log Pα(b); only positive values are kept, in both triangles.
  // In shared memory: the eigen-decomposition's helper thread reads the matrix without a copy (helper.ts).
  const rowCount = new Int32Array(new SharedArrayBuffer((n + 1) * 4));
  const pmiOf = (h: number, a: number, b: number) =>
    counts[h] < minCount ? 0 : Math.log(counts[h] / total) - logSmoothed[a] - logSmoothed[b];
  for (let h = 0; h < keys.length; h++) {
    if (keys[h] === 0) continue;
    const key = keys[h] - 1;
    const a = Math.floor(key / n);
    const b = key - a * n;
    if (pmiOf(h, a, b) > 0) {
      rowCount[a + 1]++;
      rowCount[b + 1]++;
    }
  }
  for (let i = 0; i < n; i++) rowCount[i + 1] += rowCount[i];
  const rowStart = rowCount;
  const fill = rowStart.slice(0, n);
  const col = new Int32Array(new SharedArrayBuffer(rowStart[n] * 4));
  const val = new Float32Array(new SharedArrayBuffer(rowStart[n] * 4));
  for (let h = 0; h < keys.length; h++) {
    if (keys[h] === 0) continue;
    const key = keys[h] - 1;
    const a = Math.floor(key / n);
    const b = key - a * n;
    const v = pmiOf(h, a, b);
    if (v <= 0) continue;
    col[fill[a]] = b;
    val[fill[a]++] = v;
    col[fill[b]] = a;
    val[fill[b]++] = v;
  }
  return { n, rowStart, col, val };
}
