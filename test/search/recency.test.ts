import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HALF_LIFE_DAYS,
  isStale,
  MCP_RECENT_PRESET,
  recencyFactor,
  recentScore,
  SESSION_START_PRESET,
} from '../../src/search/recency.js';

describe('search/recency: one home for "recent"', () => {
  it('tells stale statuses in any case, and nothing else', () => {
    for (const s of ['archived', 'Outdated', 'SUPERSEDED', ' deprecated ']) expect(isStale(s)).toBe(true);
    for (const s of [null, undefined, '', 'active', 'draft', 'archive-me']) expect(isStale(s)).toBe(false);
  });

  it('halves every half-life toward the floor; the future counts as now; an unknown age gets the floor', () => {
    expect(DEFAULT_HALF_LIFE_DAYS).toBe(7);
    expect(recencyFactor(0)).toBe(1);
    expect(recencyFactor(7)).toBeCloseTo(0.5, 12);
    expect(recencyFactor(14, 7)).toBeCloseTo(0.25, 12);
    expect(recencyFactor(-3, 7)).toBe(1);
    expect(recencyFactor(Number.NaN, 7)).toBe(0);
    expect(recencyFactor(30, 30, 0.7)).toBeCloseTo(0.85, 12);
    expect(recencyFactor(1e6, 30, 0.7)).toBeCloseTo(0.7, 12);
    expect(recencyFactor(1e6, 0, 0.7)).toBe(1);
  });

  it('keeps the two surfaces apart on purpose: SessionStart puts knowledge first, MCP puts sessions first', () => {
    const order = (p: typeof SESSION_START_PRESET) =>
      (['knowledge', 'daily', 'session'] as const).slice().sort((a, b) => recentScore(p, b, 1) - recentScore(p, a, 1));
    expect(order(SESSION_START_PRESET)).toEqual(['knowledge', 'daily', 'session']);
    expect(order(MCP_RECENT_PRESET)).toEqual(['session', 'daily', 'knowledge']);
  });

  it('scores 0.6 × recency + 0.4 × type, and applies the stale factor where the preset has one', () => {
    expect(recentScore(MCP_RECENT_PRESET, 'session', 0)).toBeCloseTo(1, 12);
    expect(recentScore(SESSION_START_PRESET, 'knowledge', 7)).toBeCloseTo(0.3 + 0.4, 12);
    expect(recentScore(SESSION_START_PRESET, 'knowledge', 7, 'archived')).toBeCloseTo(0.7 * 0.25, 12);
    expect(recentScore(MCP_RECENT_PRESET, 'knowledge', 7, 'archived')).toBeCloseTo(0.3 + 0.2, 12);
  });
});
