import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../src/format/relative-time.js';

// Local noon on 2026-03-15, so the table holds in every time zone.
const NOW = new Date(2026, 2, 15, 12, 0, 0);

describe('relativeTime', () => {
  it.each([
    ['2026-03-15', 'today'],
    ['2026-03-14', 'yesterday'],
    ['2026-03-13', '2 days ago'],
    ['2026-03-12', '3 days ago'],
    ['2026-03-09', '6 days ago'],
    ['2026-03-08', 'last week'],
    ['2026-03-02', 'last week'],
    ['2026-03-01', '2 weeks ago'],
    ['2026-02-22', '3 weeks ago'],
    ['2026-02-16', '3 weeks ago'],
    ['2026-02-15', 'last month'],
    ['2026-01-16', 'last month'],
    ['2026-01-15', '2 months ago'],
    ['2025-10-01', '5 months ago'],
    ['2025-03-16', '11 months ago'],
    ['2025-03-15', 'last year'],
    ['2024-03-16', 'last year'],
    ['2024-03-15', '2 years ago'],
    ['2016-01-01', '10 years ago'],
    ['2026-03-16', 'tomorrow'],
    ['2026-03-18', 'in 3 days'],
    ['2026-03-25', 'next week'],
    ['2026-04-05', 'in 3 weeks'],
    ['2026-04-20', 'next month'],
    ['2026-09-15', 'in 6 months'],
    ['2027-04-01', 'next year'],
    ['2030-03-15', 'in 4 years'],
  ])('%s → %s', (date, expected) => {
    expect(relativeTime(date, NOW)).toBe(expected);
  });

  it('takes ISO date-times (read in local time)', () => {
    expect(relativeTime('2026-03-15T08:30:00', NOW)).toBe('today');
    expect(relativeTime('2026-03-13T23:59', NOW)).toBe('2 days ago');
    expect(relativeTime(new Date(2026, 2, 14, 1).toISOString(), NOW)).toBe('yesterday');
  });

  it('counts calendar days, not 24-hour periods', () => {
    expect(relativeTime('2026-03-14', new Date(2026, 2, 15, 0, 1))).toBe('yesterday');
    expect(relativeTime('2026-03-15', new Date(2026, 2, 15, 23, 59))).toBe('today');
  });

  it('handles month ends and leap days', () => {
    expect(relativeTime('2024-02-29', new Date(2024, 2, 29, 12))).toBe('last month');
    expect(relativeTime('2026-01-31', new Date(2026, 1, 28, 12))).toBe('4 weeks ago');
    expect(relativeTime('2026-01-31', new Date(2026, 2, 1, 12))).toBe('last month');
  });

  it('returns anything that is not a valid date unchanged', () => {
    for (const bad of ['', 'soon', '2026-13-01', '2026-02-30', '2026-3-5', '20260315', '2026-03-15Tgarbage']) {
      expect(relativeTime(bad, NOW)).toBe(bad);
    }
    expect(relativeTime('2026-03-01', new Date(Number.NaN))).toBe('2026-03-01');
  });

  it('ignores surrounding whitespace', () => {
    expect(relativeTime(' 2026-03-14 ', NOW)).toBe('yesterday');
  });
});
