// The passage of a section that best shows why it matched: the window of at most maxChars
// characters covering the most distinct query terms.
import { dropCjkSelectors, foldVariants, hasCjk, isCjkChar, normalize, searchForm, SYMBOL_SPELLINGS } from '../text/normalize.js';
import { isMark } from '../text/unicode.js';
import { ELLIPSIS, charLength, isWordChar, snapEnd, snapStart, truncateText } from '../text/chars.js';
import { DEFAULT_LINK_READING, markdownLine, type LinkReading } from '../text/markdown-line.js';

interface Match {
  term: number;
  /** Code-point offsets into the plain text, end exclusive. */
  start: number;
  end: number;
}

/** Sections are chunked upstream; if a huge one arrives anyway only its start is searched for a passage. */
const MAX_SCAN_CHARS = 20_000;
/** Enough occurrences to find a good window; bounds the work on huge sections. */
const MAX_MATCHES_PER_TERM = 200;

function normalizeTerm(t: string): string {
  return searchForm(t).trim();
}

interface NormalizedText {
  norm: string;
  /** Code-point span of the original text that unit i of `norm` came from. */
  from: (i: number) => number;
  to: (i: number) => number;
}

// Character tests are code-point loops over tables (src/text/unicode.ts), not regexes with Unicode
// property escapes: those cost milliseconds to compile in every process.

/** Combining marks, and the half-width (semi-)voiced sound marks that NFKC composes with the kana before them. */
function isClusterMark(cp: number): boolean {
  return isMark(cp) || cp === 0xff9e || cp === 0xff9f;
}

/**
 * Whether the text has characters whose normalisation can merge with a neighbour or change the
 * UTF-16 length per code point: marks, Hangul jamo (U+1100–U+11FF), surrogates (paired or not).
 */
export function needsClusters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if ((u >= 0xd800 && u <= 0xdfff) || (u >= 0x1100 && u <= 0x11ff) || isClusterMark(u)) return true;
  }
  return false;
}

/**
 * The text cut into combining sequences, each normalised on its own: a base character with the marks
 * after it, or the marks that open the text.
 */
export function combiningSequences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (i > start && !isClusterMark(cp)) {
      out.push(text.slice(start, i));
      start = i;
    }
    i += cp > 0xffff ? 2 : 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * The text in its search form (normalize.ts searchForm: NFKC, lower case, variants folded, a CJK character's
 * variation selectors dropped) with each UTF-16 unit of the result mapped back to the code-point span it came
 * from, so matches found in normalised text can be cut from the original. A whitespace-separated piece whose normalisation keeps its length (and has
 * nothing that could compose) maps one to one; others are normalised per combining sequence.
 */
function normalizedWithMap(text: string): NormalizedText {
  const whole = normalize(text);
  if (whole.length === text.length && !needsClusters(text)) {
    return { norm: foldVariants(whole), from: (i) => i, to: (i) => i + 1 };
  }
  let norm = '';
  const from: number[] = [];
  const to: number[] = [];
  let cp = 0;
  for (const [piece] of text.matchAll(/\s+|\S+/gu)) {
    const n = normalize(piece);
    if (n.length === piece.length && !needsClusters(piece)) {
      for (let k = 0; k < n.length; k++) {
        from.push(cp + k);
        to.push(cp + k + 1);
      }
      norm += n;
      cp += piece.length;
      continue;
    }
    for (const cluster of combiningSequences(piece)) {
      // A selector after a CJK character is a mark of its cluster: dropped here as searchForm drops it.
      const c = dropCjkSelectors(normalize(cluster));
      const len = charLength(cluster);
      for (let k = 0; k < c.length; k++) {
        from.push(cp);
        to.push(cp + len);
      }
      norm += c;
      cp += len;
    }
  }
  // Folded as a whole, so a fold that reads a neighbour (3か月) sees it across clusters; it keeps the length.
  return { norm: foldVariants(norm), from: (i) => from[i], to: (i) => to[i] };
}

function findMatches(text: string, terms: string[]): Match[] {
  const { norm, from, to } = normalizedWithMap(text);
  const matches: Match[] = [];
  terms.forEach((term, ti) => {
    // Latin words match at a word start (so stems match inflected forms); CJK terms anywhere.
    const anywhere = hasCjk(term);
    let found = 0;
    for (let i = norm.indexOf(term); i >= 0 && found < MAX_MATCHES_PER_TERM; i = norm.indexOf(term, i + 1)) {
      if (!anywhere && i > 0 && isWordChar(norm[i - 1])) continue;
      matches.push({ term: ti, start: from(i), end: to(i + term.length - 1) });
      found++;
    }
  });
  return matches.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The span [start, end) of the window of matches fitting in `width` with the most distinct terms. */
function bestSpan(matches: Match[], width: number): { start: number; end: number } {
  const counts = new Map<number, number>();
  let best = { distinct: -1, hits: -1, start: 0, end: 0 };
  let j = 0;
  let end = 0;
  for (let i = 0; i < matches.length; i++) {
    if (i > 0 && i - 1 < j) {
      const t = matches[i - 1].term;
      const c = (counts.get(t) ?? 0) - 1;
      if (c === 0) counts.delete(t);
      else counts.set(t, c);
    }
    if (j < i) j = i;
    while (j < matches.length && matches[j].end - matches[i].start <= width) {
      counts.set(matches[j].term, (counts.get(matches[j].term) ?? 0) + 1);
      j++;
    }
    const hits = j - i;
    if (counts.size > best.distinct || (counts.size === best.distinct && hits > best.hits)) {
      end = matches[i].start;
      for (let k = i; k < j; k++) end = Math.max(end, matches[k].end);
      // A single match wider than the window: show its start.
      if (hits === 0) end = Math.min(matches[i].end, matches[i].start + width);
      best = { distinct: counts.size, hits, start: matches[i].start, end };
    }
  }
  return { start: best.start, end: best.end };
}

/** The first `units` UTF-16 units of the text, without a dangling half of a surrogate pair. */
function head(text: string, units: number): string {
  return text.length <= units ? text : text.slice(0, units).replace(/[\uD800-\uDBFF]$/, '');
}

function isSentenceStart(cps: string[], p: number): boolean {
  return /[。！？]/u.test(cps[p - 1] ?? '') || (/\s/u.test(cps[p - 1] ?? '') && /[.!?]/u.test(cps[p - 2] ?? ''));
}

/** Where the window opens: a sentence start close before the span, else a little leading context. */
function windowStart(cps: string[], spanStart: number, slack: number, shift: number): number {
  const reach = Math.min(spanStart, Math.floor(slack / 2));
  for (let p = spanStart; p >= spanStart - reach; p--) if (p === 0 || isSentenceStart(cps, p)) return p;
  const start = spanStart - Math.min(spanStart, Math.floor(slack / 4));
  // Inside a word: go back to its start if the budget allows, else forward past it.
  let wordStart = start;
  while (wordStart > 0 && isWordChar(cps[wordStart - 1]) && isWordChar(cps[wordStart])) wordStart--;
  if (spanStart - wordStart <= slack) return snapStart(cps, wordStart, spanStart);
  return clauseStart(cps, snapStart(cps, start, spanStart), spanStart, shift);
}

/** What ends a Japanese sentence or clause: a window inside Japanese text opens and closes just after one. */
const CLAUSE_END = new Set([...'。！？、，」』）】!?']);

/**
 * How far a cut inside Japanese text moves to reach a clause boundary: Japanese has no spaces to cut at, and a
 * cut anywhere shows a word's tail (…た。今日は) or head (公園 as 公…). At most a tenth of the window.
 */
function clauseShift(max: number): number {
  return Math.min(16, Math.floor(max / 10));
}

/** A cut between two CJK characters: one snapStart and snapEnd leave where it is. */
function insideCjk(cps: string[], p: number): boolean {
  return p > 0 && p < cps.length && isCjkChar(cps[p - 1]) && isCjkChar(cps[p]);
}

/** An opening at `p`, moved forward (before `ceiling`, at most `shift`) to just after a clause end inside CJK text. */
function clauseStart(cps: string[], p: number, ceiling: number, shift: number): number {
  if (!insideCjk(cps, p)) return p;
  for (let q = p + 1; q <= Math.min(p + shift, ceiling); q++) if (CLAUSE_END.has(cps[q - 1])) return q;
  return p;
}

/** A closing at `p`, moved back (not below `floor`, at most `shift`) to just after a clause end inside CJK text. */
function clauseEnd(cps: string[], p: number, floor: number, shift: number): number {
  if (!insideCjk(cps, p)) return p;
  for (let q = p - 1; q >= Math.max(p - shift, floor, 1); q--) if (CLAUSE_END.has(cps[q - 1])) return q;
  return p;
}

/** The text as passages are cut from it, and the distinct terms sought in it. */
interface Prepared {
  plain: string;
  wanted: string[];
}

/** A text prepared for bestSnippet: markdown simplified (its links read as `links` says), the head MAX_SCAN_CHARS scanned. */
function prepared(text: string, terms: string[], links: LinkReading): Prepared {
  const wanted = terms.map(normalizeTerm).filter(Boolean);
  // `cpp` is how the index reads `C++` (normalize.ts searchText): the text shows the symbol.
  for (const t of [...wanted]) {
    const symbol = SYMBOL_SPELLINGS.get(t);
    if (symbol) wanted.push(symbol);
  }
  return { plain: markdownLine(head(text, MAX_SCAN_CHARS), links), wanted: [...new Set(wanted)] };
}

/**
 * The best passage of `text` for `terms` (normalised lower-case words or CJK bigrams), at most
 * `maxChars` characters, whitespace collapsed, markdown noise simplified, `…` where cut.
 * Without terms or matches: the start of the text — or, when `instead` (a note's description) holds a
 * term that `text` does not, the best passage of `instead`. Each text is prepared once: a hit's section
 * prepared twice (once to see whether it holds a term) cost the prompt hook ~1 ms on the handbook.
 * `links`: how the vault's links read (search/link-reading.ts), Obsidian's way where no vault is known.
 */
export function bestSnippet(text: string, terms: string[], maxChars: number, instead?: string, links: LinkReading = DEFAULT_LINK_READING): string {
  const max = Math.floor(maxChars);
  if (!(max > 0)) return '';
  const p = prepared(text, terms, links);
  if (!instead) return passage(p, max);
  const found = matchesIn(p);
  if (found.length === 0) {
    const q = prepared(instead, terms, links);
    const there = matchesIn(q);
    if (there.length > 0) return passage(q, max, there);
  }
  return passage(p, max, found);
}

function matchesIn({ plain, wanted }: Prepared): ReturnType<typeof findMatches> {
  return wanted.length ? findMatches(plain, wanted) : [];
}

/** The passage of a prepared text; `found`: its matches, when already known. */
function passage(p: Prepared, max: number, found?: ReturnType<typeof findMatches>): string {
  const { plain } = p;
  const cps = Array.from(plain);
  if (cps.length <= max) return plain;
  const matches = found ?? matchesIn(p);
  if (matches.length === 0 || max < 3) return truncateText(plain, max);

  const span = bestSpan(matches, max - 2);
  const shift = clauseShift(max);
  const start = windowStart(cps, span.start, Math.max(0, max - 2 - (span.end - span.start)), shift);
  if (start === 0) return truncateText(plain, max);
  if (cps.length - start <= max - 1) {
    // The window reaches the end: use the whole budget for text before it instead.
    const tailStart = clauseStart(cps, snapStart(cps, cps.length - (max - 1), start), start, shift);
    return ELLIPSIS + cps.slice(tailStart).join('');
  }
  const floor = Math.min(span.end, start + max - 2);
  const end = clauseEnd(cps, snapEnd(cps, start + max - 2, floor), floor, shift);
  return ELLIPSIS + cps.slice(start, end).join('') + ELLIPSIS;
}
