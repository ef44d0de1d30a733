// The semantic model of a vault: word vectors learned from the vault's own co-occurrences (PPMI, then a
// truncated SVD), and section vectors as the idf-weighted mean of their words' vectors. Pure: texts in,
// vectors out; store.ts keeps them in SQLite.
import { ppmiMatrix, PPMI_DEFAULTS, type Docs, type PpmiOptions } from './ppmi.js';
import { block32, Helper } from './helper.js';
import { sectionRows } from './kernels.js';
import { dequantize, quantize } from './quantize.js';
import { SVD_DEFAULTS, truncatedEigen, type SvdOptions } from './svd.js';
import type { SectionText, Trained, WordModel } from './types.js';
import { forgetKanjiSplits, semanticWords, type KanjiSplitter } from './words.js';

export interface TrainOptions {
  /** Fewest sections to learn from: below it co-occurrence counts are too thin to mean anything. */
  minSections: number;
  /** Fewest sections a word must occur in. */
  minDf: number;
  /** The most widespread words kept (the matrix and the SVD's cost grow with it). */
  maxVocab: number;
  /**
   * Eigenvalue weighting of the word vectors: U · Σ^p (Levy et al. 2015 found p = 0.5 or 0 best). Fused,
   * p = 0 scored 0.516 nDCG@10 on the handbook and p = 0.5 0.503 (a run that also kept single kanji).
   */
  eigenPower: number;
  /** Remove the mean word vector (see train). On the handbook the ranker alone fell from 0.495 to 0.417. */
  center: boolean;
  ppmi: PpmiOptions;
  svd: SvdOptions;
}

export const TRAIN_DEFAULTS: TrainOptions = {
  minSections: 300,
  minDf: 2,
  maxVocab: 20_000,
  eigenPower: 0,
  center: false,
  ppmi: PPMI_DEFAULTS,
  svd: SVD_DEFAULTS,
};

/** Learns from the sections, or returns null when they are too few. */
export function train(sections: Iterable<SectionText>, opts: TrainOptions = TRAIN_DEFAULTS, split?: KanjiSplitter): Trained | null {
  // Words → ids as they come; the sections' words are kept as ids, one after another in one array
  // (`start[d]` is where section d's begin), so the texts are read once and no array is made per section.
  const typeIds = new Map<string, number>();
  const types: string[] = [];
  const ids: number[] = [];
  const start: number[] = [0];
  let flat = new Int32Array(1 << 20);
  let used = 0;
  let df = new Int32Array(1 << 16);
  let lastSeen = new Int32Array(1 << 16).fill(-1);
  for (const s of sections) {
    const words = semanticWords(s.text, split);
    const d = ids.length;
    if (used + words.length > flat.length) flat = grow(flat, 0, used + words.length);
    for (let i = 0; i < words.length; i++) {
      let t = typeIds.get(words[i]);
      if (t === undefined) {
        t = types.length;
        typeIds.set(words[i], t);
        types.push(words[i]);
        if (t >= df.length) {
          df = grow(df, 0);
          lastSeen = grow(lastSeen, -1);
        }
      }
      flat[used++] = t;
      if (lastSeen[t] !== d) {
        lastSeen[t] = d;
        df[t]++;
      }
    }
    ids.push(s.id);
    start.push(used);
  }
  // What only the reading needed goes before the matrix is built: the map of every word type (hundreds of
  // thousands of strings) and the segmenter's cache of kanji runs. Held through the decomposition, a
  // handbook build with the model peaked at 430 MB RSS; without them, 403–419 MB (one run each).
  typeIds.clear();
  forgetKanjiSplits();
  if (ids.length < opts.minSections) return null;
  // In shared memory when a helper thread will read them (helper.ts; the handbook's 3 M words).
  const shared = Helper.wanted(used * 128);
  const docs: Docs = { words: int32(used, shared), start: int32(start.length, shared) };
  docs.words.set(flat.subarray(0, used));
  docs.start.set(start);
  flat = new Int32Array(0);

  // The vocabulary: words in ≥ minDf sections, the most widespread first (ties by the word: reproducible).
  const chosen = [...types.keys()].filter((t) => df[t] >= opts.minDf);
  chosen.sort((a, b) => df[b] - df[a] || (types[a] < types[b] ? -1 : 1));
  chosen.length = Math.min(chosen.length, opts.maxVocab);
  if (chosen.length < 2) return null;
  const vocabOf = new Int32Array(types.length).fill(-1);
  chosen.forEach((t, v) => (vocabOf[t] = v));
  for (let i = 0; i < used; i++) docs.words[i] = vocabOf[docs.words[i]];
  const words = chosen.map((t) => types[t]);
  types.length = 0;

  // At most one dimension per 8 words: with as many dimensions as words, U's rows are orthonormal and
  // every pair of words is equally (un)related (a small vault's few hundred words would learn nothing).
  const k = Math.min(opts.svd.k, Math.max(2, Math.floor(chosen.length / 8)));
  const helper = shared ? Helper.start(used * 128) : null;
  try {
    return learn(docs, ids, df, chosen, words, k, opts, helper);
  } finally {
    helper?.close();
  }
}

function learn(docs: Docs, ids: number[], df: Int32Array, chosen: number[], words: string[], k: number, opts: TrainOptions, helper: Helper | null): Trained {
  const eig = truncatedEigen(ppmiMatrix(docs, chosen.length, opts.ppmi, helper), { ...opts.svd, k }, helper);
  const n = chosen.length;
  const dims = eig.k;
  const weight = Float64Array.from(eig.values, (v) => Math.pow(v, opts.eigenPower));
  // Unit rows; optionally the mean row removed ("all-but-the-top", Mu & Viswanath 2018: the words share
  // a common direction that makes most cosines 0.5–0.7). It ranked worse here, so it is off.
  const rows = new Float64Array(n * dims);
  const mean = new Float64Array(dims);
  for (let w = 0; w < n; w++) {
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += (rows[w * dims + c] = eig.vectors[w * dims + c] * weight[c]) ** 2;
    const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let c = 0; c < dims; c++) mean[c] += (rows[w * dims + c] *= s) / n;
  }
  const vectors: Buffer[] = [];
  for (let w = 0; w < n; w++) {
    if (opts.center) for (let c = 0; c < dims; c++) rows[w * dims + c] -= mean[c];
    vectors.push(quantize(rows, w * dims, dims));
  }
  const idf = Float32Array.from(chosen, (t) => Math.log(ids.length / df[t]));
  const model: WordModel = { dims, words, idf, vectors, sections: ids.length };

  // Section vectors from the stored word vectors, as an incremental sync computes them later (embed.ts).
  const unit = block32(n * dims, helper !== null);
  for (let w = 0; w < n; w++) dequantize(vectors[w], unit.subarray(w * dims, (w + 1) * dims));
  // Section vectors by kernels.ts sectionRows (embed.ts's weightedMean and quantize, term for term), the
  // sections split with the helper: through weightedMean's callbacks (a subarray per word occurrence) the
  // handbook's 58,000 sections took ~0.8 s.
  const shared = helper !== null;
  const sections = ids.length;
  const out = new Int8Array(shared ? new SharedArrayBuffer(sections * dims) : new ArrayBuffer(sections * dims));
  const has = new Uint8Array(shared ? new SharedArrayBuffer(sections) : new ArrayBuffer(sections));
  const idfShared = shared ? block32(n, true) : idf;
  idfShared.set(idf);
  const task = { op: 'sections' as const, docs: docs.words, docStart: docs.start, idf: idfShared, unit, dims, out, has };
  if (helper) helper.split({ ...task, from: 0, to: sections >> 1 }, { ...task, from: sections >> 1, to: sections });
  else sectionRows(docs.words, docs.start, idf, unit, dims, out, has, 0, sections);
  const bytes = new Uint8Array(out.buffer);
  const sectionVectors = new Map<number, Buffer>();
  // Copied out of the shared block; empty: no word of the section is known.
  ids.forEach((id, d) => sectionVectors.set(id, has[d] ? Buffer.from(bytes.subarray(d * dims, (d + 1) * dims)) : Buffer.alloc(0)));
  return { model, sectionVectors };
}

function grow(a: Int32Array<ArrayBuffer>, fill: number, atLeast = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(a.length * 2, atLeast)).fill(fill);
  b.set(a);
  return b;
}

function int32(length: number, shared: boolean): Int32Array {
  return new Int32Array(shared ? new SharedArrayBuffer(length * 4) : new ArrayBuffer(length * 4));
}
