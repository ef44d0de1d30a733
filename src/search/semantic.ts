// The semantic ranker: the query's vector (the idf-weighted mean of its words' vectors, learned from the
// vault by src/index/semantic/) against the vectors of the sections the lexical rankers found, by cosine.
// It only reorders what they found: unrestricted, it ranked near-synonyms of common words above the
// sections that hold the query's words (issue 14's finding), and scoring every section would read every
// vector. Costs three indexed reads: which query pieces are words, their vectors, the candidates' vectors.
import type { Database } from '../index/db.js';
import { lookUpWords, textVector } from '../index/semantic/embed.js';
import { cosineWithStored } from '../index/semantic/quantize.js';
import { SemanticStore } from '../index/semantic/store.js';
import { longKanjiRuns, runPieces, semanticWords, vocabularySplitter } from '../index/semantic/words.js';

/** The candidates best first by cosine with the query; null when the index has no model or the query no known word. */
export function semanticOrder(db: Database, query: string, candidates: number[]): number[] | null {
  if (candidates.length === 0) return null;
  const store = new SemanticStore(db);
  const state = store.state();
  if (state?.kind !== 'trained') return null;
  // Long kanji runs are cut by the model's vocabulary, not Intl.Segmenter (whose first call costs ~12 ms).
  const runs = longKanjiRuns(query);
  const known = runs.length ? store.knownWords(runs.flatMap((r) => runPieces(r))) : new Set<string>();
  const words = semanticWords(query, vocabularySplitter((w) => known.has(w)));
  if (words.length === 0) return null;
  const q = textVector(words, lookUpWords(store, words), state.dims);
  if (!q) return null;
  const vectors = store.sectionVectors(candidates);
  const scored = candidates.map((id, i) => ({ id, i, cos: vectors.has(id) ? cosineWithStored(q, vectors.get(id) as Buffer) : -2 }));
  // Equal cosines keep the candidates' order (which is the lexical rankers'): never ordered by row id.
  scored.sort((a, b) => b.cos - a.cos || a.i - b.i);
  return scored.filter((s) => s.cos > -2).map((s) => s.id);
}
