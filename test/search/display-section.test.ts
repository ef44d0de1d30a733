import { describe, expect, it } from 'vitest';
import { bestSectionPerNote } from '../../src/search/display-section.js';
import { queryTerms } from '../../src/search/query-terms.js';

describe('bestSectionPerNote', () => {
  const sections = [
    { id: 1, noteId: 10, ord: 0, text: '' },
    { id: 2, noteId: 10, ord: 1, text: '- TODO: measure again' },
    { id: 3, noteId: 10, ord: 2, text: 'SX1262 の消費電力は送信時 38mA。SX1262 のスリープ電流は 0.6µA。' },
    { id: 4, noteId: 20, ord: 0, text: 'nothing relevant here' },
  ];
  it('picks the section whose own text covers the query', () => {
    const best = bestSectionPerNote(sections, queryTerms('SX1262 の消費電力'));
    expect(best.get(10)).toBe(3);
  });
  it('leaves notes with no matching section to the ranking', () => {
    expect(bestSectionPerNote(sections, queryTerms('SX1262')).has(20)).toBe(false);
  });
});
