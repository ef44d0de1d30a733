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
 * The PPMI matrix of `docs` (each a list of vocabulary ids, -1 = not in the vocabulary and skipped before
 * windowing: dropped words do not hold neighbours apart). A word's pairs with itself are left out.
 *
 * Counted a row at a time: every occurrence of word a adds its window's words to a dense counter, whose
 * touched entries become row a's (so each pair is counted from both ends, and no table of pairs is kept).
 * An open-addressing table of the ~30 M pair occurrences (the handbook's), the way it was counted before,
 * took 1.0 s and held 64–96 MB while it grew; this takes 0.9 s and 24 MB (the sequence of words and their
 * positions), and gives the same matrix (every entry equal on the handbook).
 */
export function ppmiMatrix(docs: Int32Array[], n: number, opts: PpmiOptions = PPMI_DEFAULTS): Csr {
  const w = opts.window;
  // The kept words of every section in one sequence, sections apart by a -1 that no window crosses.
  let len = docs.length;
  for (const d of docs) for (let i = 0; i < d.length; i++) if (d[i] >= 0) len++;
  const seq = new Int32Array(len);
  const occStart = new Int32Array(n + 1);
  let p = 0;
  for (const d of docs) {
    for (let i = 0; i < d.length; i++) {
      if (d[i] < 0) continue;
      seq[p++] = d[i];
      occStart[d[i] + 1]++;
    }
    seq[p++] = -1;
  }
  for (let i = 0; i < n; i++) occStart[i + 1] += occStart[i];
  const at = new Int32Array(occStart[n]); // each word's positions in seq, word by word
  const next = occStart.slice(0, n);
  for (let i = 0; i < len; i++) if (seq[i] >= 0) at[next[seq[i]]++] = i;

  // Marginals: each pair within the window (i < j ≤ i + window, different words) counts for both words.
  const marginal = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < len; i++) {
    const a = seq[i];
    if (a < 0) continue;
    for (let j = i + 1; j <= i + w && j < len; j++) {
      const b = seq[j];
      if (b < 0) break;
      if (b === a) continue;
      marginal[a]++;
      marginal[b]++;
      total += 2;
    }
  }
  const alpha = opts.alpha;
  let z = 0;
  for (let i = 0; i < n; i++) z += Math.pow(marginal[i], alpha);
  const logSmoothed = new Float64Array(n);
  for (let i = 0; i < n; i++) logSmoothed[i] = marginal[i] > 0 ? alpha * Math.log(marginal[i]) - Math.log(z) : 0;
  const logTotal = Math.log(total);

  // pmi(a, b) = log P(a, b) − log Pα(a) − log Pα(b); only positive values are kept. Two passes over the
  // rows, the first to size the matrix exactly (in shared memory: the eigen-decomposition's helper
  // thread reads it without a copy, helper.ts).
  const count = new Float64Array(n);
  const touched = new Int32Array(n);
  const row = (a: number, emit: (b: number, v: number) => void) => {
    let m = 0;
    for (let o = occStart[a]; o < occStart[a + 1]; o++) {
      const i = at[o];
      for (let j = i - 1; j >= i - w && j >= 0; j--) {
        const b = seq[j];
        if (b < 0) break;
        if (b !== a && count[b]++ === 0) touched[m++] = b;
      }
      for (let j = i + 1; j <= i + w && j < len; j++) {
        const b = seq[j];
        if (b < 0) break;
        if (b !== a && count[b]++ === 0) touched[m++] = b;
      }
    }
    const base = -logTotal - logSmoothed[a];
    for (let t = 0; t < m; t++) {
      const b = touched[t];
      const c = count[b];
      count[b] = 0;
      if (c < opts.minPairCount) continue;
      const v = Math.log(c) + base - logSmoothed[b];
      if (v > 0) emit(b, v);
    }
  };
  const rowStart = new Int32Array(new SharedArrayBuffer((n + 1) * 4));
  for (let a = 0; a < n; a++) {
    let k = 0;
    row(a, () => k++);
    rowStart[a + 1] = rowStart[a] + k;
  }
  const col = new Int32Array(new SharedArrayBuffer(rowStart[n] * 4));
  const val = new Float32Array(new SharedArrayBuffer(rowStart[n] * 4));
  let q = 0;
  for (let a = 0; a < n; a++) {
    row(a, (b, v) => {
      col[q] = b;
      val[q++] = v;
    });
  }
  return { n, rowStart, col, val };
}
