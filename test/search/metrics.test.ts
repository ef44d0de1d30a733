import { describe, expect, it } from 'vitest';
import { mrrAt, ndcgAt, queryProbes, recallAt, shownAt } from '../../src/eval/metrics.js';
import { queryTerms } from '../../src/search/query-terms.js';

describe('eval metrics', () => {
  const rel = { a: 2, b: 1 };
  it('nDCG is 1 for the ideal order and lower otherwise', () => {
    expect(ndcgAt(['a', 'b', 'x'], rel, 10)).toBeCloseTo(1);
    expect(ndcgAt(['b', 'a'], rel, 10)).toBeLessThan(1);
    expect(ndcgAt(['x', 'y'], rel, 10)).toBe(0);
  });
  it('MRR is the reciprocal rank of the first relevant result', () => {
    expect(mrrAt(['x', 'b', 'a'], rel, 10)).toBeCloseTo(0.5);
    expect(mrrAt(['x'], rel, 10)).toBe(0);
  });
  it('Recall@k counts relevant results in the top k', () => {
    expect(recallAt(['a', 'x', 'y', 'z', 'w', 'b'], rel, 5)).toBeCloseTo(0.5);
  });
  it('Shown@k is the share of the first k snippets that show a word of the query', () => {
    const t = queryTerms('QuickAdd plugins の経費精算');
    const probes = queryProbes(t.words, t.cjk);
    expect(probes).toEqual(expect.arrayContaining(['quick', 'plugi', '経費', '精算']));
    expect(probes).not.toContain('の経');
    const snippets = [
      'Plugin ID: quickadd. Quickly add new pages.',
      'GitHub all releases GitHub manifest version GitHub Repo stars',
      'Navan で経費を申請する',
      'nothing here',
      'a Plugin for everything',
      'not counted: sixth',
    ];
    expect(shownAt(snippets, probes, 5)).toBeCloseTo(3 / 5);
    expect(shownAt(snippets.slice(0, 2), probes, 5)).toBeCloseTo(1 / 2);
    expect(shownAt([], probes, 5)).toBe(0);
  });
});
