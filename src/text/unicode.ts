// Unicode character sets without Unicode property escapes in any regex. V8 has ICU build the set of a
// property escape when the regex is created and again at each of its compilations (per string encoding,
// on tier-up): about 10 ms of every short-lived `tsm search` or `tsm hook` process. Small script sets are
// written out as explicit ranges, which compile as fast as any class; the big categories (letters,
// numbers, marks, lower case: hundreds of ranges each, slow to compile even when explicit) are looked up
// in range tables instead. unicode-data.ts is generated from Node's own property sets by
// scripts/gen-unicode-data.mjs; test/text/unicode.test.ts checks every code point against them.
import { HAN, HANGUL, HIRAGANA, KATAKANA, LETTER_OR_NUMBER, LOWERCASE_LETTER, MARK } from './unicode-data.js';

/** Regex class body (u flag) for Script=Hiragana. */
export const HIRAGANA_CLASS = HIRAGANA;
/** Regex class body (u flag) for Script=Katakana. */
export const KATAKANA_CLASS = KATAKANA;
/**
 * Regex class body (u flag) for CJK text: Han (incl. 々〆〇), Hiragana, Katakana, Hangul, and the
 * prolonged sound mark ー (script Common).
 */
export const CJK_CLASS = `${HAN}${HIRAGANA}${KATAKANA}${HANGUL}\\u30fc\\u3005-\\u3007`;

/**
 * The [start, end) pairs of a table, flattened: the running sums of its gaps and lengths. Decoded on
 * first use, so a process that never needs a table does not pay for it; JSON.parse is native, which
 * makes this about twice as fast in a cold process as parsing the numbers in JavaScript (0.1–0.2 ms).
 */
function decode(table: string): Uint32Array {
  const deltas: number[] = JSON.parse(table);
  const ranges = new Uint32Array(deltas.length);
  let at = 0;
  for (let i = 0; i < deltas.length; i++) ranges[i] = at += deltas[i];
  return ranges;
}

function inRanges(ranges: Uint32Array, cp: number): boolean {
  if (cp < ranges[0] || cp >= ranges[ranges.length - 1]) return false;
  // The first range starting after cp; cp is in the set iff it lies in the range before it.
  let lo = 0;
  let hi = ranges.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid * 2] <= cp) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && cp < ranges[lo * 2 - 1];
}

/**
 * The [start, end) pairs of a regex class body made of `\\u{…}` / `\\uXXXX` code points and ranges (the
 * form of the script sets here), sorted and merged.
 */
function classRanges(cls: string): Uint32Array {
  const pairs: [number, number][] = [];
  const item = /\\u\{([0-9A-Fa-f]+)\}|\\u([0-9A-Fa-f]{4})/y;
  const next = (): number => {
    const m = item.exec(cls);
    if (!m) throw new Error(`not a code point at ${item.lastIndex} of ${cls.slice(0, 40)}`);
    return parseInt(m[1] ?? m[2], 16);
  };
  while (item.lastIndex < cls.length) {
    const start = next();
    let end = start;
    if (cls[item.lastIndex] === '-') {
      item.lastIndex++;
      end = next();
    }
    pairs.push([start, end + 1]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [a, b] of pairs) {
    if (merged.length && a <= merged[merged.length - 1]) merged[merged.length - 1] = Math.max(merged[merged.length - 1], b);
    else merged.push(a, b);
  }
  return Uint32Array.from(merged);
}

/** CJK_CLASS as a BMP bitmap (most CJK text never leaves the BMP) plus ranges for the rest; built on first use. */
let cjkBmp: Uint8Array | undefined;
let cjkRanges: Uint32Array | undefined;

/** Whether a code point is in CJK_CLASS: what `[${CJK_CLASS}]` with the u flag matches. */
export function isCjkCodePoint(cp: number): boolean {
  if (cp < 0x1100) return false;
  if (!cjkBmp) {
    cjkRanges = classRanges(CJK_CLASS);
    cjkBmp = new Uint8Array(0x10000);
    for (let i = 0; i < cjkRanges.length; i += 2) cjkBmp.fill(1, Math.min(cjkRanges[i], 0x10000), Math.min(cjkRanges[i + 1], 0x10000));
  }
  if (cp < 0x10000) return cjkBmp[cp] === 1;
  return inRanges(cjkRanges as Uint32Array, cp);
}

let letterOrNumber: Uint32Array | undefined;
let mark: Uint32Array | undefined;
let lowercase: Uint32Array | undefined;

/** Letter or number (general category L or N) for one code point. */
export function isLetterOrNumber(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || ((cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a);
  return inRanges((letterOrNumber ??= decode(LETTER_OR_NUMBER)), cp);
}

/** Mark (general category M) for one code point. */
export function isMark(cp: number): boolean {
  if (cp < 0x80) return false;
  return inRanges((mark ??= decode(MARK)), cp);
}

/** Lower-case letter (general category Ll) for one code point. */
export function isLowercaseLetter(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a;
  return inRanges((lowercase ??= decode(LOWERCASE_LETTER)), cp);
}

/**
 * JavaScript's `\s` for one UTF-16 unit: tab, vertical tab, form feed, U+FEFF, the space separators (Zs)
 * and the line terminators, all in the BMP. (Not Unicode's White_Space: U+0085 is not `\s`.)
 */
export function isSpace(unit: number): boolean {
  if (unit < 0x80) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** The code point of a one-code-point string (a lone surrogate counts), else -1: what `^…$` with the u flag sees. */
export function singleCodePoint(ch: string): number {
  const cp = ch.codePointAt(0);
  if (cp === undefined || ch.length !== (cp > 0xffff ? 2 : 1)) return -1;
  return cp;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_LETTER_OR_NUMBER_RUN = /[A-Za-z0-9]+/g;

/** The maximal runs of letters and numbers in the text, in order, as a global regex match of them would return. */
export function letterOrNumberRuns(text: string): string[] {
  // ASCII text (most file names, titles and English queries) by a plain class, matched natively: a
  // fresh process runs the loop below unoptimised, ~0.3 ms for a search's few hundred file names.
  if (ASCII_ONLY.test(text)) return text.match(ASCII_LETTER_OR_NUMBER_RUN) ?? [];
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const hit = isLetterOrNumber(cp);
    if (hit && start < 0) start = i;
    else if (!hit && start >= 0) {
      runs.push(text.slice(start, i));
      start = -1;
    }
    i += cp > 0xffff ? 2 : 1;
  }
  if (start >= 0) runs.push(text.slice(start));
  return runs;
}
