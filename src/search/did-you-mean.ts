// "Did you mean": when a search finds nothing, the query's words that occur nowhere in the index are
// replaced by the nearest indexed words (`dataveiw` → `dataview`). Only Latin words are looked at; CJK
// text is matched by bigrams, where a typo has no single nearest word.
import type { Database } from '../index/db.js';
import { Vocabulary, type VocabularyTerm } from '../index/vocabulary.js';
import { normalize } from '../text/normalize.js';
import { letterOrNumberRuns } from '../text/unicode.js';
import { columnMatch } from './fts-query.js';
import { queryTerms } from './query-terms.js';
import { WORD_COLUMNS } from './rankers.js';

/** Words looked at per query: a pasted paragraph that matched nothing is not worth a scan per word. */
const MAX_WORDS = 8;
/** Sections read to find how a stem is written. */
const SAMPLE_SECTIONS = 5;
const LATIN_WORD = /^[a-z][a-z0-9_'-]*$/;

/** The query with its unknown words replaced, or null when there is nothing to suggest. */
export function didYouMean(db: Database, text: string): string | null {
  const vocab = new Vocabulary(db);
  const replaced = new Map<string, string>();
  for (const word of queryTerms(text).words.slice(0, MAX_WORDS)) {
    if (word.length < 3 || !LATIN_WORD.test(word)) continue;
    if (vocab.matches(columnMatch(WORD_COLUMNS, [word]) as string)) continue;
    const stem = nearestTerm(word, [...vocab.termsStartingWith(word[0]), ...vocab.termsStartingWith(word[1])]);
    if (!stem) continue;
    const written = writtenForm(vocab, stem, word);
    if (written && written !== word) replaced.set(word, written);
  }
  if (replaced.size === 0) return null;
  // Token by token, so the rest of the query (operators, case, CJK) stays as the user wrote it.
  return text.replace(/[\p{L}\p{N}_'-]+/gu, (tok) => replaced.get(normalize(tok)) ?? tok);
}

/**
 * The indexed term nearest to `word`. Terms are porter stems (`configur`), so a term may also stand for
 * the start of the word: compared with the word's first letters, plus half a point per letter left over.
 */
export function nearestTerm(word: string, terms: VocabularyTerm[]): string | null {
  const limit = word.length <= 4 ? 1 : 2;
  let best: { term: string; cost: number; doc: number } | null = null;
  for (const { term, doc } of terms) {
    if (!LATIN_WORD.test(term) || Math.abs(term.length - word.length) > 5) continue;
    const whole = editDistance(word, term, limit);
    const asStem = term.length >= 4 && term.length < word.length ? editDistance(word.slice(0, term.length), term, limit) + (word.length - term.length) / 2 : Infinity;
    const cost = Math.min(whole, asStem);
    if (cost > limit) continue;
    if (!best || cost < best.cost || (cost === best.cost && doc > best.doc)) best = { term, cost, doc };
  }
  return best?.term ?? null;
}

/** How the notes write a stem: the word starting with it that is closest to what the user typed. */
function writtenForm(vocab: Vocabulary, stem: string, typed: string): string | null {
  let best: { word: string; cost: number } | null = null;
  for (const text of vocab.sectionTexts(columnMatch(WORD_COLUMNS, [stem]) as string, SAMPLE_SECTIONS)) {
    for (const w of letterOrNumberRuns(normalize(text))) {
      if (!w.startsWith(stem.slice(0, Math.max(1, stem.length - 1)))) continue;
      const cost = editDistance(typed, w, 99);
      if (!best || cost < best.cost) best = { word: w, cost };
    }
  }
  return best?.word ?? (LATIN_WORD.test(stem) ? stem : null);
}

/** Optimal string alignment distance (a swap of neighbours costs 1), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}
