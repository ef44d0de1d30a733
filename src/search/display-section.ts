// Which section of a note a hit shows: the one whose own text covers the query best. The ranking already
// chose the note (with heading and title evidence); this only picks what to show of it.
import type { SectionText } from '../index/section-search.js';
import { externalLinkLabels } from '../text/markdown-line.js';
import { searchText } from '../text/normalize.js';
import type { QueryTerms } from './query-terms.js';

/**
 * Per note, the section with the best score over its own heading and text: each query word, CJK piece (×2:
 * a whole word) and bigram found adds its saturated count, lightly normalised by length, in the text as a
 * reader sees it
 * (externalLinkLabels: a web link's label, not its URL; a badge's alt text, not the repository in its address:
 * the QuickAdd plugin's note showed its four badges, whose URLs say `quickadd`, instead of what it does).
 * Notes none of whose sections match keep the ranking's choice (absent from the result).
 *
 * A note in `leadNotes` (its title or an alias holds every query term: namesEveryTerm) is shown by its
 * lead, the first of its candidate sections with any text. Every section of such a note is about the query,
 * and the body score then prefers whichever short section repeats a word of the title: for `LoRa`, the
 * LoRa module guide showed its `参考` list of links (`dog-tracker-lora-competitors`) instead of its overview.
 */
export function bestSectionPerNote(
  sections: SectionText[],
  terms: QueryTerms,
  leadNotes: ReadonlySet<number> = new Set(),
  sessionNotes: ReadonlySet<number> = new Set(),
): Map<number, number> {
  const weighted: [string, number][] = [
    ...terms.words.map((w): [string, number] => [w, 1]),
    ...terms.cjkPieces.map((p): [string, number] => [p, 2]),
    ...terms.cjk.map((b): [string, number] => [b, 1]),
    ...terms.cjkSingles.map((c): [string, number] => [c, 0.5]),
  ];
  const best = new Map<number, { id: number; score: number }>();
  const leads = new Map<number, SectionText>();
  const matched = new Set<number>();
  for (const s of sections) {
    if (leadNotes.has(s.noteId) && s.text.trim() !== '') {
      const lead = leads.get(s.noteId);
      if (!lead || s.ord < lead.ord) leads.set(s.noteId, s);
    }
    // Its own heading is read with its text: `Sleep current is too high` is about `current` though its
    // list never says the word, and a sibling that mentions it in passing (`Notes on tools`) was shown.
    // Not the heading path, nor an H1: the note's title heads every section alike, and an H1 is mostly
    // that title (it drew "Which GPS module…" to the comparison note's introduction, from its Candidates).
    // A session note's headings are the prompts typed in it: they would draw it to the request, not the
    // section that answers it (sessionEcho in the hook drops such a hit).
    const heading = s.level >= 2 && !sessionNotes.has(s.noteId) ? s.heading : '';
    const text = searchText(`${heading}\n${externalLinkLabels(s.text)}`);
    let score = 0;
    for (const [term, weight] of weighted) {
      const tf = occurrences(text, term, 8);
      if (tf) score += (weight * tf) / (tf + 1.2);
    }
    if (score === 0) continue;
    matched.add(s.id);
    score /= 1 + 0.25 * Math.log1p(text.length / 500);
    const b = best.get(s.noteId);
    if (!b || score > b.score) best.set(s.noteId, { id: s.id, score });
  }
  const shown = new Map([...best].map(([noteId, b]) => [noteId, b.id]));
  // The lead stands for the note only when it says one of the query's words itself; a lead that does not
  // (a note on 技適 that opens on why it was written) leaves the section that does.
  for (const [noteId, lead] of leads) if (matched.has(lead.id)) shown.set(noteId, lead.id);
  return shown;
}

/**
 * Whether one of these names (a note's title and aliases) holds every term of the query: each word as a
 * whole Latin word (`lora` in `LoRa通信モジュール選定ガイド`, `spellcheck` in `finnish-spellcheck`, not `art`
 * in `start`), each CJK piece anywhere. A query of no words or pieces names nothing.
 */
export function namesEveryTerm(names: readonly string[], terms: QueryTerms): boolean {
  const words = [...terms.words, ...(terms.prefixes ?? [])];
  if (words.length + terms.cjkPieces.length + terms.cjkSingles.length === 0) return false;
  return names.some((name) => {
    // As the terms were cut (searchText): `cpp` is in a title written `C++ templates`.
    const n = searchText(name);
    return words.every((w, i) => hasWord(n, w, i >= terms.words.length)) && [...terms.cjkPieces, ...terms.cjkSingles].every((p) => n.includes(p));
  });
}

const ASCII_WORD_CHAR = /[a-z0-9]/;

/** `word` in `text` between characters that are not ASCII letters or digits; `prefix`: only its start needs one. */
function hasWord(text: string, word: string, prefix: boolean): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const after = text[i + word.length];
    if (!ASCII_WORD_CHAR.test(text[i - 1] ?? ' ') && (prefix || !ASCII_WORD_CHAR.test(after ?? ' '))) return true;
  }
  return false;
}

function occurrences(text: string, term: string, cap: number): number {
  let n = 0;
  for (let i = text.indexOf(term); i >= 0 && n < cap; i = text.indexOf(term, i + term.length)) n++;
  return n;
}
