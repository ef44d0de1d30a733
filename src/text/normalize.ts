// Text normalisation shared by the index and the query path, so both always cut text the same way.
import { CJK_CLASS, HIRAGANA_CLASS } from './unicode.js';

/** NFKC + lower case: full-width ASCII becomes ASCII, half-width katakana becomes full-width. */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
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
