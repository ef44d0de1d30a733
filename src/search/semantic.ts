// The semantic ranker: the query's vector (the idf-weighted mean of its words' vectors, learned from the
// vault by src/index/semantic/) against the vectors of the sections the lexical rankers found, and of
// their notes (note-vectors.ts), by cosine. It only reorders what they found: unrestricted, it ranked
// near-synonyms of common words above the sections that hold the query's words (issue 14's finding), and
// scoring every section would read every vector. Costs four indexed reads: which query pieces are words,
// their vectors, the candidate sections' vectors, the candidate notes' vectors.
import type { Database } from '../index/db.js';
import { lookUpWords, textVector } from '../index/semantic/embed.js';
import { cosinesWithStored } from '../index/semantic/quantize.js';
import { SemanticStore } from '../index/semantic/store.js';
import { longKanjiRuns, runPieces, semanticWords, vocabularySplitter } from '../index/semantic/words.js';
import { descending } from '../core/order.js';

/** A query as the semantic model sees it: its unit vector, and the model's store to compare it with. */
export interface SemanticQuery {
  store: SemanticStore;
  vector: Float32Array;
}

/** The query's vector, or null (no model, or no known word in the query). */
export function semanticQuery(db: Database, query: string): SemanticQuery | null {
  const store = new SemanticStore(db);
  const vector = queryVector(store, query);
  return vector ? { store, vector } : null;
}

/** The query's unit vector from the model's words, or null (no model, or no known word in the query). */
function queryVector(store: SemanticStore, query: string): Float32Array | null {
  const state = store.state();
  if (state?.kind !== 'trained') return null;
  // Long kanji runs are cut by the model's vocabulary, not Intl.Segmenter (whose first call costs ~12 ms).
  const runs = longKanjiRuns(query);
  const known = runs.length ? store.knownWords(runs.flatMap((r) => runPieces(r))) : new Set<string>();
  const words = semanticWords(query, vocabularySplitter((w) => known.has(w)));
  if (words.length === 0) return null;
  return textVector(words, lookUpWords(store, words), state.dims);
}

/**
 * The words of each compound CJK piece of the query, cut by the vault's model vocabulary (the words
 * Intl.Segmenter cut from the vault at training): `経費精算` → `経費`, `精算`. Only pieces that cut into two
 * or more known words are listed; without a model (small vaults, `"semantic": false`) nothing is.
 */
export function compoundWords(db: Database, pieces: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (pieces.length === 0) return out;
  const store = new SemanticStore(db);
  if (store.state()?.kind !== 'trained') return out;
  const runs = pieces.flatMap((p) => longKanjiRuns(p));
  const known = runs.length ? store.knownWords(runs.flatMap((r) => runPieces(r))) : new Set<string>();
  const split = vocabularySplitter((w) => known.has(w));
  for (const p of pieces) {
    const words = semanticWords(p, split);
    if (words.length >= 2) out.set(p, words);
  }
  return out;
}

/** The candidate sections best first by cosine with the query, with their cosines (those without a vector left out). */
export function semanticOrder(q: SemanticQuery, candidates: number[]): { id: number; cos: number }[] {
  return byCosine(q.vector, candidates, q.store.sectionVectors(candidates));
}

/** The candidate notes best first by the cosine of the query with their note vectors (note-vectors.ts). */
export function semanticNoteOrder(q: SemanticQuery, noteIds: number[]): { id: number; cos: number }[] {
  return byCosine(q.vector, noteIds, q.store.noteVectors(noteIds));
}

function byCosine(q: Float32Array, ids: number[], vectors: Map<number, Buffer>): { id: number; cos: number }[] {
  const cos = cosinesWithStored(q, ids.map((id) => vectors.get(id)));
  // Places, not objects, are sorted (a search's first sort runs unoptimised). Equal cosines keep the
  // candidates' order (which is the lexical rankers'): never ordered by row id. No vector: left out.
  const at: number[] = [];
  for (let i = 0; i < ids.length; i++) if (!Number.isNaN(cos[i])) at.push(i);
  at.sort((a, b) => descending(cos[a], cos[b]) || a - b);
  return at.map((i) => ({ id: ids[i], cos: cos[i] }));
}

/**
 * The `depth` sections of the whole vault most like the query by cosine, best first (ties by row id: a
 * measurement aid, every vector read).
 */
export function semanticNearest(sq: SemanticQuery, depth: number): number[] {
  const q = sq.vector;
  const all: { id: number; cos: number }[] = [];
  const rows = [...sq.store.allSectionVectors()].filter((r) => r.vec.length);
  const cos = cosinesWithStored(q, rows.map((r) => r.vec));
  rows.forEach((r, i) => all.push({ id: r.id, cos: cos[i] }));
  all.sort((a, b) => descending(a.cos, b.cos) || a.id - b.id);
  return all.slice(0, depth).map((r) => r.id);
}
