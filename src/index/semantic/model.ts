// The semantic model of a vault: word vectors learned from the vault's own co-occurrences (PPMI, then a
// truncated SVD), and section vectors as the idf-weighted mean of their words' vectors. Pure: texts in,
// vectors out; store.ts keeps them in SQLite.
import { ppmiMatrix, PPMI_DEFAULTS, type Docs, type PpmiOptions } from './ppmi.js';
import { block32, Helper, MIN_HELPER_WORK, type CutWords } from './helper.js';
import { sectionRows } from './kernels.js';
import { dequantize, quantize } from './quantize.js';
import { SVD_DEFAULTS, truncatedEigen, type SvdOptions } from './svd.js';
import type { SectionText, Trained, WordModel } from './types.js';
import { forgetKanjiSplits, semanticWords, type KanjiSplitter } from './words.js';
import { collectGarbage } from './collect-garbage.js';

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
/** Words read after which a full collection before the matrix is worth its ~50 ms (collect-garbage.ts). */
const GC_AFTER_WORDS = 1_000_000;

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
  // The texts read are garbage now; collected before the matrix is built, they no longer add to the peak.
  if (used >= GC_AFTER_WORDS) collectGarbage();

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
  const second = shared ? Helper.start(used * 128) : null;
  try {
    return learn(docs, ids, df, chosen, words, k, opts, second);
  } finally {
    second?.close();
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

function int32(length: number, shared: boolean): Int32Array {
  return new Int32Array(shared ? new SharedArrayBuffer(length * 4) : new ArrayBuffer(length * 4));
}
