// Text normalisation shared by the index and the query path, so both always cut text the same way.
import { CJK_CLASS, HIRAGANA_CLASS } from './unicode.js';

/** NFKC + lower case: full-width ASCII becomes ASCII, half-width katakana becomes full-width. */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Language names the word tokenizer would cut to one letter (`c++` and `c#` are both `c`, and a one-letter
 * word is never searched: query-terms.ts), spelled as words: the index and every query cut them alike, so
 * `C++` finds C++ notes, not every note with a `c`, and `cpp` finds them too. Not after a letter or digit
 * (`abc#`), nor before one (`c#x`); `c++17` is `cpp 17`.
 */
const SYMBOL_NAMES = /(?<![\p{L}\p{N}_])([cf])(\+\+|#)(?![\p{L}_+#])/gu;
const SPELLED: Record<string, string> = { 'c++': 'cpp', 'c#': 'csharp', 'f#': 'fsharp' };

/** The symbols' spelled names (SYMBOL_NAMES) → how notes write them: what a snippet shows as a match of `cpp`. */
export const SYMBOL_SPELLINGS: ReadonlyMap<string, string> = new Map(Object.entries(SPELLED).map(([symbol, word]) => [word, symbol]));

/** Normalised text as it is searched: normalize(), and the language names of SYMBOL_NAMES spelled as words. */
export function searchText(text: string): string {
  const norm = normalize(text);
  if (!norm.includes('+') && !norm.includes('#')) return norm;
  return norm.replace(SYMBOL_NAMES, (m: string, _l: string, _s: string, at: number) => {
    const word = SPELLED[m] ?? m;
    return /[\p{N}]/u.test(norm.charAt(at + m.length)) ? `${word} ` : word;
  });
}

// Han (incl. 々〆〇), Hiragana, Katakana (incl. the prolonged sound mark), Hangul. Explicit ranges rather
// than Script= property escapes, which V8 rebuilds from ICU at every compilation (see ./unicode.ts).
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu');
const HIRAGANA = new RegExp(`^[${HIRAGANA_CLASS}]$`, 'u');

export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

export function isHiragana(ch: string): boolean {
  return HIRAGANA.test(ch);
}

/** The CJK runs of a (normalised) text, in order. */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUN) ?? [];
}

/** The text with every CJK run replaced by a space: what the word tokenizer sees. */
export function stripCjk(text: string): string {
  return text.replace(CJK_RUN, ' ');
}

/**
 * Overlapping character bigrams of one CJK run (the classic CJK analyzer).
 * A one-character run yields itself, so single characters stay searchable.
 */
export function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}
