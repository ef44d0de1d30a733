// Block structure of a whole note: root-level headings and the lines that belong to code or HTML blocks.
//
// The body is cut into top-level segments where the parser state is that of a fresh document:
// - before a non-indented line that follows a blank line (it closes every open container and leaf),
//   unless a root-level fenced code or HTML block (kinds 1–5) runs across the blank line;
// - after a non-indented ATX heading or setext underline / thematic break line, when remark confirms it
//   is a root-level heading or break (nothing stays open after one).
// A segment that ends anywhere else is extended and parsed again. Each segment's skeleton
// (skeleton.ts) goes to remark-parse once per process: most segments of a vault have the same few
// shapes, so the real parse runs on a small fraction of the lines.
import { BLOCK_CODE, BLOCK_HEADING, closesOpenBlock, parseSegment, type SegmentBlocks } from './block-parser.js';
import { isBlankLine } from './lines.js';
import { NoteSkeleton } from './note-skeleton.js';
import { isCollapsible } from './skeleton.js';

export const LINE_TEXT = 0;
export const LINE_CODE = 1;
export const LINE_HTML = 2;
export const LINE_FRONTMATTER = 3;

export interface HeadingBlock {
  depth: number;
  /** 0-based first line (the text line of a setext heading). */
  startLine: number;
  /** 0-based last line (the underline of a setext heading). */
  endLine: number;
}

export interface BlockStructure {
  headings: HeadingBlock[];
  /** One LINE_* value per line of the note. */
  lineKinds: Uint8Array;
  /** Lines nested too deep to parse exactly (their block structure is approximated; see skeleton.ts). */
  cappedLines: number;
  /** Lines left to the plain fallback because parsing them exactly would cost too much (see WORK_PER_NOTE). */
  plainLines: number;
}

/**
 * What remark may spend on one note, in units of about one skeleton line at one nesting level (weight()).
 * micromark's cost per line grows with nesting (0.13 ms a line of a flat list, 1 ms at 16–32 levels) and
 * some shapes grow worse than linearly in one segment (20,000 lines of unfinished link definitions: 5.4 s
 * where 8,000 took 0.25 s). A segment heavier than WORK_PER_SEGMENT, or one that would take the note past
 * WORK_PER_NOTE, is read the plain way: every line text, only ATX headings found. Cached segments are free,
 * so real notes (their biggest on the handbook: see the test) stay far below both.
 */
const WORK_PER_SEGMENT = 4_000;
const WORK_PER_NOTE = 40_000;

/** Parsed segments by skeleton text; bounded so a long-running watcher does not grow without end. */
const segmentCache = new Map<string, SegmentBlocks>();
const SEGMENT_CACHE_LIMIT = 20_000;
/** Extensions of one segment before the rest of the note is parsed as one piece. */
const MAX_EXTENSIONS = 8;

/** Block structure of `lines`; lines before `bodyStart` are frontmatter. */
export function scanBlocks(lines: string[], bodyStart: number): BlockStructure {
  const lineKinds = new Uint8Array(lines.length);
  lineKinds.fill(LINE_FRONTMATTER, 0, bodyStart);
  const headings: HeadingBlock[] = [];
  const skeleton = new NoteSkeleton(lines, bodyStart);
  const budget: Budget = { left: WORK_PER_NOTE, plainLines: 0 };
  const cuts = segmentCuts(lines, bodyStart);
  let cutIndex = 0;
  let start = bodyStart;
  while (start < lines.length) {
    while (cutIndex < cuts.length && cutLine(cuts[cutIndex]) <= start) cutIndex++;
    let end = cutIndex < cuts.length ? cutLine(cuts[cutIndex]) : lines.length;
    let result = parseChecked(skeleton, start, end, budget);
    for (let attempt = 1; end < lines.length; attempt++) {
      const { open, endsWithBreak } = result.segment;
      if (open) {
        // Inside a root fence or HTML block: go on past the line that closes it.
        const closer = findCloser(skeleton.plain, end, open);
        while (cutIndex < cuts.length && cutLine(cuts[cutIndex]) <= closer) cutIndex++;
      } else if (isAfterBreakCut(cuts[cutIndex]) && !endsWithBreak) {
        // Not a root heading or break after all (HTML block, lazy list text): go on to a blank line.
        cutIndex++;
        while (cutIndex < cuts.length && isAfterBreakCut(cuts[cutIndex])) cutIndex++;
      } else break;
      // Every extension parses the segment again; after a few, take the rest of the note at once.
      if (attempt >= MAX_EXTENSIONS) cutIndex = cuts.length;
      end = cutIndex < cuts.length ? cutLine(cuts[cutIndex]) : lines.length;
      result = parseChecked(skeleton, start, end, budget);
    }
    applySegment(result, start, end, headings, lineKinds);
    if (result.plain) budget.plainLines += end - start;
    start = end;
  }
  return { headings, lineKinds, cappedLines: skeleton.cappedLines, plainLines: budget.plainLines };
}

/** Non-indented ATX headings, setext underlines and thematic breaks made of '-', '=', '*' or '_'. */
const BREAK_LINE = /^(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|(?:-[ \t]*){3,}$|-+[ \t]*$|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$)/;

/**
 * Lines where a top-level segment may start, encoded as line * 2 + 1 when the cut follows a heading or
 * break line (to be confirmed by the parse) and line * 2 after a blank line.
 */
function segmentCuts(lines: string[], bodyStart: number): number[] {
  const cuts: number[] = [];
  for (let i = bodyStart + 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const p = prev.charCodeAt(0);
    if ((p === 0x23 || p === 0x3d || p === 0x2d || p === 0x2a || p === 0x5f) && BREAK_LINE.test(prev)) {
      cuts.push(i * 2 + 1);
      continue;
    }
    const line = lines[i];
    if (line.length === 0) continue;
    const c = line.charCodeAt(0);
    if (c !== 0x20 && c !== 0x09 && isBlankLine(prev)) cuts.push(i * 2);
  }
  return cuts;
}

const cutLine = (cut: number): number => cut >> 1;
const isAfterBreakCut = (cut: number | undefined): boolean => cut !== undefined && (cut & 1) === 1;

interface Budget {
  left: number;
  plainLines: number;
}

interface ParsedSegment {
  segment: SegmentBlocks;
  /** True when the segment was read the plain way (over budget), not parsed. */
  plain?: boolean;
  /** Segment-relative indices of the skeleton lines that were parsed (repeats dropped). */
  kept: number[];
}

/** Parses lines [start, end), confirming (or rejecting, and then parsing again) reduced fences. */
function parseChecked(skeleton: NoteSkeleton, start: number, end: number, budget: Budget): ParsedSegment {
  for (;;) {
    const parsed = parseCached(skeleton, start, end, budget);
    if (parsed.plain) return parsed;
    const fences = skeleton.uncheckedFences(start, end);
    if (fences.length === 0) return parsed;
    const codeStarts = new Set<number>();
    const { blocks } = parsed.segment;
    for (let b = 0; b < blocks.length; b += 4) {
      if (blocks[b] === BLOCK_CODE) codeStarts.add(start + parsed.kept[blocks[b + 2]]);
    }
    let rejected = false;
    for (const f of fences) if (!skeleton.judge(f, codeStarts.has(skeleton.openerOf(f)))) rejected = true;
    if (!rejected) return parsed;
    // Each round rejects at least one fence for good, so this ends.
    skeleton.uncheck(fences.filter((f) => skeleton.isConfirmed(f)));
  }
}

function parseCached(skeleton: NoteSkeleton, start: number, end: number, budget: Budget): ParsedSegment {
  const kept: number[] = [];
  const keptLines: string[] = [];
  let prev1 = '';
  let prev2 = '';
  for (let i = start; i < end; i++) {
    const s = skeleton.line(i);
    const repeat = i - start >= 2 && s === prev1 && s === prev2 && isCollapsible(s);
    prev2 = prev1;
    prev1 = s;
    if (repeat) continue;
    kept.push(i - start);
    keptLines.push(s);
  }
  const key = keptLines.join('\n');
  let segment = segmentCache.get(key);
  if (!segment) {
    let work = 0;
    for (const line of keptLines) work += weight(line);
    if (work > WORK_PER_SEGMENT || work > budget.left) {
      budget.left = 0; // the rest of the note is read the plain way too: its cost stays linear
      return { segment: plainSegment(keptLines), kept, plain: true };
    }
    budget.left -= work;
    segment = parseSegment(keptLines);
    if (segmentCache.size >= SEGMENT_CACHE_LIMIT) segmentCache.clear();
    segmentCache.set(key, segment);
  }
  return { segment, kept };
}

/** About what micromark spends on a line: one unit, plus one per container level its prefix opens. */
function weight(line: string): number {
  let i = 0;
  let containers = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x3e /* > */ || c === 0x2d || c === 0x2a || c === 0x2b || c === 0x2e || c === 0x29) containers++;
    else if (c === 0x20 || c === 0x09) containers += 0.5;
    else if (c < 0x30 || c > 0x39) break;
  }
  return 1 + Math.ceil(containers);
}

const PLAIN_ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;

/** The over-budget reading: every line is text; an ATX heading line is a heading wherever it is. */
function plainSegment(lines: string[]): SegmentBlocks {
  const blocks: number[] = [];
  lines.forEach((line, i) => {
    const atx = PLAIN_ATX.exec(line);
    if (atx) blocks.push(BLOCK_HEADING, atx[1].length, i, i);
  });
  const lastIsHeading = blocks.length > 0 && blocks[blocks.length - 1] === lines.length - 1;
  return { blocks, open: null, endsWithBreak: lastIsHeading };
}

function findCloser(skeleton: string[], from: number, open: NonNullable<SegmentBlocks['open']>): number {
  for (let i = from; i < skeleton.length; i++) if (closesOpenBlock(skeleton[i], open)) return i;
  return skeleton.length;
}

function applySegment(
  { segment, kept }: ParsedSegment,
  start: number,
  end: number,
  headings: HeadingBlock[],
  lineKinds: Uint8Array,
): void {
  const { blocks } = segment;
  // A block ending on a kept line also owns the dropped repeats that follow it.
  const lineOf = (k: number) => start + kept[k];
  const lastLineOf = (k: number) => (k + 1 < kept.length ? start + kept[k + 1] - 1 : end - 1);
  for (let b = 0; b < blocks.length; b += 4) {
    const kind = blocks[b];
    const first = lineOf(blocks[b + 2]);
    const last = lastLineOf(blocks[b + 3]);
    if (kind === BLOCK_HEADING) headings.push({ depth: blocks[b + 1], startLine: first, endLine: last });
    else lineKinds.fill(kind === BLOCK_CODE ? LINE_CODE : LINE_HTML, first, last + 1);
  }
}

/** Drops every cached segment (tests use it to measure cold parses). */
export function clearBlockCache(): void {
  segmentCache.clear();
}
