// The loops of a training — PPMI rows (ppmi.ts), the eigen-decomposition's products (svd.ts), section
// vectors (model.ts) — each over a range of output rows, so that a second thread (helper.ts,
// helper-worker.ts) can run one half while the calling thread runs the other. The dense loops take several
// inputs at a time (V8 does not vectorise them): each pass over an output row then reads and writes it
// once for several input rows, not once per input row.

import { quantizeInto } from './quantize.js';

/** Rows [from, to) of Y = A X, A sparse n × n (compressed rows), X dense n × l (row-major). */
export function spmmRows(rowStart: Int32Array, col: Int32Array, val: Float32Array, x: Float32Array, y: Float32Array, l: number, from: number, to: number): void {
  // Eight entries of a row at a time: on the handbook's matrix (5.25 M entries, l = 136) one product took
  // 0.42 s instead of 1.10 s one entry at a time and 0.52 s four at a time.
  for (let i = from; i < to; i++) {
    const yo = i * l;
    const end = rowStart[i + 1];
    let p = rowStart[i];
    for (; p + 7 < end; p += 8) {
      const v0 = val[p];
      const v1 = val[p + 1];
      const v2 = val[p + 2];
      const v3 = val[p + 3];
      const v4 = val[p + 4];
      const v5 = val[p + 5];
      const v6 = val[p + 6];
      const v7 = val[p + 7];
      const x0 = col[p] * l;
      const x1 = col[p + 1] * l;
      const x2 = col[p + 2] * l;
      const x3 = col[p + 3] * l;
      const x4 = col[p + 4] * l;
      const x5 = col[p + 5] * l;
      const x6 = col[p + 6] * l;
      const x7 = col[p + 7] * l;
      for (let c = 0; c < l; c++) {
        y[yo + c] +=
          v0 * x[x0 + c] + v1 * x[x1 + c] + v2 * x[x2 + c] + v3 * x[x3 + c] + v4 * x[x4 + c] + v5 * x[x5 + c] + v6 * x[x6 + c] + v7 * x[x7 + c];
      }
    }
    for (; p < end; p++) {
      const v = val[p];
      const xo = col[p] * l;
      for (let c = 0; c < l; c++) y[yo + c] += v * x[xo + c];
    }
  }
}

/**
 * Rows [from, to) of Y R⁻¹, R upper-triangular l × l given transposed (rt[j·l + k] = R[k][j], so that
 * each row's forward substitution reads R's columns contiguously).
 */
export function invUpperRows(y: Float32Array, rt: Float64Array, out: Float32Array, l: number, from: number, to: number): void {
  const row = new Float64Array(l);
  for (let i = from; i < to; i++) {
    const o = i * l;
    for (let j = 0; j < l; j++) {
      const ro = j * l;
      let s = y[o + j];
      for (let k = 0; k < j; k++) s -= row[k] * rt[ro + k];
      row[j] = s / rt[ro + j];
    }
    for (let j = 0; j < l; j++) out[o + j] = row[j];
  }
}

/** Rows [from, to) of Q W, Q dense n × l, W dense l × k; four of Q's columns at a time. */
export function timesRows(q: Float32Array, w: Float32Array, out: Float32Array, l: number, k: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const o = i * k;
    const qo = i * l;
    let j = 0;
    for (; j + 3 < l; j += 4) {
      const q0 = q[qo + j];
      const q1 = q[qo + j + 1];
      const q2 = q[qo + j + 2];
      const q3 = q[qo + j + 3];
      const w0 = j * k;
      const w1 = w0 + k;
      const w2 = w1 + k;
      const w3 = w2 + k;
      for (let c = 0; c < k; c++) out[o + c] += q0 * w[w0 + c] + q1 * w[w1 + c] + q2 * w[w2 + c] + q3 * w[w3 + c];
    }
    for (; j < l; j++) {
      const qij = q[qo + j];
      const wo = j * k;
      for (let c = 0; c < k; c++) out[o + c] += qij * w[wo + c];
    }
  }
}

/**
 * Rows [from, to) of XᵀY (l × l) from X and Y given column-major (xt, yt: each column of n contiguous),
 * summed in double precision; `symmetric` computes entries b ≥ a of each row and mirrors them (the mirror is in rows
 * outside [from, to) only for the entries it writes, which no other range writes). Four of Y's columns
 * against one of X's at a time: the row-by-row rank-one update this replaced ran at a quarter of the
 * speed, one column at a time at half.
 */
export function gramRows(xt: Float32Array, yt: Float32Array, out: Float64Array, n: number, l: number, symmetric: boolean, from: number, to: number): void {
  const put = (a: number, b: number, s: number) => {
    out[a * l + b] = s;
    if (symmetric) out[b * l + a] = s;
  };
  for (let a = from; a < to; a++) {
    const xo = a * n;
    let b = symmetric ? a : 0;
    for (; b + 3 < l; b += 4) {
      const y0 = b * n;
      const y1 = y0 + n;
      const y2 = y1 + n;
      const y3 = y2 + n;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < n; i++) {
        const v = xt[xo + i];
        s0 += v * yt[y0 + i];
        s1 += v * yt[y1 + i];
        s2 += v * yt[y2 + i];
        s3 += v * yt[y3 + i];
      }
      put(a, b, s0);
      put(a, b + 1, s1);
      put(a, b + 2, s2);
      put(a, b + 3, s3);
    }
    for (; b < l; b++) {
      const yo = b * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += xt[xo + i] * yt[yo + i];
      put(a, b, s);
    }
  }
}

/** What the PPMI rows read: the kept words in one sequence (sections apart by -1), each word's positions. */
export interface PpmiInput {
  seq: Int32Array;
  /** Word a's positions in seq are at[occStart[a] .. occStart[a + 1]). */
  occStart: Int32Array;
  at: Int32Array;
  /** α · log(marginal) − log Σ marginal^α, per word. */
  logSmoothed: Float64Array;
  logTotal: number;
  window: number;
  minPairCount: number;
}

/**
 * Rows [from, to) of the PPMI matrix: every occurrence of word a adds its window's words to a dense
 * counter, whose touched entries are row a's (each pair is counted from both ends). 'count' writes each
 * row's number of positive entries to rowNnz[a]; 'fill' writes the entries from rowStart[a].
 */
export function ppmiRows(inp: PpmiInput, phase: 'count' | 'fill', rowStart: Int32Array, col: Int32Array, val: Float32Array, from: number, to: number): void {
  const { seq, occStart, at, logSmoothed, window: w, minPairCount } = inp;
  const len = seq.length;
  const n = occStart.length - 1;
  const count = new Int32Array(n);
  const touched = new Int32Array(n);
  for (let a = from; a < to; a++) {
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
    // pmi(a, b) = log P(a, b) − log Pα(a) − log Pα(b); only positive values are kept.
    const base = -inp.logTotal - logSmoothed[a];
    let q = phase === 'fill' ? rowStart[a] : 0;
    for (let t = 0; t < m; t++) {
      const b = touched[t];
      const c = count[b];
      count[b] = 0;
      if (c < minPairCount) continue;
      const v = Math.log(c) + base - logSmoothed[b];
      if (!(v > 0)) continue;
      if (phase === 'fill') {
        col[q] = b;
        val[q] = v;
      }
      q++;
    }
    if (phase === 'count') rowStart[a + 1] = q;
  }
}

/**
 * Sections [from, to) of `docs` (word ids, sections at docs[docStart[d] .. docStart[d + 1]), -1 = no word):
 * the idf-weighted sum of their words' unit vectors, quantised to int8 at out[d · dims] (embed.ts's
 * weightedMean and quantize, term for term); has[d] = 0 when no word of the section has a vector.
 */
export function sectionRows(docs: Int32Array, docStart: Int32Array, idf: Float32Array, unit: Float32Array, dims: number, out: Int8Array, has: Uint8Array, from: number, to: number): void {
  const sum = new Float64Array(dims);
  for (let d = from; d < to; d++) {
    sum.fill(0);
    let any = false;
    for (let i = docStart[d]; i < docStart[d + 1]; i++) {
      const w = docs[i];
      if (w < 0) continue;
      const weight = idf[w];
      if (!(weight > 0)) continue;
      any = true;
      const o = w * dims;
      for (let c = 0; c < dims; c++) sum[c] += weight * unit[o + c];
    }
    has[d] = any ? 1 : 0;
    if (any) quantizeInto(sum, 0, dims, out, d * dims);
  }
}

/** One half of a kernel's rows, as the calling thread posts it to the helper thread. */
export type KernelTask =
  | { op: 'spmm'; rowStart: Int32Array; col: Int32Array; val: Float32Array; x: Float32Array; y: Float32Array; l: number; from: number; to: number }
  | { op: 'invUpper'; y: Float32Array; rt: Float64Array; out: Float32Array; l: number; from: number; to: number }
  | { op: 'times'; q: Float32Array; w: Float32Array; out: Float32Array; l: number; k: number; from: number; to: number }
  | { op: 'ppmi'; inp: PpmiInput; phase: 'count' | 'fill'; rowStart: Int32Array; col: Int32Array; val: Float32Array; from: number; to: number }
  | { op: 'sections'; docs: Int32Array; docStart: Int32Array; idf: Float32Array; unit: Float32Array; dims: number; out: Int8Array; has: Uint8Array; from: number; to: number }
  | { op: 'gram'; xt: Float32Array; yt: Float32Array; out: Float64Array; n: number; l: number; symmetric: boolean; from: number; to: number };

export function runTask(t: KernelTask): void {
  switch (t.op) {
    case 'spmm':
      return spmmRows(t.rowStart, t.col, t.val, t.x, t.y, t.l, t.from, t.to);
    case 'invUpper':
      return invUpperRows(t.y, t.rt, t.out, t.l, t.from, t.to);
    case 'times':
      return timesRows(t.q, t.w, t.out, t.l, t.k, t.from, t.to);
    case 'ppmi':
      return ppmiRows(t.inp, t.phase, t.rowStart, t.col, t.val, t.from, t.to);
    case 'sections':
      return sectionRows(t.docs, t.docStart, t.idf, t.unit, t.dims, t.out, t.has, t.from, t.to);
    case 'gram':
      return gramRows(t.xt, t.yt, t.out, t.n, t.l, t.symmetric, t.from, t.to);
  }
}
