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

/** The index now: `sections`, of which `unembedded` have no vector row. */
const at = (sections: number, unembedded = 0) => ({ sections, unembedded });

describe('retrainDue', () => {
  it('trains a vault without a model once it has enough sections', () => {
    expect(retrainDue(null, at(299), 300)).toBe(false);
    expect(retrainDue(null, at(300), 300)).toBe(true);
  });

  it('trains a vault that was too small once it has enough sections', () => {
    expect(retrainDue(state('too-small', 120), at(299), 300)).toBe(false);
    expect(retrainDue(state('too-small', 120), at(300), 300)).toBe(true);
  });

  it('does not retry a vault of enough sections but too few words at every sync, only after as much change as a model waits for', () => {
    const s = state('too-small', 27_000);
    expect(tooSmallBecause(s, 300)).toBe('words');
    expect(retrainDue(s, at(27_000), 300)).toBe(false);
    expect(retrainDue(s, at(27_001), 300)).toBe(false);
    expect(retrainDue(s, at(27_000 + RETRAIN_SHARE * 27_000), 300)).toBe(true);
    expect(retrainDue(s, at(27_000 - RETRAIN_SHARE * 27_000), 300)).toBe(true);
  });

  it('retrains a model when the sections changed since reach the share', () => {
    expect(retrainDue(state('trained', 1000, 199), at(1000), 300)).toBe(false);
    expect(retrainDue(state('trained', 1000, 200), at(1000), 300)).toBe(true);
  });

  it('counts a new section once: 150 added to 1000 is 15 %, not due; 200 added is', () => {
    // Each added section is embedded (embeddedSince) and raises the count: both were summed, 150 read as 300.
    expect(retrainDue(state('trained', 1000, 150), at(1150), 300)).toBe(false);
    expect(retrainDue(state('trained', 1000, 200), at(1200), 300)).toBe(true);
  });

  it('counts a deleted section once, and sections added while the model was off (no vector yet) once', () => {
    expect(retrainDue(state('trained', 1000, 0), at(801), 300)).toBe(false);
    expect(retrainDue(state('trained', 1000, 0), at(800), 300)).toBe(true);
    expect(retrainDue(state('trained', 1000, 0), at(1199, 199), 300)).toBe(false);
    expect(retrainDue(state('trained', 1000, 0), at(1200, 200), 300)).toBe(true);
  });

  it('tells too few sections from too few words', () => {
    expect(tooSmallBecause(state('too-small', 2), 300)).toBe('sections');
    expect(tooSmallBecause(state('too-small', 300), 300)).toBe('words');
  });
});
