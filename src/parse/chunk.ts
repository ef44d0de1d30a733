// Splitting a long section body into chunks at paragraph boundaries (blank lines outside code and
// HTML blocks), so every chunk stays near the configured size and keeps its own line range.
import { isBlankLine } from './lines.js';
import { LINE_TEXT } from './structure.js';

export interface Chunk {
  /** 0-based first and last line (inclusive). */
  first: number;
  last: number;
  /** Set only for pieces of a single line that had to be cut by characters. */
  text?: string;
}

/** Hard splits happen only for paragraphs longer than this many chunks. */
const HARD_SPLIT_FACTOR = 4;

/** Chunks of body lines `first..last` (inclusive, both non-blank) whose text is longer than `max`. */
export function chunkLines(lines: string[], lineKinds: Uint8Array, first: number, last: number, max: number): Chunk[] {
  const limit = Math.max(1, Math.floor(max));
  const chunks: Chunk[] = [];
  let cur: { first: number; last: number; length: number } | null = null;
  const flush = () => {
    if (cur) chunks.push({ first: cur.first, last: cur.last });
    cur = null;
  };
  for (const para of paragraphs(lines, lineKinds, first, last)) {
    if (para.length > HARD_SPLIT_FACTOR * limit) {
      flush();
      chunks.push(...hardSplit(lines, para.first, para.last, limit));
    } else if (cur !== null && cur.length + 2 + para.length > limit) {
      flush();
      cur = { ...para };
    } else if (cur !== null) {
      cur.last = para.last;
      cur.length += 2 + para.length;
    } else {
      cur = { ...para };
    }
  }
  flush();
  return chunks;
}

interface Paragraph {
  first: number;
  last: number;
  /** Characters of the paragraph's text, newlines included. */
  length: number;
}

function paragraphs(lines: string[], lineKinds: Uint8Array, first: number, last: number): Paragraph[] {
  const out: Paragraph[] = [];
  let start = -1;
  let length = 0;
  for (let i = first; i <= last + 1; i++) {
    const boundary = i > last || (lineKinds[i] === LINE_TEXT && isBlankLine(lines[i]));
    if (boundary) {
      if (start !== -1) out.push({ first: start, last: i - 1, length: length - 1 });
      start = -1;
      length = 0;
    } else {
      if (start === -1) start = i;
      length += lines[i].length + 1;
    }
  }
  return out;
}

/** A paragraph far over the limit: pack whole lines, and cut single lines that are themselves huge. */
function hardSplit(lines: string[], first: number, last: number, limit: number): Chunk[] {
  const out: Chunk[] = [];
  let start = -1;
  let length = 0;
  for (let i = first; i <= last; i++) {
    const line = lines[i];
    if (line.length > HARD_SPLIT_FACTOR * limit) {
      if (start !== -1) out.push({ first: start, last: i - 1 });
      start = -1;
      length = 0;
      for (const piece of cutByCharacters(line, limit)) out.push({ first: i, last: i, text: piece });
      continue;
    }
    if (start !== -1 && length + 1 + line.length > limit) {
      out.push({ first: start, last: i - 1 });
      start = -1;
      length = 0;
    }
    if (start === -1) {
      start = i;
      length = line.length;
    } else {
      length += 1 + line.length;
    }
  }
  if (start !== -1) out.push({ first: start, last });
  return out;
}

function cutByCharacters(line: string, limit: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    let end = Math.min(line.length, i + limit);
    // Never split a surrogate pair.
    if (end < line.length && isHighSurrogate(line.charCodeAt(end - 1))) end--;
    if (end <= i) end = i + 1;
    out.push(line.slice(i, end));
    i = end;
  }
  return out;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
