import { describe, expect, it } from 'vitest';
import { RETRAIN_SHARE, retrainDue, tooSmallBecause } from '../../src/index/semantic/refresh.js';
import { SEMANTIC_VERSION, type SemanticState } from '../../src/index/semantic/store.js';

const state = (kind: SemanticState['kind'], sections: number, embeddedSince = 0): SemanticState => ({
  version: SEMANTIC_VERSION,
  kind,
  dims: kind === 'trained' ? 8 : 0,
  words: kind === 'trained' ? 64 : 0,
  sections,
  trainedAt: '2026-11-27T00:00:00.000Z',
  embeddedSince,
  seq: 0,
});

describe('retrainDue', () => {
  it('trains a vault without a model once it has enough sections', () => {
    expect(retrainDue(null, 299, 300)).toBe(false);
    expect(retrainDue(null, 300, 300)).toBe(true);
  });

  it('trains a vault that was too small once it has enough sections', () => {
    expect(retrainDue(state('too-small', 120), 299, 300)).toBe(false);
    expect(retrainDue(state('too-small', 120), 300, 300)).toBe(true);
  });

  it('does not retry a vault of enough sections but too few words at every sync, only after as much change as a model waits for', () => {
    const s = state('too-small', 27_000);
    expect(tooSmallBecause(s, 300)).toBe('words');
    expect(retrainDue(s, 27_000, 300)).toBe(false);
    expect(retrainDue(s, 27_001, 300)).toBe(false);
    expect(retrainDue(s, 27_000 + RETRAIN_SHARE * 27_000, 300)).toBe(true);
    expect(retrainDue(s, 27_000 - RETRAIN_SHARE * 27_000, 300)).toBe(true);
  });

  it('retrains a model when the sections embedded since and the change in count reach the share', () => {
    expect(retrainDue(state('trained', 1000, 199), 1000, 300)).toBe(false);
    expect(retrainDue(state('trained', 1000, 150), 1050, 300)).toBe(true);
  });

  it('tells too few sections from too few words', () => {
    expect(tooSmallBecause(state('too-small', 2), 300)).toBe('sections');
    expect(tooSmallBecause(state('too-small', 300), 300)).toBe('words');
  });
});
