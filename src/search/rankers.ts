// The rankers fused by search: each is one FTS5 query over some columns, ranked by bm25().
import type { ColumnWeights } from '../index/section-search.js';
import { bigrams } from '../text/normalize.js';
import { anyOf, columnMatch } from './fts-query.js';
import type { QueryTerms } from './query-terms.js';

export interface Ranker {
  name: RankerName;
  match: string;
  weights: ColumnWeights;
}

export type RankerName = 'words' | 'bigrams' | 'phrases' | 'all-phrases' | 'all-bigrams' | 'head' | 'head-bigrams';

const WORDS = ['head_words', 'body_words'];
const CJK = ['head_cjk', 'body_cjk'];
/**
 * Column weights of the all-terms rankers. Head columns count for `headWeight` (< 1): the heading ranker
 * already rewards them, and a title shared by every section would otherwise make the note's shortest
 * section its best.
 */
const all = (headWeight: number): ColumnWeights => [headWeight, 1, headWeight, 1];

/** A CJK piece as one FTS5 phrase of its bigrams: a word counts once, with its own IDF, however long. */
function phrases(terms: QueryTerms): string[] {
  return terms.cjkPieces.map((p) => bigrams(p).join(' '));
}

function build(name: RankerName, t: QueryTerms, headWeight: number): Ranker | null {
  let match: string | null = null;
  let weights: ColumnWeights = all(headWeight);
  switch (name) {
    case 'words':
      match = columnMatch(WORDS, t.words);
      weights = [1, 1, 0, 0];
      break;
    case 'bigrams':
      match = columnMatch(CJK, t.cjk, t.cjkSingles);
      weights = [0, 0, 1, 1];
      break;
    case 'phrases':
      match = columnMatch(CJK, phrases(t), t.cjkSingles);
      weights = [0, 0, 1, 1];
      break;
    case 'all-phrases':
      // Every term of the query in one BM25 sum: notes that cover more of the query (words and CJK) win.
      match = anyOf([columnMatch(WORDS, t.words), columnMatch(CJK, phrases(t), t.cjkSingles)]);
      break;
    case 'all-bigrams':
      match = anyOf([columnMatch(WORDS, t.words), columnMatch(CJK, t.cjk, t.cjkSingles)]);
      break;
    case 'head':
      match = anyOf([columnMatch(['head_words'], t.words), columnMatch(['head_cjk'], phrases(t), t.cjkSingles)]);
      weights = [1, 0, 1, 0];
      break;
    case 'head-bigrams':
      match = anyOf([columnMatch(['head_words'], t.words), columnMatch(['head_cjk'], t.cjk, t.cjkSingles)]);
      weights = [1, 0, 1, 0];
      break;
  }
  return match ? { name, match, weights } : null;
}

export function buildRankers(names: readonly RankerName[], terms: QueryTerms, headWeight: number): Ranker[] {
  return names.map((n) => build(n, terms, headWeight)).filter((r): r is Ranker => r !== null);
}

/** Matches anything any ranker could: what `total` counts. */
export function anyTermMatch(t: QueryTerms): string | null {
  return anyOf([columnMatch(WORDS, t.words), columnMatch(CJK, t.cjk, t.cjkSingles)]);
}
