import { describe, expect, it } from 'vitest';
import { compositeScore, recency } from '../../src/mcp/recency.js';
import { errorMessage, ToolError } from '../../src/mcp/errors.js';
import { FilterError } from '../../src/search/filters.js';
import { clampInt, preview } from '../../src/mcp/tool.js';
import { DEFAULT_LINK_READING } from '../../src/text/markdown-line.js';

const NOW = new Date(2026, 10, 21, 15, 30);

describe('recency and the composite score', () => {
  it('halves every 7 days and counts future dates as today', () => {
    expect(recency('2026-11-21', NOW)).toBe(1);
    expect(recency('2026-11-14', NOW)).toBeCloseTo(0.5, 10);
    expect(recency('2026-11-07', NOW)).toBeCloseTo(0.25, 10);
    expect(recency('2027-01-01', NOW)).toBe(1);
    expect(recency('', NOW)).toBe(0);
    expect(recency('not a date', NOW)).toBe(0);
  });

  it('weighs recency 0.6 and type 0.4', () => {
    expect(compositeScore('session', '2026-11-21', NOW)).toBeCloseTo(1.0, 10);
    expect(compositeScore('daily', '2026-11-14', NOW)).toBeCloseTo(0.3 + 0.268, 10);
    expect(compositeScore('knowledge', '2020-01-01', NOW)).toBeCloseTo(0.2, 3);
  });
});

describe('helpers', () => {
  it('clamps limits and falls back on non-numbers', () => {
    expect(clampInt(1e9, 1, 100, 10)).toBe(100);
    expect(clampInt(-3, 1, 100, 10)).toBe(1);
    expect(clampInt(2.9, 1, 100, 10)).toBe(2);
    expect(clampInt(undefined, 1, 100, 10)).toBe(10);
    expect(clampInt(Number.NaN, 1, 100, 10)).toBe(10);
    expect(clampInt(Number.POSITIVE_INFINITY, 1, 100, 10)).toBe(10);
  });

  it('makes previews of one line and at most 120 characters', () => {
    const p = preview(`# Title\n\n**bold** [[link|alias]] ${'word '.repeat(100)}`, DEFAULT_LINK_READING);
    expect(p.startsWith('Title bold alias word')).toBe(true);
    expect(Array.from(p).length).toBeLessThanOrEqual(120);
    expect(p.endsWith('…')).toBe(true);
    expect(preview('日本語'.repeat(100), DEFAULT_LINK_READING).length).toBeLessThanOrEqual(120);
  });

  it('keeps explained messages, drops CLI dashes from filter errors, and marks bugs as internal', () => {
    expect(errorMessage(new ToolError('session not found: x'))).toEqual({ message: 'session not found: x', explained: true });
    expect(errorMessage(new FilterError('--after takes YYYY (got "x")')).message).toBe('after takes YYYY (got "x")');
    expect(errorMessage(new TypeError('boom'))).toEqual({ message: 'internal error: boom', explained: false });
    expect(errorMessage('weird')).toEqual({ message: 'internal error: weird', explained: false });
  });
});
