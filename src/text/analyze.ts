// Index-side analysis: what goes into the FTS columns for a piece of text.
import { searchText } from './normalize.js';
import { isCjkCodePoint } from './unicode.js';

export interface AnalyzedText {
  /** Normalised text with CJK runs removed; FTS5's unicode61 (+porter) tokenizer cuts it into words. */
  words: string;
  /** Space-separated CJK bigrams of every CJK run. */
  cjk: string;
}

/** ASCII units that can start markup: 1 for * _ ~ ` > | (runs of them), 2 for [ ] ! ). */
const MARKUP_START = new Uint8Array(128);
for (const c of '*_~`>|') MARKUP_START[c.charCodeAt(0)] = 1;
for (const c of '[]!)') MARKUP_START[c.charCodeAt(0)] = 2;

/**
 * The markup token at `i` (its length in units, 0 for none), cut the way the regex
 * /[*_~`>|]+|\[\[|\]\]|!\[|\]\(|\)|\[|\]/g would: a run of * _ ~ ` > |, or [[ ]] ![ ]( ) [ ].
 * Only punctuation goes: the words after a fence (```python) or after backticks that open a heading
 * path stay searchable.
 */
function markupAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (MARKUP_START[c] === 1) {
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) < 0x80 && MARKUP_START[s.charCodeAt(j)] === 1) j++;
    return j - i;
  }
  const next = s.charCodeAt(i + 1);
  if (c === 0x5b) return next === 0x5b ? 2 : 1; // [[ or [
  if (c === 0x5d) return next === 0x5d || next === 0x28 ? 2 : 1; // ]] or ]( or ]
  if (c === 0x21) return next === 0x5b ? 2 : 0; // ![
  return c === 0x29 ? 1 : 0; // )
}

/** Output buffer of the bigram column, reused across calls (grown as needed). */
let cjkUnits = new Uint16Array(4096);
const utf16 = new TextDecoder('utf-16le');

/**
 * One pass over the normalised text: markup becomes a space, each maximal CJK run becomes a space in
 * `words`, and its bigrams (a one-character run: itself) join `cjk`, written unit by unit into a buffer.
 * The same output as the regex cuts it replaces (test/text/unicode.test.ts checks), at a fraction of the
 * cost: a full build analyses every section on the thread that writes the index.
 */
export function analyze(text: string): AnalyzedText {
  const norm = searchText(text);
  const n = norm.length;
  // A bigram per character plus a space: at most three units per unit of input.
  if (cjkUnits.length < 3 * n + 1) cjkUnits = new Uint16Array(3 * n + 1024);
  const b = cjkUnits;
  const words: string[] = [];
  let from = 0;
  let bo = 0;
  let i = 0;
  while (i < n) {
    const unit = norm.charCodeAt(i);
    if (unit < 0x80) {
      const markup = MARKUP_START[unit] === 0 ? 0 : markupAt(norm, i);
      if (markup > 0) {
        words.push(norm.slice(from, i));
        i += markup;
        from = i;
      } else i++;
      continue;
    }
    const cp = norm.codePointAt(i) as number;
    if (!isCjkCodePoint(cp)) {
      i++;
      continue;
    }
    words.push(norm.slice(from, i));
    if (bo > 0) b[bo++] = 0x20;
    // Each character of the run opens a bigram with the next one; the last one only closes one.
    let start = i;
    i += cp > 0xffff ? 2 : 1;
    let single = true;
    while (i < n) {
      const next = norm.codePointAt(i) as number;
      if (!isCjkCodePoint(next)) break;
      const end = i + (next > 0xffff ? 2 : 1);
      if (!single) b[bo++] = 0x20;
      for (let k = start; k < end; k++) b[bo++] = norm.charCodeAt(k);
      single = false;
      start = i;
      i = end;
    }
    if (single) for (let k = start; k < i; k++) b[bo++] = norm.charCodeAt(k);
    from = i;
  }
  if (from === 0) return { words: norm, cjk: '' };
  words.push(norm.slice(from));
  // The bigram units hold whole characters only (CJK code points, pairs never split): UTF-16 decodes them as they are.
  return { words: words.join(' '), cjk: bo === 0 ? '' : utf16.decode(b.subarray(0, bo)) };
}
