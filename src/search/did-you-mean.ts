// "Did you mean": when a search finds nothing, the query's words that occur nowhere in the index are
// replaced by the nearest indexed words (`dataveiw` → `dataview`). Only Latin words are looked at; CJK
// text is matched by bigrams, where a typo has no single nearest word.
import type { Database } from '../index/db.js';
import { Vocabulary, type VocabularyTerm } from '../index/vocabulary.js';
import { normalize, searchText } from '../text/normalize.js';
import { ENGLISH_STOPWORDS } from '../text/stopwords.js';
import { letterOrNumberRuns } from '../text/unicode.js';
import { columnMatch } from './fts-query.js';
import { queryTerms } from './query-terms.js';
import { BODY_WORD_COLUMNS, WORD_COLUMNS } from './rankers.js';

/** Words looked at per query: a pasted paragraph that matched nothing is not worth a scan per word. */
const MAX_WORDS = 8;
/** Stems whose written words are looked at. */
const MAX_CANDIDATES = 8;
/**
 * Sections read to find how a stem is written, among those whose text holds it: with 5, and headings
 * counted, the Hub's `templat` (600 sections) showed no written word near `templatr`, and `templatey`
 * (one note) was offered instead of `templater` (66).
 */
const SAMPLE_SECTIONS = 20;
const LATIN_WORD = /^[a-z][a-z0-9_'-]*$/;

/**
 * `shown` (the query as typed) with the unknown words of `text` (its words to look up) replaced, or null
 * when there is nothing to suggest. `excluded`: Obsidian's Excluded files, whose notes' words are unknown.
 */
export function didYouMean(db: Database, text: string, shown = text, excluded: readonly string[] = []): string | null {
  const vocab = new Vocabulary(db, excluded);
  const replaced = new Map<string, string>();
  for (const word of queryTerms(text).words.slice(0, MAX_WORDS)) {
    // A stopword (`thanks`) is searched only when nothing else is left: no note needs it, and the nearest
    // word to one is another (`than`).
    if (word.length < 3 || !LATIN_WORD.test(word) || ENGLISH_STOPWORDS.has(word)) continue;
    if (vocab.matches(columnMatch(WORD_COLUMNS, [word]) as string)) continue;
    // Terms sharing the first letter, or starting with the second (a first letter typed twice or too many).
    const firsts = [...new Set([word[0], word[1]])];
    const stems = nearTerms(word, firsts.flatMap((c) => vocab.termsStartingWith(c)));
    const written = nearestWritten(vocab, stems, word);
    if (written && written !== word) replaced.set(word, written);
  }
  if (replaced.size === 0) return null;
  // Token by token, so the rest of the query (operators, case, CJK) stays as the user wrote it. A word the
  // query cutter spelled out (`c#` is searched as `csharp`) has no token of its own here: a suggestion that
  // changes nothing typed ("did you mean: c#" for `c#`) is none.
  const suggestion = shown.replace(/[\p{L}\p{N}_'-]+/gu, (tok) => replaced.get(normalize(tok)) ?? tok);
  return suggestion === shown ? null : suggestion;
}

/** Most edits a suggestion may be from the typed word: 1 for words of up to 4 letters, else 2. */
function editLimit(word: string): number {
  return word.length <= 4 ? 1 : 2;
}

/**
 * Indexed terms that may stand for what `word` meant, nearest first. Terms are porter stems (`deploy` for
 * deployment, `pipelin` for pipeline), so a term may also match the start of the word (stemDistance).
 * The final choice is made on the written words (nearestWritten): a stem's distance alone preferred
 * `deploymnet`, a misspelling one note held, to `deployment` for `deplyment` in the handbook corpus.
 */
export function nearTerms(word: string, terms: VocabularyTerm[]): string[] {
  const limit = editLimit(word);
  const scored: { term: string; cost: number; doc: number }[] = [];
  for (const { term, doc } of terms) {
    if (!LATIN_WORD.test(term) || Math.abs(term.length - word.length) > 5) continue;
    const whole = editDistance(word, term, limit);
    const asStem = term.length >= 3 && term.length < word.length ? stemDistance(word, term, limit) : Infinity;
    const cost = Math.min(whole, asStem);
    if (cost <= limit) scored.push({ term, cost, doc });
  }
  scored.sort((a, b) => a.cost - b.cost || b.doc - a.doc);
  return scored.slice(0, MAX_CANDIDATES).map((s) => s.term);
}

/**
 * How far `stem` is from the start of `word`, plus a quarter point per letter of the word beyond it
 * (porter strips one to four letters: deployment → deploy). The start
 * is taken one letter shorter or longer as well, so that a letter left out or added before the stem's end
 * counts once (deplyment against deploy: deply → deploy is one edit).
 */
function stemDistance(word: string, stem: string, limit: number): number {
  let best = Infinity;
  for (const n of [stem.length - 1, stem.length, stem.length + 1]) {
    if (n < 1 || n > word.length) continue;
    best = Math.min(best, editDistance(word.slice(0, n), stem, limit) + (word.length - n) / 4);
  }
  return best;
}

/**
 * Of the words the notes write for these stems, the one nearest to what the user typed (within the limit);
 * among equally near ones, the one written most often in the sections read, then the nearer stem's.
 */
function nearestWritten(vocab: Vocabulary, stems: string[], typed: string): string | null {
  const limit = editLimit(typed);
  const seen = new Map<string, { cost: number; rank: number; count: number }>();
  stems.forEach((stem, rank) => {
    for (const text of vocab.sectionTexts(columnMatch(BODY_WORD_COLUMNS, [stem]) as string, SAMPLE_SECTIONS)) {
      for (const w of letterOrNumberRuns(searchText(text))) {
        if (w === typed || ENGLISH_STOPWORDS.has(w) || !w.startsWith(stem.slice(0, Math.max(1, stem.length - 1)))) continue;
        const known = seen.get(w);
        if (known) {
          known.count++;
          continue;
        }
        const cost = editDistance(typed, w, limit);
        if (cost <= limit) seen.set(w, { cost, rank, count: 1 });
      }
    }
  });
  let best: [string, { cost: number; rank: number; count: number }] | null = null;
  for (const entry of seen) {
    const [, c] = entry;
    const b = best?.[1];
    if (!b || c.cost < b.cost || (c.cost === b.cost && (c.count > b.count || (c.count === b.count && c.rank < b.rank)))) best = entry;
  }
  return best?.[0] ?? null;
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
