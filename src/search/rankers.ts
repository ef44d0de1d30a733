// The rankers fused by search: each is one FTS5 query over some columns, ranked by bm25().
import type { ColumnWeights } from '../index/section-search.js';
import { NOTE_FTS_COLUMNS, SECTION_FTS_COLUMNS } from '../index/schema.js';
import { bigrams } from '../text/normalize.js';
import { anyOf, columnMatch } from './fts-query.js';
import type { QueryTerms } from './query-terms.js';

export interface Ranker {
  name: RankerName;
  match: string;
  weights: ColumnWeights;
  /** 'note': the evidence is about the whole note (titles, aliases, headings), credited once per note. */
  level: 'section' | 'note';
}

export type RankerName = 'words' | 'bigrams' | 'phrases' | 'all-phrases' | 'all-bigrams' | 'head' | 'head-bigrams';

/**
 * Section-level rankers read the body and, at half weight, the head columns (heading path, title, aliases,
 * path words): a section under a matching heading is more likely on topic. Which section of a note is
 * *shown* is decided by body text alone (display-section.ts), so a short section never wins on its title.
 */
const [HEAD_WORDS, BODY_WORDS, HEAD_CJK, BODY_CJK] = SECTION_FTS_COLUMNS;
const WORDS = [HEAD_WORDS, BODY_WORDS];
const CJK = [HEAD_CJK, BODY_CJK];
const sectionWeights = (head: number): ColumnWeights => [head, 1, head, 1];
/** Note-level rankers read the notes' own rows: name (title, aliases, tags, path) and headings. */
const [NAME_WORDS, HEADINGS_WORDS, NAME_CJK, HEADINGS_CJK] = NOTE_FTS_COLUMNS;
const NOTE_WORDS = [NAME_WORDS, HEADINGS_WORDS];
const NOTE_CJK = [NAME_CJK, HEADINGS_CJK];
const noteWeights = ([name, headings]: readonly [number, number]): ColumnWeights => [name, headings, name, headings];

/** A CJK piece as one FTS5 phrase of its bigrams: a word counts once, with its own IDF, however long. */
function phrases(terms: QueryTerms): string[] {
  return terms.cjkPieces.map((p) => bigrams(p).join(' '));
}

function build(name: RankerName, t: QueryTerms, headWeight: number, noteW: readonly [number, number]): Ranker | null {
  let match: string | null = null;
  let weights: ColumnWeights = sectionWeights(headWeight);
  switch (name) {
    case 'words':
      match = columnMatch(WORDS, t.words, t.prefixes);
      break;
    case 'bigrams':
      match = columnMatch(CJK, t.cjk, t.cjkSingles);
      break;
    case 'phrases':
      match = columnMatch(CJK, phrases(t), t.cjkSingles);
      break;
    case 'all-phrases':
      // Every term of the query in one BM25 sum: sections that cover more of the query (words and CJK) win.
      match = anyOf([columnMatch(WORDS, t.words, t.prefixes), columnMatch(CJK, phrases(t), t.cjkSingles)]);
      break;
    case 'all-bigrams':
      match = anyOf([columnMatch(WORDS, t.words, t.prefixes), columnMatch(CJK, t.cjk, t.cjkSingles)]);
      break;
    case 'head':
      match = anyOf([columnMatch(NOTE_WORDS, t.words, t.prefixes), columnMatch(NOTE_CJK, phrases(t), t.cjkSingles)]);
      weights = noteWeights(noteW);
      break;
    case 'head-bigrams':
      match = anyOf([columnMatch(NOTE_WORDS, t.words, t.prefixes), columnMatch(NOTE_CJK, t.cjk, t.cjkSingles)]);
      weights = noteWeights(noteW);
      break;
  }
  const level = name === 'head' || name === 'head-bigrams' ? 'note' : 'section';
  return match ? { name, match, weights, level } : null;
}

/**
 * The rankers by name; `bigramTerms` (default `terms`) feed the rankers that match single bigrams;
 * `headWeight` is the section rankers' weight of the head columns (body 1).
 */
export function buildRankers(
  names: readonly RankerName[],
  terms: QueryTerms,
  bigramTerms: QueryTerms = terms,
  headWeight = 0.5,
  noteW: readonly [number, number] = [1, 0.25],
): Ranker[] {
  return names
    .map((n) => build(n, n === 'bigrams' || n === 'all-bigrams' || n === 'head-bigrams' ? bigramTerms : terms, headWeight, noteW))
    .filter((r): r is Ranker => r !== null);
}

/** Matches anything any ranker could: what `total` counts. */
export function anyTermMatch(t: QueryTerms): string | null {
  return anyOf([columnMatch(WORDS, t.words, t.prefixes), columnMatch(CJK, t.cjk, t.cjkSingles)]);
}

/**
 * Sections holding at least one query *word* (a Latin word or a whole CJK piece): what `total` counts.
 * A section that shares only a bigram like ュー with the query is a weak candidate, not a match.
 */
export function wordMatch(t: QueryTerms): string | null {
  return anyOf([columnMatch(WORDS, t.words, t.prefixes), columnMatch(CJK, phrases(t), t.cjkSingles)]);
}

/** A section's word and CJK columns, for the other FTS5 expressions over sections (constraints.ts, did-you-mean.ts). */
export const WORD_COLUMNS = WORDS;
/** The body's word column alone: where a section's text (not its headings) holds a word. */
export const BODY_WORD_COLUMNS = [BODY_WORDS];
export const CJK_COLUMNS = CJK;
/** A note's name columns (title, aliases, tags, path words), for looking a note up by its name (search.ts). */
export const NAME_WORD_COLUMNS = [NAME_WORDS];
export const NAME_CJK_COLUMNS = [NAME_CJK];
