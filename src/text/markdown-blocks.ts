// CommonMark's rules for the root-level blocks that run on until a later line closes them, read line by line
// without a parser: text that is put inside a larger document (the md format's details) must close what it
// leaves open, and must not "close" what CommonMark never opened.
import { indentColumns } from './columns.js';

/** A fenced code block's opening: its character and how many of it. */
export interface Fence {
  char: '`' | '~';
  length: number;
}

/** Up to 3 spaces, a run of 3 or more backticks or tildes, then the info string (group 2). */
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The fence a root-level line opens, or null. A backtick fence's info string holds no backtick: a line
 * such as ```` ```npm install``` ```` (inline code, as chat apps write it) opens nothing.
 */
export function fenceOpening(line: string): Fence | null {
  const m = FENCE_LINE.exec(line);
  if (m === null) return null;
  const run = m[1];
  if (run[0] === '`' && m[2].includes('`')) return null;
  return { char: run[0] as Fence['char'], length: run.length };
}

/** True when the line closes `fence`: the same character, at least as many, nothing after but spaces. */
export function closesFence(line: string, fence: Fence): boolean {
  const m = FENCE_LINE.exec(line);
  return m !== null && m[1][0] === fence.char && m[1].length >= fence.length && m[2].trim() === '';
}

/** The line that closes `fence` (its own run again). */
export function fenceCloser(fence: Fence): string {
  return fence.char.repeat(fence.length);
}

/** An HTML block of kinds 1–5: it runs, over blank lines, until a line holds its end condition. */
export interface HtmlBlock {
  end: RegExp;
  /** A line that ends it (kind 1: the end tag of the tag that opened it). */
  closer: string;
}

const HTML_KINDS: Array<{ start: RegExp; end: RegExp; closer: (m: RegExpExecArray) => string }> = [
  { start: /^ {0,3}<(script|pre|style|textarea)(?:[ \t>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, closer: (m) => `</${m[1].toLowerCase()}>` },
  { start: /^ {0,3}<!--/, end: /-->/, closer: () => '-->' },
  { start: /^ {0,3}<\?/, end: /\?>/, closer: () => '?>' },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/, closer: () => ']]>' },
  { start: /^ {0,3}<![A-Za-z]/, end: />/, closer: () => '>' },
];

/**
 * The HTML block of kinds 1–5 a root-level line opens (`<pre>`, `<script>`, `<style>`, `<textarea>`, `<!--`,
 * `<?`, `<![CDATA[`, `<!DOCTYPE`), or null; it may end on that same line (test `end` on it). Kinds 6 and 7
 * (`<div>`, any tag) end at a blank line and are not listed: they cannot run on past their text.
 */
export function htmlBlockOpening(line: string): HtmlBlock | null {
  for (const kind of HTML_KINDS) {
    const m = kind.start.exec(line);
    if (m !== null) return { end: kind.end, closer: kind.closer(m) };
  }
  return null;
}

/** CommonMark's block tag names (micromark's htmlBlockNames): a line that starts with one opens a kind 6 HTML block. */
export const BLOCK_TAG_NAMES: ReadonlySet<string> = new Set(
  ('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul').split(' '),
);
/** `<name` or `</name`, then a space, a tab, `>`, `/>` or the line's end: kind 6 when the name is a block tag's. */
const BLOCK_TAG = /^ {0,3}<\/?([A-Za-z][A-Za-z0-9-]*)(?:[ \t>]|\/>|$)/;
const ATTRIBUTE = `[ \\t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \\t]*=[ \\t]*(?:[^ \\t"'=<>\`]+|'[^']*'|"[^"]*"))?`;
/** Kind 7: one complete open or closing tag, alone on its line. */
const LONE_TAG = new RegExp(`^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*[ \\t]*\\/?>|<\\/[A-Za-z][A-Za-z0-9-]*[ \\t]*>)[ \\t]*$`);

/**
 * True when a root-level line opens an HTML block that the next blank line ends: kind 6 (`<details>`,
 * `</summary>`, `<div class="x">`: a block tag, which may interrupt a paragraph) or kind 7 (any other complete
 * tag alone on its line, `<span>`; not right after a paragraph's line (`afterText`), which it only continues).
 * Until that blank line every line is the block's HTML: a fence line in `<details>` opens no code block.
 */
export function opensHtmlToBlankLine(line: string, afterText: boolean): boolean {
  if (htmlBlockOpening(line) !== null) return false;
  const tag = BLOCK_TAG.exec(line);
  if (tag !== null && BLOCK_TAG_NAMES.has(tag[1].toLowerCase())) return true;
  return !afterText && LONE_TAG.test(line);
}

const LIST_MARKER = /^( {0,3})([-+*]|\d{1,9}[.)])([ \t]+|$)/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** True for a thematic break (`---`, `* * *`): a block of its own, never a paragraph's next line. */
export function isThematicBreak(line: string): boolean {
  return THEMATIC_BREAK.test(line);
}

/**
 * The list item a root-level line opens (`- `, `1. `): the column its text starts at (the item's later lines
 * indented that far are its own) and that text; null for any other line, a thematic break (`- - -`) included.
 */
export function listItemOpening(line: string): { column: number; text: string } | null {
  if (THEMATIC_BREAK.test(line)) return null;
  const m = LIST_MARKER.exec(line);
  if (m === null) return null;
  const marker = m[1].length + m[2].length;
  const text = line.slice(m[0].length);
  // CommonMark: the text starts 1 to 4 columns after the marker; further (or none) is 1 after it.
  const spaces = indentColumns(m[3]);
  return { column: text === '' || spaces > 4 ? marker + 1 : marker + spaces, text };
}
