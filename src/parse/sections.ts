// Sections of a note: the lead (text before the first heading) and one per heading up to the next
// heading of any level, each with its heading path and line range, long ones split into chunks.
import { PATH_SEPARATOR, type ParsedSection } from '../core/types.js';
import { truncateText } from '../text/chars.js';
import { chunkLines } from './chunk.js';
import { isBlankLine } from './lines.js';

export interface NoteHeading {
  depth: number;
  /** 0-based first line (setext: the text line) and last line (setext: the underline). */
  startLine: number;
  endLine: number;
  text: string;
}

export interface SectionInput {
  lines: string[];
  lineKinds: Uint8Array;
  /** 0-based first line of the lead section (after valid frontmatter, else 0). */
  leadStart: number;
  headings: NoteHeading[];
  title: string;
  chunkChars: number;
}

/**
 * Most headings that open a section of their own; the lines past the last of them are its text, cut into
 * chunks by size as any long section is. A section costs an object, a row and full-text rows whatever its
 * size: a 5 MB note of 1,250,000 one-line headings took 16 s and 1.97 GB to index (2,500,000 bare `#`: 30 s,
 * 2.95 GB), where a 5 MB list takes 1 s and 290 MB, and a search for a word of all of them overflowed the
 * stack. With this bound they take 1.3 s and 355 MB, 1.4 s and 383 MB. Real notes hold hundreds (a long changelog:
 * a few thousand).
 */
export const MAX_HEADING_SECTIONS = 10_000;

/**
 * Longest title or heading a section row carries (its `heading` and each part of its heading path), in
 * characters; a longer one is cut, with an ellipsis. Every row of a section repeats its heading and the
 * whole chain above it, once per chunk and once per section below: a 1 MB note of a 1 MB frontmatter title
 * over 1,000 headings made a 1.2 GB index (30 s, 2.8 GB of memory), and an 850 KB note of one 200,000-character
 * heading over 20,000 lines, cut into 272 chunks, a 111 MB one. With the cut they make 5.6 MB (0.7 s) and 2.4 MB,
 * and the most a 5 MB note can make is bounded: 10,000 sections under a title and five headings of 1,200
 * characters each made 88 MB (4.5 s, 475 MB). A real heading is a line of a few words (the sessions' are cut at
 * 80); the words of one past the cut are not heading words (a title's stay in the note's own row, notes.title).
 */
export const MAX_HEADING_CHARS = 1_000;

/** `text` cut to MAX_HEADING_CHARS; only its start is read, so a 5 MB line costs what a short one does. */
function headingPart(text: string): string {
  return text.length <= MAX_HEADING_CHARS ? text : truncateText(text.slice(0, 2 * MAX_HEADING_CHARS + 2), MAX_HEADING_CHARS);
}

export function buildSections(input: SectionInput): ParsedSection[] {
  const { lines } = input;
  const title = headingPart(input.title);
  const headings = input.headings.map((h) => (h.text.length <= MAX_HEADING_CHARS ? h : { ...h, text: headingPart(h.text) }));
  const out: ParsedSection[] = [];
  const leadEnd = headings.length > 0 ? headings[0].startLine - 1 : lines.length - 1;
  pushSection(out, input, {
    heading: '',
    level: 0,
    headingPath: title,
    headLine: -1,
    headEnd: -1,
    bodyFrom: input.leadStart,
    bodyTo: leadEnd,
  });

  const ancestors: NoteHeading[] = [];
  for (let h = 0; h < headings.length; h++) {
    const heading = headings[h];
    // Skipped levels are fine: an H4 under an H1 has the H1 as its parent.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1].depth >= heading.depth) ancestors.pop();
    ancestors.push(heading);
    const bodyTo = h + 1 < headings.length ? headings[h + 1].startLine - 1 : lines.length - 1;
    pushSection(out, input, {
      heading: heading.text,
      level: heading.depth,
      headingPath: headingPath(title, ancestors),
      headLine: heading.startLine,
      headEnd: heading.endLine,
      bodyFrom: heading.endLine + 1,
      bodyTo,
    });
  }
  // A note with no text and no heading (only frontmatter, or an empty file) is still a note: one empty
  // section carries its title, aliases and path (and the note-level row its description) into the
  // rankers. Without one it was indexed yet never found, even by its exact title (89 of the handbook's
  // `_index.md` pages hold only a title and a description).
  if (out.length === 0) {
    // Line 1: the note's first line (its frontmatter), always inside the file, where an editor opens it.
    out.push({ heading: '', level: 0, headingPath: title, startLine: 1, endLine: 1, text: '', chunk: 0 });
  }
  return out;
}

/** Title, then the heading chain; an element equal to the one before it (or empty) is left out. */
export function headingPath(title: string, chain: Array<{ text: string }>): string {
  const parts = [title];
  for (const { text } of chain) {
    if (text !== '' && text !== parts[parts.length - 1]) parts.push(text);
  }
  return parts.join(PATH_SEPARATOR);
}

interface SectionSpan {
  heading: string;
  level: number;
  headingPath: string;
  /** 0-based first and last heading line (they differ for setext headings); -1 for the lead section. */
  headLine: number;
  headEnd: number;
  /** 0-based body lines, inclusive; may be empty (bodyFrom > bodyTo). */
  bodyFrom: number;
  bodyTo: number;
}

function pushSection(out: ParsedSection[], input: SectionInput, span: SectionSpan): void {
  const { lines } = input;
  let from = span.bodyFrom;
  let to = span.bodyTo;
  while (from <= to && isBlankLine(lines[from])) from++;
  while (to >= from && isBlankLine(lines[to])) to--;
  const base = { heading: span.heading, level: span.level, headingPath: span.headingPath };
  if (from > to) {
    // A heading with nothing under it is still a section (its heading is searchable); an empty lead is not.
    if (span.headLine >= 0) {
      out.push({ ...base, startLine: span.headLine + 1, endLine: span.headEnd + 1, text: '', chunk: 0 });
    }
    return;
  }
  const startLine = span.headLine >= 0 ? span.headLine : from;
  if (textLength(lines, from, to) <= input.chunkChars) {
    out.push({ ...base, startLine: startLine + 1, endLine: to + 1, text: joinLines(lines, from, to), chunk: 0 });
    return;
  }
  const chunks = chunkLines(lines, input.lineKinds, from, to, input.chunkChars);
  chunks.forEach((c, i) => {
    out.push({
      ...base,
      startLine: (i === 0 ? Math.min(startLine, c.first) : c.first) + 1,
      endLine: c.last + 1,
      text: c.text ?? joinLines(lines, c.first, c.last),
      chunk: i,
    });
  });
}

function textLength(lines: string[], from: number, to: number): number {
  let n = to - from;
  for (let i = from; i <= to; i++) n += lines[i].length;
  return n;
}

function joinLines(lines: string[], from: number, to: number): string {
  return from === to ? lines[from] : lines.slice(from, to + 1).join('\n');
}
