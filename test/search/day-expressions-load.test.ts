import { afterEach, describe, expect, it, vi } from 'vitest';

// Loading the day expressions is part of every search and prompt hook: counting their capture groups
// compiled and ran four regular expressions at load (0.6 ms a hook). It waits for a query that names a day.
describe('day-expressions at load', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs no regular expression until a day is read', async () => {
    vi.resetModules();
    // The modules it imports are loaded first, so that only day-expressions.ts's own load is watched.
    await import('../../src/text/calendar-names.js');
    await import('../../src/search/dates.js');
    await import('../../src/search/numbers-ja.js');
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    const mod = await import('../../src/search/day-expressions.js');
    // (The test runner's loader runs expressions of its own meanwhile: only the day expressions count.)
    const dayExpressions = exec.mock.contexts.filter((re) => re instanceof RegExp && re.source.includes('\\d{1,2}'));
    expect(dayExpressions).toEqual([]);
    exec.mockRestore();
    // …and the groups are still counted right once a day is read.
    const now = new Date(2026, 6, 20, 12);
    const span = [...'from July 3 to July 10'.matchAll(mod.DAY_SPAN_RE)][0];
    expect(mod.daySpanOf(span, now)).toEqual({ after: '2026-07-03', before: '2026-07-11' });
    const short = [...'7月1日〜18日'.matchAll(mod.DAY_SHORT_SPAN_RE)][0];
    expect(mod.dayShortSpanOf(short, now)).toEqual({ after: '2026-07-01', before: '2026-07-19' });
  });
});
