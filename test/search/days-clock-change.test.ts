// A note's age is counted in calendar days of the user's zone, also across a clock change (a day of 23 or
// 25 hours). Vitest runs each test file in its own child process (pool: forks): the zones set here are its own.
import { afterAll, describe, expect, it } from 'vitest';
import { daysAgo } from '../../src/core/days.js';
import { recency } from '../../src/mcp/recency.js';
import { ageInDays } from '../../src/search/dates.js';
import { DEFAULT_TUNING, noteRecency } from '../../src/search/rank.js';
import { MCP_RECENT_PRESET, recencyFactor } from '../../src/search/recency.js';

const zoneBefore = process.env.TZ;
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

describe('ages across a clock change', () => {
  it('are whole days in Berlin after the clocks went forward (2026-03-29)', () => {
    process.env.TZ = 'Europe/Berlin';
    const now = new Date(2026, 2, 30, 12); // Monday noon, summer time
    // Was 1.958: local midnights 47 hours apart.
    expect(ageInDays('2026-03-28', now)).toBe(2);
    expect(ageInDays('2026-03-29', now)).toBe(1);
    expect(ageInDays('2026-03-30', now)).toBe(0);
    expect(noteRecency('daily', '2026-03-28', 'filename', now, DEFAULT_TUNING)).toBe(
      recencyFactor(2, DEFAULT_TUNING.halfLifeDays.daily, DEFAULT_TUNING.recencyFloor),
    );
  });

  it('are whole days in Los Angeles after the clocks went back (2026-11-01), and just after midnight', () => {
    process.env.TZ = 'America/Los_Angeles';
    const now = new Date(2026, 10, 2, 0, 10); // Monday 00:10, standard time
    // Was 2.042: local midnights 49 hours apart.
    expect(ageInDays('2026-10-31', now)).toBe(2);
    expect(ageInDays('2026-11-01', now)).toBe(1);
    expect(daysAgo('2026-11-01', now)).toBe(1);
  });

  it('agree between search ranking and MCP recent_context', () => {
    process.env.TZ = 'America/New_York';
    const now = new Date(2026, 2, 9, 9); // the Monday after the clocks went forward (2026-03-08)
    for (const day of ['2026-03-01', '2026-03-07', '2026-03-08', '2026-03-09']) {
      expect(ageInDays(day, now)).toBe(daysAgo(day, now));
      expect(recency(day, now)).toBe(recencyFactor(ageInDays(day, now), MCP_RECENT_PRESET.halfLifeDays));
    }
    // A date that names no day is infinitely old on both surfaces (it was 0, today, in search).
    expect(ageInDays('someday', now)).toBeNaN();
  });
});
