// A query pasted into `tsm search` can be a page of distinct words (argv takes up to 2 MB). Cutting it into
// terms must cost linear time: each word was checked against every word kept before it, so 50,000 distinct
// words took 31.8 s in `tsm search` (20,000: 3.9 s), nearly all of it here. The inputs below took 8 s and
// 5 s that way, and take milliseconds now. A synchronous call cannot be stopped by a test timeout, so the
// time is measured; the bound tells linear from quadratic, never a fast machine from a slow one.
import { describe, expect, it } from 'vitest';
import { queryTerms } from '../../src/search/query-terms.js';
import { timed } from '../helpers/timed.js';

describe('queryTerms of a huge query', () => {
  it('cuts 20,000 distinct words (each given twice) once, keeping each once, in order', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `antenna${i}`);
    const { value: terms, ms } = timed(() => queryTerms([...words, ...words].join(' ')));
    expect(terms.words).toEqual(words);
    expect(terms.joined).toHaveLength(20_000); // 19,999 neighbours of the first copy, and the seam between copies
    expect(ms).toBeLessThan(1500);
  });

  it('cuts 40,000 distinct CJK pieces once', () => {
    const kanji = (i: number) => String.fromCodePoint(0x4e00 + (i % 20_000)) + String.fromCodePoint(0x4e00 + Math.floor(i / 20_000));
    const pieces = Array.from({ length: 40_000 }, (_, i) => kanji(i));
    const { value: terms, ms } = timed(() => queryTerms(pieces.join(' ')));
    expect(terms.cjkPieces.length).toBeGreaterThan(39_000); // a few are fillers or fold into another
    expect(new Set(terms.cjkPieces).size).toBe(terms.cjkPieces.length);
    expect(terms.cjk).toEqual(terms.cjkPieces); // each piece is one bigram
    expect(ms).toBeLessThan(1500);
  });
});
