// Query-side analysis: the terms a query is searched by. Cut the same way the index cuts text
// (src/text), minus filler words, so that filler never drives the ranking.
import { bigrams, cjkRuns, hasCjk, isHiragana, searchText, stripCjk } from '../text/normalize.js';
import { KATAKANA_CLASS, letterOrNumberRuns } from '../text/unicode.js';
import { ENGLISH_STOPWORDS, JAPANESE_FILLERS, JAPANESE_PARTICLES } from '../text/stopwords.js';

export interface QueryTerms {
  /** Latin/number words for the unicode61 columns (not stemmed here; FTS5's porter stems both sides). */
  words: string[];
  /** CJK bigrams for the bigram columns. */
  cjk: string[];
  /** One-character CJK pieces, matched as bigram prefixes. */
  cjkSingles: string[];
  /** CJK pieces of two or more characters (roughly words): each is matched as a phrase of its bigrams. */
  cjkPieces: string[];
  /** Words matched as prefixes of indexed words (`sync*` in the query language); none in free text. */
  prefixes?: string[];
  /** Neighbouring words written as one (`mind map` → `mindmap`), candidates to search beside them (CutterOptions.joinPairs). */
  joined?: string[];
}

// Katakana or the prolonged sound mark. Explicit ranges, not a Script= property escape: V8 builds
// those from ICU at every compilation (src/text/unicode.ts).
const KATAKANA = new RegExp(`[${KATAKANA_CLASS}]|\\u30fc`, 'u');
const BREAK = '\u0000';
const PROLONGED_SOUND_MARK = '\u30fc';

export interface CutterOptions {
  /** Drop all-hiragana pieces (inflections, function words) unless nothing else is left. */
  dropHiragana: boolean;
  /** Trim inflected hiragana tails and leading function hiragana (trimInflection). */
  trimTails: boolean;
  /** Split pieces where the script changes (splitAtScriptChange). */
  splitScripts: boolean;
  /** Offer each pair of neighbouring Latin words written as one word (`joined`). */
  joinPairs?: boolean;
}

/**
 * Every cut on: the default. Joined words (`mind map` → `mindmap`, searched only where the vault has them,
 * search.ts): 4 wins, 2 losses over 219 judged queries, +0.003 ± 0.002 nDCG@10 (Hub held-out keyword +0.039).
 */
export const DEFAULT_CUTS: CutterOptions = { dropHiragana: true, trimTails: true, splitScripts: true, joinPairs: true };

/**
 * A one-letter word (`e`, `x`, not `5`) is never searched: it is in nearly every note, and in a pasted
 * command it is a flag (`-e collar`). The query language follows this rule too (`-e` is no exclusion).
 */
export function isLoneLetter(w: string): boolean {
  return w.length === 1 && !/\d/.test(w);
}

export function queryTerms(text: string, cut: CutterOptions = DEFAULT_CUTS): QueryTerms {
  const norm = searchText(text);
  // Sets, not arrays, keep the terms distinct: a pasted page of 50,000 distinct words took 31.8 s to cut
  // with Array.includes (each word checked against every word kept before it), and takes milliseconds.
  const words = new Set<string>();
  const allWords = letterOrNumberRuns(stripCjk(norm)).filter((w) => !hasCjk(w));
  for (const w of allWords) {
    if (ENGLISH_STOPWORDS.has(w)) continue;
    if (isLoneLetter(w)) continue;
    words.add(w);
  }
  // A query made only of filler ("what is it") still searches for its words.
  if (words.size === 0) for (const w of allWords) words.add(w);
  const joined = new Set<string>();
  if (cut.joinPairs) {
    for (let i = 1; i < allWords.length; i++) {
      const [a, b] = [allWords[i - 1], allWords[i]];
      if (ENGLISH_STOPWORDS.has(a) || ENGLISH_STOPWORDS.has(b) || a.length < 2 || b.length < 2 || /^\d+$/.test(a + b)) continue;
      const w = a + b;
      if (!words.has(w)) joined.add(w);
    }
  }

  const cjk = new Set<string>();
  const cjkSingles = new Set<string>();
  const cjkPieces = new Set<string>();
  const runs = cjkRuns(norm);
  let pieces = runs.flatMap(cutFillers);
  if (cut.splitScripts) pieces = pieces.flatMap(splitAtScriptChange);
  if (cut.trimTails) pieces = pieces.map(trimInflection).filter(Boolean);
  // A prolonged sound mark left alone by a cut (待ってー: って is filler) lengthens no sound: as a one-character
  // term it would match every section with a long katakana vowel.
  pieces = pieces.filter((p) => p !== PROLONGED_SOUND_MARK);
  // All-hiragana leftovers are inflections and function words (じめて, ては, どう); content words are
  // almost always written with kanji or katakana. Keep them only when nothing else is left.
  const kept = cut.dropHiragana ? pieces.filter((p) => !scriptsOf(Array.from(p)).every((s) => s === 'hira')) : pieces;
  for (const piece of kept.length ? kept : pieces) {
    const chars = Array.from(piece);
    if (chars.length === 1) {
      cjkSingles.add(piece);
      continue;
    }
    cjkPieces.add(piece);
    for (const g of bigrams(piece)) cjk.add(g);
  }
  return {
    words: [...words],
    cjk: [...cjk],
    cjkSingles: [...cjkSingles],
    cjkPieces: [...cjkPieces],
    ...(joined.size ? { joined: [...joined] } : {}),
  };
}

/**
 * The stem of a piece: leading function hiragana go (どう出せば → 出せば; a single お/ご prefix stays:
 * お金), and so does an inflected tail — all of it after a compound of two or more kanji (申請すれば → 申請),
 * all but one kana after a single kanji (入らなく → 入ら, 出せば → 出せ).
 */
export function trimInflection(piece: string): string {
  const chars = Array.from(piece);
  const script = scriptsOf(chars);
  const hira = (i: number) => script[i] === 'hira';
  if (script.every((s) => s === 'hira')) return piece;
  let start = 0;
  while (start < chars.length && hira(start)) start++;
  if (start === 1) start = 0;
  let end = chars.length;
  while (end > start && hira(end - 1)) end--;
  if (end === chars.length) return chars.slice(start).join('');
  let kanji = 0;
  while (end - kanji - 1 >= start && script[end - kanji - 1] === 'other') kanji++;
  if (kanji === 0) return chars.slice(start).join('');
  return chars.slice(start, kanji >= 2 ? end : end + 1).join('');
}

type Script = 'hira' | 'kata' | 'other';

function runLength(scripts: Script[], from: number, script: Script): number {
  let n = 0;
  while (from + n < scripts.length && scripts[from + n] === script) n++;
  return n;
}

function scriptOf(ch: string): Script {
  if (isHiragana(ch)) return 'hira';
  if (KATAKANA.test(ch)) return 'kata';
  return 'other';
}

/**
 * Each character's script, the prolonged sound mark ー taking that of the sound it lengthens: in はーい,
 * すごーい, えーと, 待ってー it is hiragana. Read as katakana it was a word of its own, a one-character term
 * matched as a bigram prefix by every section with a long katakana vowel (4,466 of the handbook's notes for
 * the prompt はーい, five of them injected).
 */
function scriptsOf(chars: string[]): Script[] {
  const out: Script[] = [];
  for (let i = 0; i < chars.length; i++) out.push(chars[i] === PROLONGED_SOUND_MARK && i > 0 ? out[i - 1] : scriptOf(chars[i]));
  return out;
}

/**
 * Splits a piece where one word most likely ends and the next begins: between hiragana and katakana
 * (either way) and from hiragana to a run of two or more kanji. Kanji followed by hiragana stays
 * together (送り仮名: 書いて).
 */
export function splitAtScriptChange(piece: string): string[] {
  const chars = Array.from(piece);
  const scripts = scriptsOf(chars);
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (cur) {
      const a = scripts[i - 1];
      const b = scripts[i];
      // A single kanji after hiragana is a suffix (選び方, 使い方), not a new word.
      const kanjiRun = b === 'other' ? runLength(scripts, i, 'other') : 0;
      const boundary = (a === 'hira' && (b === 'kata' || kanjiRun >= 2)) || (a === 'kata' && b === 'hira');
      if (boundary) {
        out.push(cur);
        cur = '';
      }
    }
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

/** Splits one CJK run at filler phrases and particles; returns the content pieces. */
export function cutFillers(run: string): string[] {
  let s = run;
  for (const f of JAPANESE_FILLERS) if (s.includes(f)) s = s.split(f).join(BREAK);
  const chars = Array.from(s);
  let out = '';
  let prevCut = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const prev = i > 0 ? chars[i - 1] : BREAK;
    const afterNoun = prev !== BREAK && !isHiragana(prev);
    if (JAPANESE_PARTICLES.has(ch) && i > 0 && (afterNoun || prevCut || prev === BREAK)) {
      out += BREAK;
      prevCut = true;
    } else {
      out += ch;
      prevCut = false;
    }
  }
  return out.split(BREAK).filter((p) => p.length > 0);
}
