// A parsed query's operators as FTS5 expressions and filters (query-syntax.ts → SearchFilters). User
// text is never FTS5 syntax here either: each phrase is cut into words and CJK runs the way the index
// cuts text, and every piece is a quoted string.
import type { SearchFilters } from '../core/types.js';
import { bigrams, cjkRuns, hasCjk, searchText, stripCjk } from '../text/normalize.js';
import { letterOrNumberRuns } from '../text/unicode.js';
import { buildFilters, type FilterFlags } from './filters.js';
import { anyOf, quote } from './fts-query.js';
import type { ParsedQuery } from './query-syntax.js';
import { CJK_COLUMNS, WORD_COLUMNS } from './rankers.js';

const SECTION_COLUMNS = { words: WORD_COLUMNS, cjk: CJK_COLUMNS };

/**
 * A phrase as an FTS5 expression over a section's columns: its Latin words as one phrase of the word
 * columns, each CJK run as a phrase of its bigrams in the CJK columns (a lone CJK character as a bigram
 * prefix). The index keeps the two scripts in separate columns, so a phrase that mixes them needs each
 * part, not their order. Null when the phrase holds no word at all.
 */
export function phraseMatch(phrase: string, columns: { words: readonly string[]; cjk: readonly string[] } = SECTION_COLUMNS): string | null {
  const norm = searchText(phrase);
  const parts: string[] = [];
  const words = letterOrNumberRuns(stripCjk(norm)).filter((w) => !hasCjk(w));
  if (words.length) parts.push(`{${columns.words.join(' ')}} : ${quote(words.join(' '))}`);
  for (const run of cjkRuns(norm)) {
    const grams = bigrams(run);
    const match = grams.length === 1 && Array.from(run).length === 1 ? `${quote(run)}*` : quote(grams.join(' '));
    parts.push(`{${columns.cjk.join(' ')}} : ${match}`);
  }
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' AND ');
}

/** The filters a parsed query adds to the flags' (`filters`, returned changed). */
export function applySyntax(filters: SearchFilters, q: ParsedQuery, now: Date): SearchFilters {
  if (!q.operators) return filters;
  const out: SearchFilters = { ...filters };
  // `tag:x` in the query means what `--tag x` means; it must hold as well as the flags, not instead of them.
  const flags: FilterFlags = { tag: q.filters.tag, path: q.filters.path, type: q.filters.type, status: q.filters.status };
  const also = buildFilters(flags, null, now);
  if (Object.keys(also).length) out.also = also;
  // A side without a word (`x OR *`) could be met by anything: its group constrains nothing.
  const required = q.required.map((group) => group.map((p) => phraseMatch(p))).flatMap((ms) => (ms.includes(null) ? [] : [anyOf(ms) as string]));
  if (required.length) out.sectionMatches = required;
  const excluded = anyOf(q.excluded.map((p) => phraseMatch(p)));
  if (excluded) out.excludeMatch = excluded;
  return out;
}
