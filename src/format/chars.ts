// Lengths and cuts measured in code points, so a cut never splits a surrogate pair and a CJK or
// emoji character counts as one character, as a reader would count it.

export const ELLIPSIS = '…';

/** Number of code points (a lone surrogate counts as one). */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const WORD_CHAR = /^[\p{L}\p{N}\p{M}_'’-]$/u;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005-\u3007]$/u;
const MARK = /^[\p{M}\uFF9E\uFF9F\u200D\uFE0F]$/u;

/**
 * True for characters that belong to a space-separated word (Latin, Cyrillic, digits…). CJK
 * characters are not: a cut between two of them is a valid character boundary.
 */
export function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch) && !CJK.test(ch);
}

/** Combining marks and joiners: never cut just before one. */
export function isJoining(ch: string | undefined): boolean {
  return ch !== undefined && MARK.test(ch);
}

/** How far a cut may move to reach a word boundary before it gives up and cuts inside the word. */
const MAX_WORD_SHIFT = 24;

/** An end position ≤ `end` in `cps` that does not split a word, a combining sequence or a pair. */
export function snapEnd(cps: string[], end: number, floor = 0): number {
  if (end >= cps.length) return cps.length;
  let e = end;
  const insideWord = (i: number) => isWordChar(cps[i - 1]) && isWordChar(cps[i]);
  if (insideWord(e)) {
    let back = e;
    while (back > floor && back > end - MAX_WORD_SHIFT && insideWord(back)) back--;
    if (!insideWord(back) && back > floor) e = back;
  }
  while (e > floor && isJoining(cps[e])) e--;
  while (e > floor && /\s/u.test(cps[e - 1])) e--;
  return e;
}

/** A start position ≥ `start` in `cps` that does not split a word or a combining sequence. */
export function snapStart(cps: string[], start: number, ceiling = cps.length): number {
  if (start <= 0) return 0;
  let s = start;
  const insideWord = (i: number) => isWordChar(cps[i - 1]) && isWordChar(cps[i]);
  if (insideWord(s)) {
    let fwd = s;
    while (fwd < ceiling && fwd < start + MAX_WORD_SHIFT && insideWord(fwd)) fwd++;
    if (!insideWord(fwd) && fwd < ceiling) s = fwd;
  }
  while (s < ceiling && isJoining(cps[s])) s++;
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
