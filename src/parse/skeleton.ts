// The block-structure skeleton of a markdown line.
//
// CommonMark decides block structure (headings, code blocks, HTML blocks, lists, quotes) from the start
// of each line: container markers, indentation and the first characters of the content. The rest of a
// plain text line only ever matters to inline parsing. remark-parse costs ~40 µs per line whatever the
// line holds, so the parser hands it a skeleton instead: every line keeps its container prefix and is
// cut to what can change the block structure. Lines whose content could open or close a block are kept
// whole (or reduced to an equivalent shape); plain text becomes 'x'. Identical skeleton segments then
// parse once per process (see structure.ts).
import { columns } from '../text/columns.js';

/** Leading whitespace, block-quote markers and list markers: they decide containers and indentation. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+))*[ \t]*/;
const MARKER_NUMBER = /\d+(?=[.)])/g;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const ATX_OPEN = /^#{1,6}(?=[ \t]|$)/;
const ONLY_CLOSING_HASHES = /^[ \t#]*$/;
/** Thematic breaks and setext underlines, HTML starts, empty ordered items, link reference definitions. */
const KEEP_WHOLE = /^(?:[-*_=+ \t]*$|<|\d{1,9}[.)]$|\[(?:[^\]\\]|\\.)*\]:)/;
/** Conditions that end HTML blocks of kinds 1–5 anywhere in a line. */
const HTML_BLOCK_END = /-->|\?>|\]\]>|<\//;
const DEFINITION_START = /^[ \t>]*\[(?:[^\]\\]|\\.)*\]:/;

/**
 * The skeleton of one line. `inDefinition` is true after a link reference definition start until a
 * blank line: whether a definition's destination and (multi-line) title are valid decides whether its
 * lines are a paragraph, so they are kept whole.
 */
export function skeletonLine(line: string, inDefinition: boolean, depth?: DepthGuard): string {
  if (line.length === 0 || inDefinition) return line;
  let prefix = (CONTAINER_PREFIX.exec(line) as RegExpExecArray)[0];
  if (prefix.length > MAX_NESTING) {
    const capped = capNesting(prefix);
    if (capped !== prefix) {
      if (depth) depth.cappedLines++;
      return capped + 'x';
    }
    const shallow = capIndent(prefix);
    if (shallow !== prefix) {
      // Only a marker makes the indentation a nesting level; wide plain indentation (code) nests nothing.
      if (depth && MARKER.test(shallow)) depth.cappedLines++;
      line = shallow + line.slice(prefix.length);
      prefix = shallow;
    }
  }
  if (prefix.length === line.length) return line;
  const rest = line.slice(prefix.length);
  if (HTML_BLOCK_END.test(rest)) return line;
  // A '>' ends an HTML block of kind 4 (`<!DOCTYPE …`): keep one in the reduced line when there was one.
  const gt = rest.indexOf('>') === -1 ? '' : '>';
  const pre = prefix.indexOf('.') === -1 && prefix.indexOf(')') === -1 ? prefix : normaliseMarkerNumbers(prefix);
  const first = rest.charCodeAt(0);
  if (first === 0x60 /* ` */ || first === 0x7e /* ~ */) {
    const fence = FENCE.exec(rest);
    if (fence) {
      const info = fence[2].trim();
      if (info === '') return pre + fence[1];
      // A backtick fence whose info string holds a backtick is not a fence at all.
      return pre + fence[1] + (first === 0x60 && info.indexOf('`') !== -1 ? ' `x' : ' x') + gt;
    }
  } else if (first === 0x23 /* # */) {
    const atx = ATX_OPEN.exec(rest);
    if (atx) {
      if (ONLY_CLOSING_HASHES.test(rest.slice(atx[0].length))) return line;
      return pre + atx[0] + ' x' + gt;
    }
  }
  if (KEEP_WHOLE.test(rest)) return line;
  return pre + 'x' + gt;
}

/** True when a (whole) line starts a link reference definition, so the next lines may continue it. */
export function startsDefinition(line: string): boolean {
  return line.indexOf(']:') !== -1 && DEFINITION_START.test(line);
}

/** Counts the lines whose nesting the skeleton cut down (the parser then warns: structure approximated). */
export interface DepthGuard {
  cappedLines: number;
}

/**
 * Containers a line may open; deeper markers are dropped from the skeleton. micromark's cost grows
 * with depth (about 1 ms a line at six nested list/quote levels), and real notes stay far below this.
 */
const MAX_NESTING = 16;
/**
 * Widest run of indentation (columns) a skeleton line keeps. Lists nest by indentation alone too: a
 * list nested 400 deep that way took 8 s to parse (1,000 deep: 83 s, all in mdast's list preparation),
 * whatever MAX_NESTING says, because each line opens one container with a wider indent. Wider runs
 * become this many spaces, which keeps every threshold CommonMark has (4 columns: indented code;
 * 5 after a marker), so the deep lines become siblings at the cap (and then repeats that collapse).
 * That is 16 two-column list levels, or 10 three-column ordered ones.
 */
const MAX_INDENT = 32;
const WIDE_INDENT = /[ \t]{17,}/g;
const MARKER = /[>\-+*]|\d[.)]/;

function capIndent(prefix: string): string {
  return prefix.replace(WIDE_INDENT, (run) => (columns(run) > MAX_INDENT ? ' '.repeat(MAX_INDENT) : run));
}

const ONE_CONTAINER = /[ \t]*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+)/y;

function capNesting(prefix: string): string {
  ONE_CONTAINER.lastIndex = 0;
  for (let n = 0; n < MAX_NESTING; n++) if (!ONE_CONTAINER.exec(prefix)) return prefix;
  return ONE_CONTAINER.lastIndex < prefix.length ? prefix.slice(0, ONE_CONTAINER.lastIndex) : prefix;
}

/**
 * The start number of an ordered list matters in one way only (just `1` may interrupt a paragraph)
 * and its width sets the content indent, so every other number becomes a run of 2s of the same width.
 */
function normaliseMarkerNumbers(prefix: string): string {
  return prefix.replace(MARKER_NUMBER, (digits) => (Number(digits) === 1 ? digits : '2'.repeat(digits.length)));
}

const PLAIN_CONTINUATION = /^[ \t>]*x>?$/;
/** List items (possibly holding quotes and further items) whose innermost content is a paragraph. */
const PLAIN_NESTED_ITEM = /^ *(?:(?:[-+*]|\d{1,9}[.)]) {1,4}|> ?)+x>?$/;

/**
 * A skeleton line that may be dropped when it repeats a third time in a row: the repeats either
 * continue the block the line is already in (text, quote, code, HTML content; no list marker) or open
 * list items that hold nothing but a paragraph, so no heading, code or HTML block is lost and every
 * line keeps the block it had. Headings, fences and other kept-whole lines never collapse.
 */
export function isCollapsible(skeleton: string): boolean {
  return PLAIN_CONTINUATION.test(skeleton) || PLAIN_NESTED_ITEM.test(skeleton);
}
