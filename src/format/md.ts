// Seed 003's markdown tool result (`retrieve_memory`, `-f md`), in the vault's words: a summary per
// result, and the section text only where the detail level says it is worth the tokens. Each result also
// names its note (`**Source:**` path and line): the seed's memories have no file, and it leaves out only
// internal ids; without the path neither a reader of `tsm search -f md` nor a model (read_note, related)
// could open the note a result came from.
import type { SearchHit, SearchResponse } from '../core/types.js';
import { oneLine, stripControls } from '../text/controls.js';
import { truncateText } from '../text/chars.js';
import { codeSpan } from '../text/code-span.js';
import { dedent, indentColumns } from '../text/columns.js';
import { closesFence, fenceCloser, fenceOpening, htmlBlockOpening, isThematicBreak, listItemOpening, opensHtmlToBlankLine, type Fence, type HtmlBlock } from '../text/markdown-blocks.js';
import { closingTags, readTags, withoutCutTag } from '../text/html-tags.js';
import { firstSentence, type LinkReading } from '../text/markdown-line.js';
import { relativeTime } from './relative-time.js';

export type DetailLevel = 'auto' | 'none' | 'low' | 'high';
export const DETAIL_LEVELS: readonly DetailLevel[] = ['auto', 'none', 'low', 'high'];

/** Seed 003: a result at or above this surprise is a "key moment". */
export const KEY_MOMENT_SURPRISE = 0.7;
/** Longest summary sentence; a section's opening paragraph can be very long. */
const SUMMARY_CHARS = 240;

/** Seed 003's detail table; `position` is the 1-based place in this response. */
export function includesDetails(detail: DetailLevel, position: number, surprise: number): boolean {
  const keyMoment = surprise >= KEY_MOMENT_SURPRISE;
  switch (detail) {
    case 'auto':
      return position <= 2 && keyMoment;
    case 'none':
      return false;
    case 'low':
      return position === 1 && keyMoment;
    case 'high':
      return true;
  }
}

/** Score relative to the best hit, 0–1 with 2 decimals. */
function normalisedScore(score: number, top: number): string {
  const ratio = top > 0 && Number.isFinite(top) && Number.isFinite(score) ? score / top : 0;
  return Math.min(1, Math.max(0, ratio)).toFixed(2);
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** A run of `=` or `-` alone on a line: right below a line of text it makes that line a (setext) heading. */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const QUOTE = /^ {0,3}>/;

/**
 * Section markdown that cannot break the surrounding document: an unclosed code fence is closed, so is an
 * unclosed HTML block that only its end marker ends (`<!--`, `<pre>`: CommonMark runs one over blank lines
 * and headings to the end of the document), and a line that would read as a heading (and so as a new
 * result) is escaped. A line CommonMark reads as no fence (```` ```npm i``` ````, inline code) opens none
 * here either: "closing" it added a ``` that opened a real fence, and every later result was code.
 * The text goes right below a line of text (`**Details:**`): one that opens on `---` or `===` (a rule under
 * a note's heading) starts after a blank line, or it made that line a heading, an `##` one for `---`.
 * An HTML block that a blank line ends (`<details>`, a lone `<span>`) is HTML to that line: a ``` in it
 * opens no fence, and "closing" one read there added a ``` after the note's later text that opened a
 * real fence, so every later result was code.
 * An HTML element the text leaves open (a `<details>` that a budget's cut or a long section's chunking ends
 * inside) is closed after it: markdown reads on correctly past it, but an HTML renderer (GitHub, Obsidian's
 * preview) nested every later result inside it.
 */
export function containedMarkdown(md: string): string {
  // Set inside the callback, read after it: typed wide, or TypeScript narrows them to null.
  let open = null as Fence | null;
  let html = null as HtmlBlock | null;
  // In an HTML block that the next blank line ends (kinds 6 and 7); and whether the last root line was a
  // paragraph's text, which a lone tag only continues (kind 7 cannot interrupt a paragraph): at first the
  // `**Details:**` line above.
  let toBlank = false;
  let text = true;
  // Whether that paragraph is a quote's (a `>` line and the lines that continue it lazily): below one, a
  // `---` is a rule, not a setext underline.
  let quoted = false;
  // The HTML elements root-level lines left open (html-tags.ts), closed at the end.
  const tags: string[] = [];
  // The root-level list item the lines are in: the column its text starts at, the fence open in it, and
  // whether its last line was text a less indented line may continue (lazily). Its own lines are no root
  // blocks: `- ```sh` … `  ```` is a fence of the item, which ends with it; read as a root fence, its
  // closing line was left open and "closed" with a ``` that opened one.
  let item = null as { column: number; fence: Fence | null; text: boolean } | null;
  const inItem = (text: string) => {
    if (item === null) return;
    if (item.fence !== null) {
      if (closesFence(text, item.fence)) item.fence = null;
      item.text = false;
    } else {
      // A fence may open on a nested item's marker line too (`  - ```sh`).
      const own = listItemOpening(text)?.text ?? text;
      item.fence = fenceOpening(own);
      item.text = item.fence === null && own.trim() !== '';
    }
  };
  const lines = stripControls(md).trim().split('\n').map((line, i) => {
    const wasText = text;
    const wasQuoted = quoted;
    text = false;
    quoted = false;
    if (open !== null) {
      if (closesFence(line, open)) open = null;
      return line;
    }
    if (html !== null) {
      if (html.end.test(line)) html = null;
      return line;
    }
    if (toBlank) {
      toBlank = line.trim() !== '';
      readTags(line, true, tags);
      return line;
    }
    if (item !== null) {
      if (line.trim() === '') {
        item.text = false;
        return line;
      }
      if (indentColumns(line) >= item.column) {
        inItem(dedent(line, item.column));
        return line;
      }
      // Text that only continues the item's paragraph (no block of its own starts on it) stays in the item;
      // so does a heading, escaped below: as text it continues that paragraph too.
      if (item.text && startsNoBlock(line)) return line;
      if (item.text && ATX_HEADING.test(line)) return line.replace('#', '\\#');
      item = null;
    }
    const listItem = listItemOpening(line);
    if (listItem !== null) {
      item = { column: listItem.column, fence: null, text: false };
      inItem(listItem.text);
      return line;
    }
    open = fenceOpening(line);
    if (open !== null) return line;
    html = htmlBlockOpening(line);
    if (html !== null) {
      if (html.end.test(line)) html = null;
      return line;
    }
    toBlank = opensHtmlToBlankLine(line, wasText);
    if (toBlank) {
      readTags(line, true, tags);
      return line;
    }
    // A setext underline right below a paragraph's line is escaped (it then continues the paragraph): the
    // parser split the note at every heading it read, so this one it did not, and reads so only here, where
    // control characters are gone and U+2028 is a line break (`<div>` over a line of `\u0001`, which ended no
    // HTML block there, and became the blank line that ends it here; `text\u2028===`). Unescaped, the text
    // above it, up to `**Details:**`, was a heading in the answer. (A first line is the `**Details:**` line's
    // business: it starts after a blank line, below.)
    if (i > 0 && wasText && !wasQuoted && SETEXT_UNDERLINE.test(line)) {
      text = true;
      return line.replace(/[=-]/, '\\$&');
    }
    // A paragraph's line (an escaped heading is one): not blank, no rule or setext underline (which ends one),
    // no indented code.
    text = line.trim() !== '' && !isThematicBreak(line) && !(wasText && SETEXT_UNDERLINE.test(line)) && (wasText || indentColumns(line) < 4);
    quoted = text && (QUOTE.test(line) || wasQuoted);
    // A quote's, a list item's or a heading's end closes what its text opened; a paragraph's does not.
    if (text && !QUOTE.test(line)) readTags(line, false, tags);
    return ATX_HEADING.test(line) ? line.replace('#', '\\#') : line;
  });
  if (open !== null) lines.push(fenceCloser(open));
  else if (html !== null) lines.push(html.closer);
  // After them: a `</details>` read in a fence or a comment closes nothing. On its own line, a block tag's
  // (kind 6), which ends a paragraph, a list or a quote above it, so it is HTML at the root.
  if (tags.length > 0) lines.push(closingTags(tags));
  if (SETEXT_UNDERLINE.test(lines[0])) lines.unshift('');
  return lines.join('\n');
}

/** True when a line starts no block of its own, so it may continue a paragraph above it (lazily, in a list item). */
function startsNoBlock(line: string): boolean {
  return fenceOpening(line) === null && htmlBlockOpening(line) === null && !opensHtmlToBlankLine(line, true) && !ATX_HEADING.test(line) && listItemOpening(line) === null && !isThematicBreak(line) && !QUOTE.test(line);
}

function summary(hit: SearchHit, links: LinkReading): string {
  const section = oneLine(hit.section);
  const sentence = truncateText(oneLine(firstSentence(hit.content, links) || hit.snippet), SUMMARY_CHARS);
  return literalTags(sentence === '' ? section : `${section} — ${sentence}`);
}

/**
 * Plain text (the summary: a heading and a first sentence, with code as its text and a prose placeholder
 * `<query>` kept; the query "No results found" quotes) whose `<` starts no HTML in the markdown line it goes on: unescaped, a code block's
 * `<div class="card">`, cut at 240 characters, opened a `<div>` every later result rendered inside, and
 * `tsm search <query>` showed as `tsm search ` (an unknown element). Its backticks are text too (code is
 * already its text): a lone one (a title `Use \`npm`, an unclosed span) opened a code span that the
 * Source line's closed, so `**Source:**` read as code and the path did not. Backslashes right before such
 * a `<` or backtick are escaped too, or the last one escaped the new one.
 */
function literalTags(text: string): string {
  return text.replace(/(\\*)(<(?=[A-Za-z/!?])|`)/g, (_, slashes: string, ch: string) => `${slashes.repeat(2)}\\${ch}`);
}

/** Said where a result's details were cut or left out for the answer's size (`detailBudget`). */
const CUT_NOTE = '*(details cut: the answer reached its size limit; read the section with search and get_sections)*';
const LEFT_OUT = '**Details:** left out: the answer reached its size limit (read the section with search and get_sections)';

function formatHit(hit: SearchHit, position: number, top: number, opts: FormatOptions, budget: { left: number }): string {
  const flags = [`rank: ${hit.rank}`, `score: ${normalisedScore(hit.score, top)}`];
  if (hit.surprise >= KEY_MOMENT_SURPRISE) flags.push('key moment');
  const when = hit.date === null ? 'unknown' : oneLine(relativeTime(hit.date, opts.now));
  const lines = [`## Result ${position} [${flags.join(', ')}]`, `**When:** ${when}`, `**Summary:** ${summary(hit, opts.links)}`, `**Source:** ${codeSpan(oneLine(hit.path))} line ${hit.line}`];
  const details = containedMarkdown(hit.content);
  if (details !== '' && includesDetails(opts.detail, position, hit.surprise)) {
    const length = Array.from(details).length;
    if (length <= budget.left) lines.push('', '**Details:**', details);
    // The note after a blank line, so it is a paragraph of its own: right below the cut text, it was a line of
    // whatever block the cut ended in, raw HTML of a `<details>` block (which a blank line ends) or a lazy
    // line of a paragraph, a list item or a quote.
    else if (budget.left >= MIN_CUT_DETAILS) lines.push('', '**Details:**', containedMarkdown(withoutCutTag(truncateText(hit.content, budget.left))), '', CUT_NOTE);
    else lines.push('', LEFT_OUT);
    budget.left = Math.max(0, budget.left - length);
  }
  return lines.join('\n');
}

/** A cut shorter than this is no use: the details are left out instead. */
const MIN_CUT_DETAILS = 200;

export interface FormatOptions {
  detail: DetailLevel;
  now: Date;
  /**
   * Characters of section text all details together may carry (retrieve_memory: an MCP result's size);
   * past it a result's details are cut, then left out, and say so. Unlimited by default.
   */
  detailBudget?: number;
  /**
   * How the vault's notes read their links (search/link-reading.ts linkReadingOf, from the index), for the
   * summary to read them as the snippets do: Dendron's `[[label|note.id]]` is its label.
   */
  links: LinkReading;
}

/** Seed 003's format; `now` anchors the relative times. */
export function formatMarkdown(resp: SearchResponse, opts: FormatOptions): string {
  if (!DETAIL_LEVELS.includes(opts.detail)) throw new RangeError(`unknown detail level: ${String(opts.detail)}`);
  // The query is text, as a summary is: `<kbd>` or a lone backtick in it opened an element or a code span there.
  if (resp.hits.length === 0) return `No results found for "${literalTags(oneLine(resp.query))}".`;
  const top = Math.max(...resp.hits.map((h) => (Number.isFinite(h.score) ? h.score : 0)));
  const budget = { left: opts.detailBudget ?? Infinity };
  return resp.hits.map((hit, i) => formatHit(hit, i + 1, top, opts, budget)).join('\n\n');
}
