// Which section of a note a hit shows: the one whose own text covers the query best. The ranking already
// chose the note (with heading and title evidence); this only picks what to show of it.
import type { SectionText } from '../index/section-search.js';
import { normalize } from '../text/normalize.js';
import type { QueryTerms } from './query-terms.js';

/**
 * Per note, the section with the best body score: each query word, CJK piece (×2: a whole word) and
 * bigram found adds its saturated count, lightly normalised by length. Notes none of whose sections
 * match keep the ranking's choice (absent from the result).
 */
export function bestSectionPerNote(sections: SectionText[], terms: QueryTerms): Map<number, number> {
  const weighted: [string, number][] = [
    ...terms.words.map((w): [string, number] => [w, 1]),
    ...terms.cjkPieces.map((p): [string, number] => [p, 2]),
    ...terms.cjk.map((b): [string, number] => [b, 1]),
    ...terms.cjkSingles.map((c): [string, number] => [c, 0.5]),
  ];
  const best = new Map<number, { id: number; score: number }>();
  for (const s of sections) {
    const text = normalize(s.text);
    let score = 0;
    for (const [term, weight] of weighted) {
      const tf = occurrences(text, term, 8);
      if (tf) score += (weight * tf) / (tf + 1.2);
    }
    if (score === 0) continue;
    score /= 1 + 0.25 * Math.log1p(text.length / 500);
    const b = best.get(s.noteId);
    if (!b || score > b.score) best.set(s.noteId, { id: s.id, score });
  }
  return new Map([...best].map(([noteId, b]) => [noteId, b.id]));
}

function occurrences(text: string, term: string, cap: number): number {
  let n = 0;
  for (let i = text.indexOf(term); i >= 0 && n < cap; i = text.indexOf(term, i + term.length)) n++;
  return n;
}
