// A tie of bm25 scores is kept whole and ordered by path and section (section-search.ts topRows). 200,000
// identical sections (20 notes of 10,000 `# a` headings, 1.6 MB) made every search for `a` die with
// "RangeError: Maximum call stack size exceeded" and a stack trace: the tie was put back in order by
// spreading it into one splice call's arguments, which holds about 125,000.
import { describe, expect, it } from 'vitest';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';

const index = useIndexReader(() =>
  Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`n${String(i).padStart(2, '0')}.md`, '# a\n'.repeat(10_000)])),
);

describe('a tie of 200,000 sections', () => {
  it('is ranked, in path and section order', () => {
    const hits = search(index.db, { query: 'a', limit: 3, allSections: true }).hits;
    expect(hits.map((h) => `${h.path}:${h.line}`)).toEqual(['n00.md:1', 'n00.md:2', 'n00.md:3']);
  });
});
