// The words the semantic model learns from and looks up: kanji compounds, katakana words and Latin words,
// NFKC + lower case. Stopwords, particles, hiragana-only words, numbers and one-letter Latin words are
// dropped: they co-occur with everything and carry no topic. So are single kanji: suffixes (的, 性, 化) or
// verb stems whose sense is in the okurigana (生まれる → 生); keeping them lowered the semantic ranker's own
// nDCG@10 on the handbook from 0.495 to 0.473.
//
// Word boundaries are Intl.Segmenter's ('ja', granularity 'word') where the script does not give them:
// inside runs of three or more kanji. Everywhere else a script change is the boundary, as it is for the
// segmenter (katakana runs and Latin words are single words to it too). Segmenting whole texts cost 15 s
// for the handbook's 28 M characters (one object per segment, most of them particles and punctuation that
// are dropped anyway); cutting script runs first and segmenting only the long kanji runs costs about 1 s.
import { ENGLISH_STOPWORDS } from '../../text/stopwords.js';

/** Kanji runs (with 々), katakana runs (with ー), Latin/Greek/Cyrillic words with digits. */
const RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヵヶ]+|[\u30a1-\u30faー]+|[a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff][a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff_'-]*/g;
const NUMBERISH = /^[0-9_'.-]+$|^[0-9]+[a-z]{0,2}$/;

/** Splits a long kanji run into words; the index uses Intl.Segmenter, a query its vocabulary (see below). */
export type KanjiSplitter = (run: string) => string[];

let segmenter: Intl.Segmenter | null = null;
const splitCache = new Map<string, string[]>();

/** Intl.Segmenter's words of a kanji run, cached (runs repeat: the handbook has 90k runs, far fewer distinct). */
export const segmentKanji: KanjiSplitter = (run) => {
  let words = splitCache.get(run);
  if (!words) {
    segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' });
    words = [];
    for (const s of segmenter.segment(run)) if (s.isWordLike) words.push(s.segment);
    if (splitCache.size > 200_000) splitCache.clear();
    splitCache.set(run, words);
  }
  return words;
};

/** Empties the cache of segmented kanji runs (a training is done reading: it holds tens of megabytes). */
export function forgetKanjiSplits(): void {
  splitCache.clear();
}

function isKanji(c: number): boolean {
  return (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || c === 0x3005 || c === 0x3006;
}

/** The model's words of a text, in order. */
export function semanticWords(text: string, split: KanjiSplitter = segmentKanji): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  RUN.lastIndex = 0;
  for (let m = RUN.exec(norm); m; m = RUN.exec(norm)) {
    const w = m[0];
    const c = w.charCodeAt(0);
    if (isKanji(c)) {
      if (w.length === 2) out.push(w);
      else if (w.length > 2) for (const part of split(w)) if (part.length > 1) out.push(part);
    } else if (c >= 0x30a1 && c <= 0x30fc) {
      if (w.length >= 2 && !/^ー+$/.test(w)) out.push(w);
    } else if (w.length >= 2 && !NUMBERISH.test(w)) {
      const t = w.replace(/['_-]+$/, '');
      if (t.length >= 2 && !ENGLISH_STOPWORDS.has(t)) out.push(t);
    }
  }
  return out;
}

/** The kanji runs a query splitter has to cut (for looking up every candidate piece at once). */
export function longKanjiRuns(text: string): string[] {
  const runs: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  RUN.lastIndex = 0;
  for (let m = RUN.exec(norm); m; m = RUN.exec(norm)) if (isKanji(m[0].charCodeAt(0)) && m[0].length >= 3) runs.push(m[0]);
  return runs;
}

/** Every piece of a run up to `maxLen` characters: the candidates a vocabulary splitter looks up. */
export function runPieces(run: string, maxLen = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < run.length; i++) for (let j = i + 1; j <= Math.min(run.length, i + maxLen); j++) out.push(run.slice(i, j));
  return out;
}

/**
 * A splitter for queries: the longest known word first, left to right, unknown single kanji skipped. The
 * segmenter's first call in a process costs about 12 ms (its dictionary loads); a query knows the model's
 * vocabulary instead, which holds exactly the words the segmenter cut from the vault.
 */
export function vocabularySplitter(known: (w: string) => boolean, maxLen = 8): KanjiSplitter {
  return (run) => {
    const out: string[] = [];
    let i = 0;
    while (i < run.length) {
      let j = Math.min(run.length, i + maxLen);
      while (j > i + 1 && !known(run.slice(i, j))) j--;
      const w = run.slice(i, j);
      if (known(w)) out.push(w);
      i = j;
    }
    return out;
  };
}
