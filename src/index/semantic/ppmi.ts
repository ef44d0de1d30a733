// Word co-occurrence in a ±WINDOW window and its positive pointwise mutual information, as a symmetric
// sparse matrix over the vocabulary (words in at least MIN_DF sections, the most widespread first).

import { block32, block64, type Helper } from './helper.js';
import { ppmiRows, type PpmiInput } from './kernels.js';

/** A square sparse matrix, compressed rows. */
export interface Csr {
  n: number;
  rowStart: Int32Array;
  col: Int32Array;
  val: Float32Array;
  /** Memory its builder no longer needs, which a user of the matrix may take over (svd.ts's scratch). */
  spare?: ArrayBufferLike[];
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
 * Counted a row at a time (kernels.ts ppmiRows), in two passes (the first sizes the matrix exactly), the
 * rows split with the helper thread when there is one. An open-addressing table of the ~30 M pair
 * occurrences (the handbook's), the way it was counted before, took 1.0 s and held 64–96 MB while it
 * grew; this took 0.9 s on one thread, holds 24 MB (the sequence of words and their positions) and gives
 * the same matrix (every entry equal on the handbook).
 */
export function ppmiMatrix(given: Docs | Int32Array[], n: number, opts: PpmiOptions = PPMI_DEFAULTS, helper: Helper | null = null): Csr {
  const shared = helper !== null;
  const w = opts.window;
  const docs = Array.isArray(given) ? flatDocs(given) : given;
  const sections = docs.start.length - 1;
  // The kept words of every section in one sequence, sections apart by a -1 that no window crosses.
  let len = sections;
  for (let i = 0; i < docs.words.length; i++) if (docs.words[i] >= 0) len++;
  const seq = int32(len, shared);
  const occStart = int32(n + 1, shared);
  let p = 0;
  for (let d = 0; d < sections; d++) {
    for (let i = docs.start[d]; i < docs.start[d + 1]; i++) {
      const v = docs.words[i];
      if (v < 0) continue;
      seq[p++] = v;
      occStart[v + 1]++;
    }
    seq[p++] = -1;
  }
  for (let i = 0; i < n; i++) occStart[i + 1] += occStart[i];
  const at = int32(occStart[n], shared); // each word's positions in seq, word by word
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
  const logSmoothed = block64(n, shared);
  for (let i = 0; i < n; i++) logSmoothed[i] = marginal[i] > 0 ? alpha * Math.log(marginal[i]) - Math.log(z) : 0;
  const inp: PpmiInput = { seq, occStart, at, logSmoothed, logTotal: Math.log(total), window: w, minPairCount: opts.minPairCount };

  // In shared memory whenever it is big enough for a helper: the eigen-decomposition's helper thread
  // reads it without a copy (helper.ts).
  const rowStart = int32(n + 1, true);
  // The helper's rows start where half of the word occurrences (the work) lie.
  let cut = 0;
  while (cut < n && occStart[cut] < occStart[n] / 2) cut++;
  const run = (phase: 'count' | 'fill', col: Int32Array, val: Float32Array) => {
    const task = { op: 'ppmi' as const, inp, phase, rowStart, col, val };
    if (helper) helper.split({ ...task, from: 0, to: cut }, { ...task, from: cut, to: n });
    else ppmiRows(inp, phase, rowStart, col, val, 0, n);
  };
  run('count', new Int32Array(0), new Float32Array(0));
  for (let a = 0; a < n; a++) rowStart[a + 1] += rowStart[a];
  const col = int32(rowStart[n], true);
  const val = block32(rowStart[n], true);
  run('fill', col, val);
  return { n, rowStart, col, val, spare: [seq.buffer, at.buffer] };
}

/** Sections' word ids one after another: section d's are words[start[d] .. start[d + 1]). */
export interface Docs {
  words: Int32Array;
  start: Int32Array;
}

export function flatDocs(list: Int32Array[]): Docs {
  const start = new Int32Array(list.length + 1);
  list.forEach((d, i) => (start[i + 1] = start[i] + d.length));
  const words = new Int32Array(start[list.length]);
  list.forEach((d, i) => words.set(d, start[i]));
  return { words, start };
}

function int32(length: number, shared: boolean): Int32Array {
  return shared ? new Int32Array(new SharedArrayBuffer(length * 4)) : new Int32Array(length);
}
