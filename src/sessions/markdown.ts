// Markdown building blocks for session notes: transcript text is untrusted, so nothing in it may add a
// heading, swallow the rest of the note, or leave a code fence open.
import { codeSpan, CodeSpans, commentMarkOutsideCode } from '../text/code-span.js';
import { stripControls } from '../text/controls.js';

const ELLIPSIS = '…';


/** Cuts `text` to at most `max` characters, preferring a sentence end, then a word end, and marks the cut with `…`. */
export function trimAtBoundary(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const limit = Math.max(1, max - 1); // room for the ellipsis
  const head = chars.slice(0, limit).join('');
  const floor = Math.floor(limit * 0.6); // never throw away more than ~40% to find a nice boundary
  const sentence = lastMatchEnd(head, /[.!?。！？](?=\s)|[。！？]/g);
  if (sentence >= floor) return head.slice(0, sentence).trimEnd() + ' ' + ELLIPSIS;
  const word = lastMatchEnd(head, /\S(?=\s)/g);
  if (word >= floor) return head.slice(0, word) + ' ' + ELLIPSIS;
  return head + ELLIPSIS;
}

/**
 * What a session note keeps of a long prompt or answer: its head, cut at a boundary (trimAtBoundary), and a
 * line saying how much of how much was kept. One rule for both. `total` is the whole text's length when
 * `text` is already a head of it (a prompt is cut before it is redacted).
 */
export function keptHead(text: string, max: number, total = charCount(text)): string {
  if (total <= max && text.length <= max) return text;
  const head = trimAtBoundary(text, max);
  if (head === text && total <= max) return text;
  return `${head}\n\n(${charCount(head).toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters kept)`;
}

/** Characters (code points), not UTF-16 units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function lastMatchEnd(text: string, pattern: RegExp): number {
  let end = -1;
  for (const m of text.matchAll(pattern)) end = (m.index ?? 0) + m[0].length;
  return end;
}

/** The first non-blank line, whitespace collapsed, cut to `max` characters. */
export function firstLine(text: string, max: number): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return trimAtBoundary(line.replace(/\s+/g, ' ').trim(), max);
}

/** A whole text on one line (newlines become spaces), cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  return trimAtBoundary(text.replace(/\s+/g, ' ').trim(), max);
}

/**
 * Text that must stay on its line (a heading, a list item, a code span): each line break, with the
 * blanks around it, becomes one space, so a newline in a cwd, a tool name or a path can never start a
 * new block. Other spacing is kept (a path may hold two spaces).
 */
export function inlineText(text: string): string {
  return stripControls(text).replace(/[ \t]*\n[ \t\n]*/g, ' ');
}

/** Text for a heading line: on one line, and a trailing `#` run would be read as the heading's closing sequence. */
export function headingText(text: string): string {
  return escapeCommentMarks(inlineText(text).replace(/(^|\s)(#+)\s*$/, '$1\\$2'));
}

/**
 * A line with each `%%` outside code written `%\%`, which renders as `%%`. `%%` opens an Obsidian comment
 * that runs to the next one or to the end of the note, and the index blanks it out, headings included
 * (parse/parse-note.ts): one printf("%d%%") in a prompt hid every later prompt of the session from search
 * and from the prompt hook. Where the parser sees code (a code span, by its rule), `%%` stays as written.
 */
export function escapeCommentMarks(line: string): string {
  if (line.indexOf('%%') === -1) return line;
  const spans = new CodeSpans(line);
  let out = '';
  let pos = 0;
  for (let at = commentMarkOutsideCode(line, 0, spans); at !== -1; at = commentMarkOutsideCode(line, pos, spans)) {
    out += `${line.slice(pos, at)}%\\`;
    pos = at + 1; // the second `%` may open the next pair (`%%%`)
  }
  return out + line.slice(pos);
}

/** An inline code span, on one line, that holds `text` whatever backticks it contains. */
export function inlineCode(raw: string): string {
  return codeSpan(inlineText(raw));
}

// Container prefixes (block quotes, list markers) under which a heading would still be a heading.
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>[ ]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+))*/;
// Escaped at any indentation: inside a list item an indented `# x` is still a heading.
const ATX_HEADING = /^[ \t]*#{1,6}(?:[ \t]|$)/;
// A run of '=' or '-' alone on a line turns the paragraph above it into a (setext) heading.
const SETEXT_UNDERLINE = /^[ \t]*(?:=+|-+)[ \t]*$/;
// Any HTML block start. Some only end at an explicit terminator (`<!--`, `<pre>`): unclosed, they swallow
// the rest of the note; the others would hide fence lines until the next blank line. So none may start.
const HTML_BLOCK = /^[ \t]*<(?:[!?]|\/?[A-Za-z])/;
// A fence-like line at any indentation, under any container prefix.
const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
// CommonMark's closing fence, on a line already relative to the fence's column.
const CLOSER = /^[ ]{0,3}(`{3,}|~{3,})[ \t]*$/;

/** An open code fence (always written at column 0) and how its content lines were indented. */
interface OpenFence {
  char: string;
  length: number;
  /** Block quotes the opener sat in: their markers are removed from content lines. */
  quoteDepth: number;
  /** Columns of list-item and opener indentation removed from content lines. */
  indent: number;
}

interface SplitLine {
  prefix: string;
  rest: string;
}

function splitContainers(line: string): SplitLine {
  const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? '';
  return { prefix, rest: line.slice(prefix.length) };
}

const quoteDepth = (prefix: string) => (prefix.match(/>/g) ?? []).length;

function stripQuotes(line: string, depth: number): string {
  let inner = line;
  for (let i = 0; i < depth && /^[ ]{0,3}>/.test(inner); i++) inner = inner.replace(/^[ ]{0,3}>[ ]?/, '');
  return inner;
}

function stripIndent(line: string, columns: number): string {
  let i = 0;
  while (i < columns && line[i] === ' ') i++;
  return line.slice(i);
}

/**
 * Makes untrusted markdown safe to embed under our own headings.
 *
 * Guessing whether a fence inside a list item or block quote is really open depends on context a line
 * scanner cannot fully know, and a wrong guess could leave a fence open that swallows the rest of the
 * note. So every code fence is moved to column 0 (out of its list item or quote) and closed explicitly:
 * the fences a markdown parser sees are then exactly the ones tracked here. Outside fences, lines that
 * would start a heading or an HTML block are escaped with a backslash.
 */
export function safeBlock(text: string): string {
  const out: string[] = [];
  let fence: OpenFence | null = null;
  for (const line of stripControls(text).split('\n')) {
    if (fence) {
      const inner = stripIndent(stripQuotes(line, fence.quoteDepth), fence.indent);
      const closer = CLOSER.exec(inner);
      if (closer && closer[1][0] === fence.char && closer[1].length >= fence.length) {
        out.push(fence.char.repeat(fence.length));
        fence = null;
      } else out.push(inner);
      continue;
    }
    const split = splitContainers(line);
    const opener = FENCE.exec(split.rest);
    // A backtick fence's info string cannot hold a backtick: then it is inline code, not a fence.
    if (opener && !(opener[2][0] === '`' && opener[3].includes('`'))) {
      const quotes = quoteDepth(split.prefix);
      fence = {
        char: opener[2][0],
        length: opener[2].length,
        quoteDepth: quotes,
        indent: stripQuotes(split.prefix, quotes).length + opener[1].length,
      };
      out.push(opener[2] + opener[3]);
      continue;
    }
    out.push(escapeCommentMarks(escapeLine(split)));
  }
  if (fence) out.push(fence.char.repeat(fence.length));
  return out.join('\n');
}

const ONE_CONTAINER = /[ \t]*(?:>[ ]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+)/y;

function escapeLine({ prefix, rest }: SplitLine): string {
  // `-` (or `- `) after a paragraph line is a setext underline, not an empty list item: look at the
  // line from every container boundary, `>- ` included.
  const line = prefix + rest;
  for (let at = 0; at < prefix.length; ) {
    if (SETEXT_UNDERLINE.test(line.slice(at))) return line.slice(0, at) + escapeAfterIndent(line.slice(at));
    ONE_CONTAINER.lastIndex = at;
    if (!ONE_CONTAINER.exec(line)) break;
    at = ONE_CONTAINER.lastIndex;
  }
  if (ATX_HEADING.test(rest) || SETEXT_UNDERLINE.test(rest) || HTML_BLOCK.test(rest)) {
    return prefix + escapeAfterIndent(rest);
  }
  return prefix + rest;
}

function escapeAfterIndent(text: string): string {
  const indent = /^[ \t]*/.exec(text)?.[0] ?? '';
  return `${indent}\\${text.slice(indent.length)}`;
}
