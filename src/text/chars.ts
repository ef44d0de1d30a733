// Lengths and cuts measured in code points, so a cut never splits a surrogate pair and a CJK or
// emoji character counts as one character, as a reader would count it.
import { isCjkChar } from './normalize.js';
import { REDACTED } from './redacted.js';
import { isLetterOrNumber, isMark, singleCodePoint } from './unicode.js';

export const ELLIPSIS = '…';

/**
 * Number of code points (a lone surrogate counts as one): the string's length less its surrogate pairs.
 * Counted by char codes, not `for…of`: in a fresh process the string iterator allocates a result per
 * character (~0.1 MB of a prompt hook's snippets).
 */
export function charLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// The character tests below look code points up in tables (src/text/unicode.ts) rather than using
// regexes with Unicode property escapes, which cost milliseconds to compile in every process.

/**
 * True for characters that belong to a space-separated word (Latin, Cyrillic, digits…). CJK
 * characters are not: a cut between two of them is a valid character boundary.
 * `ch` is one code point (a longer string is not a word character).
 */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const cp = singleCodePoint(ch);
  if (cp < 0) return false;
  if (cp < 0x80) return isLetterOrNumber(cp) || cp === 0x5f || cp === 0x27 || cp === 0x2d; // _ ' -
  return (isLetterOrNumber(cp) || isMark(cp) || cp === 0x2019) && !isCjkChar(ch); // ’
}

const ZWJ = 0x200d;

/** Combining marks and joiners: never cut just before one. `ch` is one code point. */
export function isJoining(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const cp = singleCodePoint(ch);
  // Half-width (semi-)voiced sound marks, zero-width joiner, emoji presentation selector.
  return isMark(cp) || cp === 0xff9e || cp === 0xff9f || cp === ZWJ || cp === 0xfe0f;
}

/** Emoji skin tones (👍🏽) and tag characters (the flags of England, Scotland, Wales): part of the emoji before them. */
function extendsEmoji(ch: string | undefined): boolean {
  const cp = ch === undefined ? -1 : singleCodePoint(ch);
  return (cp >= 0x1f3fb && cp <= 0x1f3ff) || (cp >= 0xe0020 && cp <= 0xe007f);
}

function isRegionalIndicator(ch: string | undefined): boolean {
  const cp = ch === undefined ? -1 : singleCodePoint(ch);
  return cp >= 0x1f1e6 && cp <= 0x1f1ff;
}

/**
 * Whether a cut between cps[i - 1] and cps[i] splits what a reader sees as one character: before a mark,
 * joiner or skin tone, just after a zero-width joiner (👨‍👩‍👧 cut after 👨‍ shows a man, and its rest a girl where
 * a family was), or between the two regional indicators of a flag (🇯🇵 cut shows a J and a P).
 */
function splitsCluster(cps: string[], i: number): boolean {
  if (i <= 0 || i >= cps.length) return false;
  if (isJoining(cps[i]) || extendsEmoji(cps[i]) || singleCodePoint(cps[i - 1]) === ZWJ) return true;
  if (!isRegionalIndicator(cps[i]) || !isRegionalIndicator(cps[i - 1])) return false;
  let run = 0;
  while (i - 1 - run >= 0 && isRegionalIndicator(cps[i - 1 - run])) run++;
  return run % 2 === 1;
}

/** How far a cut may move to reach a word boundary before it gives up and cuts inside the word. */
const MAX_WORD_SHIFT = 24;

/**
 * Where the `[REDACTED]` that position `at` of `cps` falls strictly inside starts, or -1. A cut there left `[…`
 * or `…ACTED]` of a secret's marker in an MCP preview or a hook's snippet, so a cut drops the marker whole
 * (a cut that must keep a matched word — `floor`, `ceiling` — inside the marker stays where it is).
 */
function redactedAround(cps: string[], at: number): number {
  for (let start = at - 1; start > at - REDACTED.length && start >= 0; start--) {
    if (cps[start] !== '[') continue;
    let i = 0;
    while (i < REDACTED.length && cps[start + i] === REDACTED[i]) i++;
    return i === REDACTED.length ? start : -1;
  }
  return -1;
}

/** An end position ≤ `end` in `cps` that does not split a word, a marker, a combining sequence or a pair. */
export function snapEnd(cps: string[], end: number, floor = 0): number {
  if (end >= cps.length) return cps.length;
  let e = end;
  const marker = redactedAround(cps, e);
  if (marker >= floor) e = marker;
  const insideWord = (i: number) => isWordChar(cps[i - 1]) && isWordChar(cps[i]);
  if (insideWord(e)) {
    let back = e;
    while (back > floor && back > end - MAX_WORD_SHIFT && insideWord(back)) back--;
    if (!insideWord(back) && back > floor) e = back;
  }
  while (e > floor && splitsCluster(cps, e)) e--;
  while (e > floor && /\s/u.test(cps[e - 1])) e--;
  return e;
}

/** A start position ≥ `start` in `cps` that does not split a word, a marker or a combining sequence. */
export function snapStart(cps: string[], start: number, ceiling = cps.length): number {
  if (start <= 0) return 0;
  let s = start;
  const marker = redactedAround(cps, s);
  if (marker !== -1 && marker + REDACTED.length <= ceiling) s = marker + REDACTED.length;
  const insideWord = (i: number) => isWordChar(cps[i - 1]) && isWordChar(cps[i]);
  if (insideWord(s)) {
    let fwd = s;
    while (fwd < ceiling && fwd < start + MAX_WORD_SHIFT && insideWord(fwd)) fwd++;
    if (!insideWord(fwd) && fwd < ceiling) s = fwd;
  }
  while (s < ceiling && splitsCluster(cps, s)) s++;
  while (s < ceiling && /\s/u.test(cps[s])) s++;
  return s;
}

/**
 * The text cut to at most `maxChars` characters, ending with `…` when cut. Cuts at a word boundary
 * (or any character boundary inside CJK text or a very long token).
 */
export function truncateText(text: string, maxChars: number): string {
  const cps = Array.from(text);
  if (cps.length <= maxChars) return text;
  if (maxChars <= 0) return '';
  if (maxChars === 1) return ELLIPSIS;
  let end = snapEnd(cps, maxChars - 1);
  if (end === 0) end = maxChars - 1;
  return cps.slice(0, end).join('') + ELLIPSIS;
}

/** `text` cut to `max` characters from the front, keeping its end: `…/deep/folder/note.md`. */
export function truncateStart(text: string, max: number): string {
  const cps = Array.from(text);
  return cps.length <= max ? text : ELLIPSIS + cps.slice(cps.length - (max - 1)).join('');
}

/**
 * `text` cut to at most `max` UTF-16 units (+ one newline) by keeping its first and last halves: a pasted log
 * between a question and its follow-up says little about what to search for. Never cuts a surrogate pair.
 * O(1) in the length of `text`, so a 5 MB prompt costs what a page does.
 */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  let head = half;
  let tail = text.length - half;
  if (/[\uD800-\uDBFF]/.test(text[head - 1])) head--;
  if (/[\uDC00-\uDFFF]/.test(text[tail])) tail++;
  return `${text.slice(0, head)}\n${text.slice(tail)}`;
}

/**
 * Longest echo of a query, in characters, wherever tsm quotes one back: `tsm search`'s stderr lines, the MCP
 * tools' `query` and `did_you_mean`, the prompt hook's `query` attribute. Whoever sent the query has it: a
 * 30 KB pasted prompt echoed whole (`tsm: 1119 results for "…30 KB…"`) buried the line around it.
 */
export const QUERY_ECHO_CHARS = 200;

/**
 * A query as echoed: runs of whitespace (newlines included) as one space, at most QUERY_ECHO_CHARS
 * characters, ending with `…` when cut (at a word boundary where there is one). Reads only its first
 * 4 × QUERY_ECHO_CHARS UTF-16 units (at least QUERY_ECHO_CHARS + 1 characters), so a 5 MB query costs what a
 * short one does.
 */
export function queryEcho(text: string): string {
  let head = text.slice(0, 4 * QUERY_ECHO_CHARS);
  if (head.length < text.length && /[\uD800-\uDBFF]/.test(head[head.length - 1])) head = head.slice(0, -1);
  const flat = head.replace(/\s+/g, ' ').trim();
  // A window that was mostly whitespace flattens to under the cap: the cut must still show.
  const cut = head.length < text.length && /\S/.test(text.slice(head.length));
  if (cut && charLength(flat) < QUERY_ECHO_CHARS) return `${flat}${ELLIPSIS}`;
  return truncateText(flat, QUERY_ECHO_CHARS);
}
