// Truncated eigen-decomposition of a symmetric sparse matrix by randomized range finding (Halko, Martinsson
// & Tropp 2011), in plain TypeScript: the PPMI matrix is symmetric, so its singular vectors are its
// eigenvectors and its singular values the eigenvalues' magnitudes. Dense blocks are row-major n × l.
import type { Csr } from './ppmi.js';
import { block32, block64, Helper } from './helper.js';
import { gramRows, invUpperRows, spmmRows, timesRows } from './kernels.js';

export interface Eigen {
  /** n × k, row-major: row i is word i's coordinates. */
  vectors: Float32Array;
  /** |eigenvalue| (= singular value), largest first. */
  values: Float64Array;
  k: number;
}

export interface SvdOptions {
  k: number;
  oversample: number;
  /** Power iterations: each sharpens the leading subspace at the cost of two more sparse products. */
  power: number;
  seed: number;
}

/**
 * Two power iterations: without them the range of a PPMI matrix (a slowly decaying spectrum) is a poor
 * stand-in for its leading eigenvectors. Measured, ranking every section by cosine alone: nDCG@10 0.355 → 0.398
 * on the handbook set, 0.433 → 0.482 on the Obsidian Hub set; training on the handbook ~6 → ~8 s.
 */
export const SVD_DEFAULTS: SvdOptions = { k: 128, oversample: 8, power: 2, seed: 1 };

/**
 * Y = A X for a sparse A (n × n) and a dense X (n × l), row-major, into `y` when given (overwritten); with
 * a helper, the rows are split where half of A's entries lie.
 */
export function sparseTimesDense(a: Csr, x: Float32Array, l: number, helper: Helper | null = null, y?: Float32Array): Float32Array {
  if (y) y.fill(0);
  else y = block32(a.n * l, helper !== null);
  if (!helper) {
    spmmRows(a.rowStart, a.col, a.val, x, y, l, 0, a.n);
    return y;
  }
  const half = a.rowStart[a.n] / 2;
  let cut = 0;
  while (cut < a.n && a.rowStart[cut] < half) cut++;
  const task = { op: 'spmm' as const, rowStart: a.rowStart, col: a.col, val: a.val, x, y, l };
  helper.split({ ...task, from: 0, to: cut }, { ...task, from: cut, to: a.n });
  return y;
}

/** Column-major copy of a row-major n × l block (each column contiguous, for dot products), into `t`. */
function columns(x: Float32Array, n: number, l: number, t: Float32Array): Float32Array {
  for (let i = 0; i < n; i++) for (let c = 0; c < l; c++) t[c * n + i] = x[i * l + c];
  return t;
}

/** Scratch blocks of the decomposition, reused: fresh ones for every step held ~150 MB more at the peak. */
interface Scratch {
  shared: boolean;
  /** Two n × l blocks for column-major copies. */
  cols: [Float32Array, Float32Array];
}

function scratch(n: number, l: number, shared: boolean, reuse: ArrayBufferLike[] = []): Scratch {
  const fits = reuse.filter((b) => b.byteLength >= n * l * 4 && (b instanceof SharedArrayBuffer) === shared);
  const take = () => {
    const b = fits.pop();
    return b ? new Float32Array(b, 0, n * l) : block32(n * l, shared);
  };
  return { shared, cols: [take(), take()] };
}

/**
 * XᵀY (l × l) for dense X and Y (n × l), summed in double precision; symmetric (X = Y, or XᵀY known
 * symmetric) computes one triangle. With a helper the triangle's rows are split into halves of equal work.
 */
function transposeTimes(x: Float32Array, y: Float32Array, n: number, l: number, symmetric: boolean, helper: Helper | null, s: Scratch): Float64Array {
  const xt = columns(x, n, l, s.cols[0]);
  const yt = x === y ? xt : columns(y, n, l, s.cols[1]);
  const out = block64(l * l, s.shared);
  if (!helper) {
    gramRows(xt, yt, out, n, l, symmetric, 0, l);
    return out;
  }
  // Row a of the triangle holds l − a entries: the first rows are the longer ones.
  const cut = symmetric ? Math.round(l * (1 - Math.SQRT1_2)) : l >> 1;
  const task = { op: 'gram' as const, xt, yt, out, n, l, symmetric };
  helper.split({ ...task, from: 0, to: cut }, { ...task, from: cut, to: l });
  return out;
}

/**
 * Orthonormal columns spanning those of Y (n × l), by Cholesky QR with a small ridge (a rank-deficient Y,
 * from a small vault, keeps the factor positive definite). One pass: the Gram matrix is formed in double
 * precision, so the loss of orthogonality (≈ κ²·1e-16) stays below the float32 storage's own rounding.
 * `inPlace` overwrites Y (each row is solved before it is written).
 */
export function orthonormalize(y: Float32Array, n: number, l: number, helper: Helper | null = null, s?: Scratch, inPlace = false): Float32Array {
  const g = transposeTimes(y, y, n, l, true, helper, s ?? scratch(n, l, helper !== null));
  let trace = 0;
  for (let i = 0; i < l; i++) trace += g[i * l + i];
  const ridge = (trace / Math.max(1, l)) * 1e-9 + 1e-30;
  for (let i = 0; i < l; i++) g[i * l + i] += ridge;
  return timesInverseUpper(y, cholesky(g, l), n, l, helper, inPlace ? y : block32(n * l, helper !== null));
}

/** Upper-triangular R with RᵀR = G (G symmetric positive definite, l × l). */
function cholesky(g: Float64Array, l: number): Float64Array {
  const r = new Float64Array(l * l);
  for (let j = 0; j < l; j++) {
    let d = g[j * l + j];
    for (let k = 0; k < j; k++) d -= r[k * l + j] * r[k * l + j];
    const rjj = Math.sqrt(Math.max(d, 1e-300));
    r[j * l + j] = rjj;
    for (let i = j + 1; i < l; i++) {
      let s = g[j * l + i];
      for (let k = 0; k < j; k++) s -= r[k * l + j] * r[k * l + i];
      r[j * l + i] = s / rjj;
    }
  }
  return r;
}

/** Y R⁻¹ for upper-triangular R (each row by forward substitution), into `out` (which may be Y). */
function timesInverseUpper(y: Float32Array, r: Float64Array, n: number, l: number, helper: Helper | null, out: Float32Array): Float32Array {
  const rt = block64(l * l, helper !== null); // rt[j * l + k] = r[k * l + j]: R's columns contiguous
  for (let k = 0; k < l; k++) for (let j = k; j < l; j++) rt[j * l + k] = r[k * l + j];
  if (!helper) invUpperRows(y, rt, out, l, 0, n);
  else {
    const task = { op: 'invUpper' as const, y, rt, out, l };
    helper.split({ ...task, from: 0, to: n >> 1 }, { ...task, from: n >> 1, to: n });
  }
  return out;
}

/** Eigenvalues and eigenvectors (columns of the returned l × l matrix) of a symmetric matrix, cyclic Jacobi. */
export function symmetricEigen(m: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < l; p++) {
      diag += a[p * l + p] * a[p * l + p];
      for (let q = p + 1; q < l; q++) off += a[p * l + q] * a[p * l + q];
    }
    if (off <= 1e-22 * diag || off === 0) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p];
          const akq = a[k * l + q];
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k];
          const aqk = a[q * l + k];
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p];
          const vkq = v[k * l + q];
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = a[i * l + i];
  return { values, vectors: v };
}

/** A seeded Gaussian stream (mulberry32 + Box–Muller): every build of one vault learns the same vectors. */
function gaussian(seed: number): () => number {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * The k eigenpairs of largest magnitude of a symmetric sparse matrix (k is cut to n), with the caller's
 * helper thread, or its own when none is given (null: one thread). On a big matrix the loops run on two
 * threads (helper.ts): on the handbook (20,000 words, 5.25 M entries) the decomposition
 * took 3.05 s on one thread and 1.96 s on two (the same vectors).
 */
export function truncatedEigen(a: Csr, opts: SvdOptions = SVD_DEFAULTS, helper?: Helper | null): Eigen {
  const n = a.n;
  const l = Math.min(n, opts.k + opts.oversample);
  const k = Math.min(opts.k, l);
  if (helper !== undefined) return decompose(a, n, l, k, opts, helper);
  const own = Helper.start(a.rowStart[n] * l);
  try {
    return decompose(a, n, l, k, opts, own);
  } finally {
    own?.close();
  }
}

function decompose(a: Csr, n: number, l: number, k: number, opts: SvdOptions, helper: Helper | null): Eigen {
  const shared = helper !== null;
  // The column copies in memory the matrix's builder no longer needs, when it is big enough (the PPMI
  // count's word sequence and positions on the handbook): the peak RSS is ~20 MB lower.
  const s = scratch(n, l, shared, a.spare);
  const next = gaussian(opts.seed);
  // Two n × l blocks in turn: each product reads Q from one and writes into the other, which is then
  // orthonormalised in place.
  let q = block32(n * l, shared);
  for (let i = 0; i < q.length; i++) q[i] = next();
  let spare = block32(n * l, shared);
  for (let it = 0; it <= opts.power; it++) {
    const y = sparseTimesDense(a, q, l, helper, spare);
    spare = q;
    q = orthonormalize(y, n, l, helper, s, true);
  }
  // Rayleigh–Ritz: B = Qᵀ A Q (l × l), whose eigenpairs lift to A's through Q.
  const aq = sparseTimesDense(a, q, l, helper, spare);
  const b = transposeTimes(q, aq, n, l, true, helper, s);
  const eig = symmetricEigen(b, l);
  const order = [...eig.values.keys()].sort((x, y) => Math.abs(eig.values[y]) - Math.abs(eig.values[x])).slice(0, k);
  const w = block32(l * k, shared); // the chosen eigenvectors, row j = Q's column j
  for (let j = 0; j < l; j++) for (let c = 0; c < k; c++) w[j * k + c] = eig.vectors[j * l + order[c]];
  // Q W into the block that held A Q (its last use was B): one n × l block fewer at the peak.
  const vectors = new Float32Array(spare.buffer, spare.byteOffset, n * k).fill(0);
  if (!helper) timesRows(q, w, vectors, l, k, 0, n);
  else {
    const task = { op: 'times' as const, q, w, out: vectors, l, k };
    helper.split({ ...task, from: 0, to: n >> 1 }, { ...task, from: n >> 1, to: n });
  }
  return { vectors, values: Float64Array.from(order.map((e) => Math.abs(eig.values[e]))), k };
}
