import { describe, expect, it } from 'vitest';
import { mrrAt, ndcgAt, recallAt } from '../../src/eval/metrics.js';

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
});
