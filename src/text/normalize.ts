// Text normalisation shared by the index and the query path, so both always cut text the same way.
import { CJK_CLASS, HIRAGANA_CLASS, isCjkCodePoint, isLetterOrNumber } from './unicode.js';

/** NFKC + lower case: full-width ASCII becomes ASCII, half-width katakana becomes full-width. */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * A frontmatter value compared as a key (status, type, tag, alias), as the index stores it and as a filter's
 * value is compared: normalize(), trimmed. One rule for both sides: a status written in NFD (macOS file
 * names, some editors: `レビュー済み` as 7 code points) and the same typed in NFC (6) were two statuses, and
 * `--status` found only the notes spelled as typed.
 */
export function keyForm(value: string): string {
  return normalize(value.trim());
}

/**
 * Language names the word tokenizer would cut to one letter (`c++` and `c#` are both `c`, and a one-letter
 * word is never searched: query-terms.ts), spelled as words: the index and every query cut them alike, so
 * `C++` finds C++ notes, not every note with a `c`, and `cpp` finds them too. Not after a letter, digit or
 * `_` (`abc#`), nor before a letter, `_`, `+` or `#` (`c#x`), CJK aside (`日本語のc#と`, whose runs the index
 * cuts apart); before a digit, a word of its own (`c++17` is `cpp 17`). Neighbours are read from the range
 * tables of unicode.ts, not with `\p{…}` escapes, which V8 builds from ICU in every process that compiles
 * them (0.4 ms for this one; README, Performance).
 */
const SYMBOL_NAMES = /[cf](?:\+\+|#)/g;
const SPELLED: Record<string, string> = { 'c++': 'cpp', 'c#': 'csharp', 'f#': 'fsharp' };

/** The symbols' spelled names (SYMBOL_NAMES) → how notes write them: what a snippet shows as a match of `cpp`. */
export const SYMBOL_SPELLINGS: ReadonlyMap<string, string> = new Map(Object.entries(SPELLED).map(([symbol, word]) => [word, symbol]));

/**
 * Spellings of one word that NFKC keeps apart and a Japanese reader does not: the small ヶ and ヵ (関ヶ原 is
 * 関ケ原; NFKC keeps small kana), the counter after a number (3ヶ月, 3ヵ月, 3カ月, 3ケ月 and 3か月 are one
 * word; likewise か所, か国), and the name kanji 髙 and 﨑 (髙橋 is 高橋 to anyone searching for them; 﨑 is a
 * compatibility ideograph without a decomposition, so NFKC leaves it). Each is one UTF-16 unit for one, so a
 * text keeps its length and snippet.ts's offsets hold. 𠮷 (吉) is left: two units for one. Not 斎/斉 (two
 * surnames), nor old forms such as 邊 or 澤, which a name may be registered with. Applied to normalize()d text
 * by searchText and by snippets, never to link names, aliases or tags, which Obsidian matches as written.
 */
const VARIANT = /[かカヵヶケ](?=[月所国])|[ヵヶ髙﨑]/g;
const FOLDED: Record<string, string> = { ヵ: 'カ', ヶ: 'ケ', 髙: '高', 﨑: '崎' };
/** What a counter follows: a number, or no CJK character (`3ヶ月`, `か月` typed alone), never a word (何か月曜). */
const NUMERALS = '〇一二三四五六七八九十百千数何';

/** Normalised text with the variants of VARIANT folded: what the index and every query search. Same length. */
export function foldVariants(norm: string): string {
  return norm.replace(VARIANT, (ch: string, at: number) => {
    const before = at > 0 ? codePointBefore(norm, at) : -1;
    const counter = at + 1 < norm.length && '月所国'.includes(norm[at + 1]) && (before < 0 || !isCjkCodePoint(before) || NUMERALS.includes(norm[at - 1]));
    return counter ? 'ケ' : (FOLDED[ch] ?? ch);
  });
}

/**
 * Variation selectors (U+FE00–FE0F, and the ideographic ones U+E0100–E01EF) that follow a CJK character: a
 * name written with its registered glyph (葛󠄀飾, 辻󠄀) carries one, NFKC keeps it, and as no CJK character it cut
 * the run in two, so `葛飾` found no 葛󠄀飾 (its bigram was never indexed). Such a selector picks a glyph, not a
 * character. Elsewhere they stay: after an emoji or a symbol (⚠️, ℹ️) they part words as before.
 */
const SELECTORS = /(?:[\ufe00-\ufe0f]|\udb40[\udd00-\uddef])+/g;
const ANY_SELECTOR = /[\ufe00-\ufe0f]|\udb40[\udd00-\uddef]/;

/** `norm` without the variation selectors that follow a CJK character (SELECTORS). Shorter when it drops any. */
export function dropCjkSelectors(norm: string): string {
  if (!ANY_SELECTOR.test(norm)) return norm;
  return norm.replace(SELECTORS, (m: string, at: number) => (at > 0 && isCjkCodePoint(codePointBefore(norm, at)) ? '' : m));
}

/** normalize(), then foldVariants() and dropCjkSelectors(): the form of a text every search compares. */
export function searchForm(text: string): string {
  return dropCjkSelectors(foldVariants(normalize(text)));
}

/** Normalised text as it is searched: searchForm(), and the language names of SYMBOL_NAMES spelled as words. */
export function searchText(text: string): string {
  const norm = searchForm(text);
  if (!norm.includes('+') && !norm.includes('#')) return norm;
  return norm.replace(SYMBOL_NAMES, (m: string, at: number) => {
    const before = at > 0 ? codePointBefore(norm, at) : -1;
    if (before === 0x5f || wordChar(before)) return m;
    const after = norm.codePointAt(at + m.length) ?? -1;
    const digit = after >= 0x30 && after <= 0x39;
    if (!digit && (after === 0x5f || after === 0x2b || after === 0x23 || wordChar(after))) return m;
    const word = SPELLED[m] ?? m;
    return digit ? `${word} ` : word;
  });
}

/** A letter or number the word tokenizer joins to `c`: not a CJK character, whose runs the index cuts apart. */
function wordChar(cp: number): boolean {
  return cp >= 0 && isLetterOrNumber(cp) && !isCjkCodePoint(cp);
}

/** The code point that ends just before index `i` (a surrogate pair read whole). */
function codePointBefore(s: string, i: number): number {
  const low = s.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = s.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return s.codePointAt(i - 2) as number;
  }
  return low;
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
