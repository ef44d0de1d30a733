// Section vectors from the stored word vectors: what an incremental sync gives new and changed sections,
// and what a search does with its query. (The search path loads this, never the trainer: model.ts.)
import type { SectionText } from './types.js';
import { dequantize, quantize } from './quantize.js';
import type { SemanticStore } from './store.js';
import { semanticWords, type KanjiSplitter } from './words.js';

/** Word vectors looked up at once (json_each of a few thousand words is one statement). */
const LOOKUP_BATCH = 5000;

export type WordTable = Map<string, { idf: number; unit: Float32Array }>;

/**
 * Σ idf(w) · vec(w) over the words of a text (a word counts each time it occurs); null when no word has
 * a vector. Its length does not matter: similarity is a cosine.
 */
export function weightedMean<W>(
  words: ArrayLike<W>,
  idfOf: (w: W) => number,
  vecOf: (w: W) => Float32Array | undefined,
  sum: Float64Array,
): Float64Array | null {
  sum.fill(0);
  let any = false;
  for (let i = 0; i < words.length; i++) {
    const weight = idfOf(words[i]);
    if (!(weight > 0)) continue;
    const v = vecOf(words[i]);
    if (!v) continue;
    any = true;
    for (let c = 0; c < sum.length; c++) sum[c] += weight * v[c];
  }
  return any ? sum : null;
}

/** The stored vectors of `words` as unit vectors. */
export function lookUpWords(store: SemanticStore, words: Iterable<string>): WordTable {
  const all = [...new Set(words)];
  const out: WordTable = new Map();
  for (let i = 0; i < all.length; i += LOOKUP_BATCH) {
    for (const [w, r] of store.wordVectors(all.slice(i, i + LOOKUP_BATCH))) out.set(w, { idf: r.idf, unit: dequantize(r.vec) });
  }
  return out;
}

/** The idf-weighted mean of a text's word vectors, as a unit vector; null when none of its words is known. */
export function textVector(words: string[], table: WordTable, dims: number): Float32Array | null {
  const sum = weightedMean(
    words,
    (w) => table.get(w)?.idf ?? 0,
    (w) => table.get(w)?.unit,
    new Float64Array(dims),
  );
  if (!sum) return null;
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += sum[i] * sum[i];
  if (norm === 0) return null;
  const s = 1 / Math.sqrt(norm);
  return Float32Array.from(sum, (x) => x * s);
}

/**
 * Vectors (int8) of these sections from the stored word vectors. A section without a known word gets an
 * empty vector (it matches nothing), so that it is not looked at again by every sync.
 */
export function embedSections(store: SemanticStore, sections: SectionText[], dims: number, split?: KanjiSplitter): Map<number, Buffer> {
  const words = sections.map((s) => semanticWords(s.text, split));
  const table = lookUpWords(store, words.flat());
  const out = new Map<number, Buffer>();
  sections.forEach((s, i) => {
    const v = textVector(words[i], table, dims);
    out.set(s.id, v ? quantize(v) : Buffer.alloc(0));
  });
  return out;
}
