// A note's full-text rows: which text goes into which FTS column, analysed. Pure, so the worker threads
// that parse a full build can prepare them too, off the thread that writes the index. Insert and delete
// both use these functions, so a delete hands FTS5 exactly what was inserted (a change here, or in
// analyze(), needs a SCHEMA_VERSION bump).
import type { ParsedNote } from '../core/types.js';
import { analyze, type AnalyzedText } from '../text/analyze.js';
import { MAX_SECTIONS_PER_NOTE } from './section-ids.js';
import { frontmatterDescription } from '../parse/metadata.js';

/** The full-text rows of one note: its sections' (by section order) and the note's own. */
export interface NoteFtsRows {
  sections: { ord: number; head: AnalyzedText; body: AnalyzedText }[];
  note: { name: AnalyzedText; headings: AnalyzedText };
}

/** A parsed note ready to write: sections folded to what section ids allow, with its full-text rows. */
export interface PreparedNote {
  note: ParsedNote;
  rows: NoteFtsRows;
}

export function prepareNote(path: string, parsed: ParsedNote): PreparedNote {
  const note = foldExtraSections(parsed, MAX_SECTIONS_PER_NOTE);
  return {
    note,
    rows: {
      sections: ftsRows(path, note.aliases, note.tags, note.sections),
      note: noteFtsRow(path, note.title, note.aliases, note.tags, note.sections, note.frontmatter),
    },
  };
}

/** A note with more sections than ids allow keeps them all searchable: the extra ones join its last. */
export function foldExtraSections(note: ParsedNote, max: number): ParsedNote {
  if (note.sections.length <= max) return note;
  const kept = note.sections.slice(0, max - 1);
  const rest = note.sections.slice(max - 1);
  const last = { ...rest[0], endLine: rest[rest.length - 1].endLine, text: rest.map((r) => r.text).join('\n') };
  const warning = `${note.sections.length} sections: the last ${rest.length} are indexed as one`;
  return { ...note, sections: [...kept, last], warnings: [...note.warnings, warning] };
}

/** `people-group/time-off-and-absence/_index.md` → `people group time off and absence`. */
export function pathWords(path: string): string {
  return path
    .replace(/\.[^./]+$/, '')
    .split(/[/_\-.\s]+/)
    .filter((w) => w && w !== 'index' && w !== 'readme')
    .join(' ');
}

/**
 * The note's own full-text row: its name (title, aliases, tags, path words), and its distinct headings with
 * its frontmatter `description` (or `summary`). A description says what the whole note is about, so it is
 * evidence about the note, credited once per note like its headings, never repeated in every section; and
 * its words are found at all (the frontmatter is not section text). Measured on the handbook, whose notes
 * have one in 2,742 of 4,560: +0.004 ± 0.003 nDCG@10 over both sets (docs/search.md, section 2).
 */
export function noteFtsRow(
  path: string,
  title: string,
  aliases: readonly string[],
  tags: readonly string[],
  sections: readonly { heading: string }[],
  frontmatter: Readonly<Record<string, unknown>>,
): NoteFtsRows['note'] {
  const headings = [...new Set(sections.map((s) => s.heading.trim()).filter((h) => h !== '' && h !== title.trim()))];
  const about = [...headings, frontmatterDescription(frontmatter)].filter(Boolean).join(' ');
  return { name: analyze([title, ...aliases, ...tags, pathWords(path)].join(' ')), headings: analyze(about) };
}

/** How many of a note's aliases, and of its tags, every section's head holds (ftsRows). */
export const HEAD_NAMES = 32;

/** The full-text rows of a note's sections, by section order. */
export function ftsRows(
  path: string,
  aliases: readonly string[],
  tags: readonly string[],
  sections: readonly { headingPath: string; text: string }[],
): NoteFtsRows['sections'] {
  // Aliases, tags and the words of the file's path (folder and file names) belong to every section's
  // head: `people-group/time-off/` and `#firmware` are how many vaults say what a note is about. The first
  // HEAD_NAMES of each: repeated in every section, a note of 60,000 tags (whose tag line is itself cut into
  // sections) took 6 s to index and 100,000 took 19 s and 529 MB; all of them stay in the note's own row
  // (noteFtsRow) and in --tag.
  const aliasText = [...aliases.slice(0, HEAD_NAMES), ...tags.slice(0, HEAD_NAMES), pathWords(path)].join(' ');
  // A heading with no text of its own (an H1 right before its first H2) is not searchable by itself:
  // its heading path is in every child's head columns, and as a hit it would have nothing to show.
  const anyBody = sections.some((sec) => sec.text.trim() !== '');
  const rows: NoteFtsRows['sections'] = [];
  sections.forEach((sec, ord) => {
    if (anyBody && sec.text.trim() === '') return;
    rows.push({ ord, head: analyze(aliasText ? `${sec.headingPath} ${aliasText}` : sec.headingPath), body: analyze(sec.text) });
  });
  return rows;
}
