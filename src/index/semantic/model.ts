// The semantic model of a vault: word vectors learned from the vault's own co-occurrences (PPMI, then a
// truncated SVD), and section vectors as the idf-weighted mean of their words' vectors. Pure: texts in,
// vectors out; store.ts keeps them in SQLite.
import { ppmiMatrix, PPMI_DEFAULTS, type Docs, type PpmiOptions } from './ppmi.js';
import { block32, Helper, MIN_HELPER_WORK, type CutWords } from './helper.js';
import { sectionRows } from './kernels.js';
import { dequantize, quantize } from './quantize.js';
import { SVD_DEFAULTS, truncatedEigen, type SvdOptions } from './svd.js';
import type { SectionText, Trained, WordModel } from './types.js';
import { forgetKanjiSplits, isStem, semanticWords, type KanjiSplitter } from './words.js';

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

/** Sections read, cut into words and counted at a time (on this thread or the helper's). */
const READ_BATCH = 256;
/**
 * Words read before the helper thread is started to cut every other batch: the handbook's 3.2 M words
 * took ~1.4 s on one thread; a vault under ~4,000 sections of its size never starts one.
 */
const READ_HELPER_WORDS = 200_000;

/** Learns from the sections, or returns null when they are too few. */
export function train(sections: Iterable<SectionText>, opts: TrainOptions = TRAIN_DEFAULTS, split?: KanjiSplitter): Trained | null {
  // Words → ids as they come, in batches of sections; once the vault proves big, every other batch is
  // cut on the helper thread (helper.ts), which keeps a word map of its own. The batches' words are then
  // put one after another in one array (`start[d]`: where section d's begin), as ids of one map.
  const typeIds = new Map<string, number>();
  const types: string[] = [];
  const idOf = (w: string) => {
    let t = typeIds.get(w);
    if (t === undefined) {
      t = types.length;
      typeIds.set(w, t);
      types.push(w);
    }
    return t;
  };
  const ids: number[] = [];
  const batches: { lens: Int32Array; words: Int32Array; texts: string[] | null }[] = [];
  let helper: Helper | null = null;
  let wordsSoFar = 0;
  const cut = (texts: string[]) => {
    const lens = new Int32Array(texts.length);
    const words: number[] = [];
    texts.forEach((text, i) => {
      const ws = semanticWords(text, split);
      lens[i] = ws.length;
      for (const w of ws) words.push(idOf(w));
    });
    wordsSoFar += words.length;
    return { lens, words: Int32Array.from(words), texts: null };
  };
  // The helper's answers, taken as they come (its texts are let go then); in batch order, since its map's
  // ids count up in the order it met the words.
  const local: number[] = []; // the helper's word ids → ours
  const answered = (answers: CutWords[]) => {
    for (const a of answers) {
      const b = batches[a.batch];
      if (a.failed || !b.texts) continue;
      for (const w of a.newTypes) local.push(idOf(w));
      batches[a.batch] = { lens: a.lens, words: a.words.map((x) => local[x]), texts: null };
    }
  };
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    if (!helper && !split && wordsSoFar >= READ_HELPER_WORDS) helper = Helper.start(MIN_HELPER_WORK);
    if (helper && batches.length % 2 === 1) {
      helper.postTexts(batches.length, pending);
      batches.push({ lens: new Int32Array(0), words: new Int32Array(0), texts: pending });
      answered(helper.takeWords(false));
    } else batches.push(cut(pending));
    pending = [];
  };
  for (const s of sections) {
    ids.push(s.id);
    pending.push(s.text);
    if (pending.length === READ_BATCH) flush();
  }
  flush();
  // The reading helper goes (its word map and segmenter cache with it); the matrix gets a new one.
  const h = helper as Helper | null;
  if (h) {
    answered(h.takeWords(true));
    h.close();
  }
  batches.forEach((b, i) => {
    if (b.texts) batches[i] = cut(b.texts); // the helper failed it: cut here
  });
  // Every section's words in one array, and each word's number of sections.
  let used = 0;
  for (const b of batches) used += b.words.length;
  const shared = Helper.wanted(used * 128);
  const docs: Docs = { words: int32(used, shared), start: int32(ids.length + 1, shared) };
  const df = new Int32Array(types.length);
  const lastSeen = new Int32Array(types.length).fill(-1);
  let d = 0;
  used = 0;
  for (const b of batches) {
    docs.words.set(b.words, used);
    for (let j = 0; j < b.lens.length; j++, d++) {
      for (let i = used; i < used + b.lens[j]; i++) {
        const t = docs.words[i];
        if (lastSeen[t] !== d) {
          lastSeen[t] = d;
          df[t]++;
        }
      }
      used += b.lens[j];
      docs.start[d + 1] = used;
    }
  }
  batches.length = 0;
  // What only the reading needed goes before the matrix is built: the map of every word type (hundreds of
  // thousands of strings) and the segmenter's cache of kanji runs. Held through the decomposition, a
  // handbook build with the model peaked at 430 MB RSS; without them, 403–419 MB (one run each).
  typeIds.clear();
  forgetKanjiSplits();
  if (ids.length < opts.minSections) return null;

  // The vocabulary: words in ≥ minDf sections, the most widespread first (ties by the word: reproducible).
  const byDf = (a: number, b: number) => df[b] - df[a] || (types[a] < types[b] ? -1 : 1);
  const chosen = [...types.keys()].filter((t) => df[t] >= opts.minDf && !isStem(types[t]));
  chosen.sort(byDf);
  chosen.length = Math.min(chosen.length, opts.maxVocab);
  if (chosen.length < 2) return null;
  const stemTypes = [...types.keys()].filter((t) => df[t] >= opts.minDf && isStem(types[t]));
  stemTypes.sort(byDf);
  stemTypes.length = Math.min(stemTypes.length, STEMS_MAX);
  const vocabOf = new Int32Array(types.length).fill(-1);
  chosen.forEach((t, v) => (vocabOf[t] = v));
  const stemOf = new Int32Array(types.length).fill(-1);
  stemTypes.forEach((t, v) => (stemOf[t] = v));
  const stemDoc: number[] = [];
  const stemId: number[] = [];
  for (let dd = 0, i = 0; dd < ids.length; dd++)
    for (; i < docs.start[dd + 1]; i++) {
      const t = docs.words[i];
      if (stemOf[t] >= 0) {
        stemDoc.push(dd);
        stemId.push(stemOf[t]);
      }
      docs.words[i] = vocabOf[t];
    }
  const words = chosen.map((t) => types[t]);
  const stems = { words: stemTypes.map((t) => types[t]), idf: Float32Array.from(stemTypes, (t) => Math.log(ids.length / df[t])), doc: Int32Array.from(stemDoc), id: Int32Array.from(stemId) };
  types.length = 0;

  // At most one dimension per 8 words: with as many dimensions as words, U's rows are orthonormal and
  // every pair of words is equally (un)related (a small vault's few hundred words would learn nothing).
  const k = Math.min(opts.svd.k, Math.max(2, Math.floor(chosen.length / 8)));
  const second = shared ? Helper.start(used * 128) : null;
  try {
    return learn(docs, ids, df, chosen, words, k, opts, second, stems);
  } finally {
    second?.close();
  }
}

interface Stems {
  words: string[];
  idf: Float32Array;
  doc: Int32Array;
  id: Int32Array;
}

const STEMS_MAX = 5000;

function learn(docs: Docs, ids: number[], df: Int32Array, chosen: number[], words: string[], k: number, opts: TrainOptions, helper: Helper | null, stems: Stems): Trained {
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
  foldInStems(model, stems, out, has, dims);
  const bytes = new Uint8Array(out.buffer);
  const sectionVectors = new Map<number, Buffer>();
  // Copied out of the shared block; empty: no word of the section is known.
  ids.forEach((id, d) => sectionVectors.set(id, has[d] ? Buffer.from(bytes.subarray(d * dims, (d + 1) * dims)) : Buffer.alloc(0)));
  return { model, sectionVectors };
}

function int32(length: number, shared: boolean): Int32Array {
  return new Int32Array(shared ? new SharedArrayBuffer(length * 4) : new ArrayBuffer(length * 4));
}

/** A stem's vector: the mean unit vector of the sections it occurs in, less the mean of all sections. */
function foldInStems(model: WordModel, stems: Stems, out: Int8Array, has: Uint8Array, dims: number): void {
  const n = stems.words.length;
  if (n === 0) return;
  const unitOf = (d: number, into: Float64Array) => {
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += (into[c] = out[d * dims + c]) ** 2;
    const s = 1 / Math.sqrt(norm || 1);
    for (let c = 0; c < dims; c++) into[c] *= s;
  };
  const unit = new Float64Array(dims);
  const mean = new Float64Array(dims);
  let sections = 0;
  for (let d = 0; d < has.length; d++) {
    if (!has[d]) continue;
    unitOf(d, unit);
    for (let c = 0; c < dims; c++) mean[c] += unit[c];
    sections++;
  }
  for (let c = 0; c < dims; c++) mean[c] /= sections || 1;
  const sum = new Float64Array(n * dims);
  const count = new Float64Array(n);
  let last = -1;
  for (let p = 0; p < stems.doc.length; p++) {
    const d = stems.doc[p];
    if (!has[d]) continue;
    if (d !== last) unitOf(d, unit);
    last = d;
    const o = stems.id[p] * dims;
    for (let c = 0; c < dims; c++) sum[o + c] += unit[c];
    count[stems.id[p]]++;
  }
  const idf = new Float32Array(model.words.length + n);
  idf.set(model.idf);
  for (let w = 0; w < n; w++) {
    if (count[w] === 0) continue;
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += (sum[w * dims + c] = sum[w * dims + c] / count[w] - FOLD_CENTER * mean[c]) ** 2;
    if (norm === 0) continue;
    const s = 1 / Math.sqrt(norm);
    for (let c = 0; c < dims; c++) sum[w * dims + c] *= s;
    model.vectors.push(quantize(sum, w * dims, dims));
    idf[model.words.length] = stems.idf[w];
    model.words.push(stems.words[w]);
  }
  model.idf = idf.subarray(0, model.words.length);
}
const FOLD_CENTER = 1;
