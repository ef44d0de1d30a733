import { describe, expect, it } from 'vitest';
import { buildFilters, FilterError, parseDateFlag, parseRecent } from '../../src/search/filters.js';

const now = new Date(2026, 10, 22, 12);

describe('filters', () => {
  it('parses date flags at year, month and day precision', () => {
    expect(parseDateFlag('after', '2025')).toEqual({ start: '2025-01-01', end: '2026-01-01' });
    expect(parseDateFlag('after', '2025-02')).toEqual({ start: '2025-02-01', end: '2025-03-01' });
    expect(parseDateFlag('after', '2024-02-29')).toEqual({ start: '2024-02-29', end: '2024-03-01' });
  });

  it('rejects impossible dates with a clear message', () => {
    for (const bad of ['2025-13', '2025-02-30', 'yesterday', '25-01-01', '']) {
      expect(() => parseDateFlag('after', bad)).toThrow(FilterError);
    }
    expect(() => parseDateFlag('before', 'garbage')).toThrow(/--before takes YYYY, YYYY-MM or YYYY-MM-DD/);
  });

  it('parses --recent', () => {
    expect(parseRecent('30d', now)).toEqual({ after: '2026-10-23' });
    expect(parseRecent('2w', now)).toEqual({ after: '2026-11-08' });
    expect(parseRecent('3m', now)).toEqual({ after: '2026-08-22' });
    expect(parseRecent('1y', now)).toEqual({ after: '2025-11-22' });
    expect(() => parseRecent('garbage', now)).toThrow(/--recent takes/);
    expect(() => parseRecent('0d', now)).toThrow(FilterError);
  });

  // Open at its end, `--recent 1y` (and the query's `recently`) held every note dated ahead: next year's too.
  it('ends --recent and an open range of the text with tomorrow; a date flag keeps its own end', () => {
    expect(buildFilters({ recent: '1y' }, null, now)).toEqual({ after: '2025-11-22', before: '2026-11-24' });
    expect(buildFilters({}, { after: '2026-10-23' }, now)).toEqual({ after: '2026-10-23', before: '2026-11-24' });
    expect(buildFilters({}, { after: '2026-11-16', before: '2026-11-23' }, now)).toEqual({ after: '2026-11-16', before: '2026-11-23' });
    expect(buildFilters({ after: '2026-11' }, null, now)).toEqual({ after: '2026-11-01' });
    expect(buildFilters({ recent: '30d', before: '2026-11-10' }, null, now)).toEqual({ after: '2026-10-23', before: '2026-11-10' });
    expect(() => buildFilters({ recent: '30d', after: '2027-01' }, null, now)).toThrow(/^the date flags leave no day: from 2027-01-01 to before 2026-11-24 \(check --after and --recent\)$/);
  });

  it('builds every filter and ORs repeated values', () => {
    const f = buildFilters(
      { type: ['daily', 'knowledge'], status: ['Current'], tag: ['#LoRa', 'gps'], path: ['./knowledge/'], year: 2026 },
      null,
      now,
    );
    expect(f).toEqual({
      types: ['daily', 'knowledge'],
      statuses: ['current'],
      tags: ['lora', 'gps'],
      pathPrefixes: ['knowledge/'],
      after: '2026-01-01',
      before: '2027-01-01',
    });
  });

  // As an empty --path is: `--tag ''` was ignored, and the search ran over every note without a word.
  it('rejects a type, status or tag flag that names nothing; strips each tag\'s #', () => {
    expect(() => buildFilters({ tag: [''] }, null, now)).toThrow(/^--tag must not be empty$/);
    expect(() => buildFilters({ tag: ['#', ' , '] }, null, now)).toThrow(/^--tag must not be empty$/);
    expect(() => buildFilters({ status: [','] }, null, now)).toThrow(/^--status must not be empty$/);
    expect(() => buildFilters({ type: [''] }, null, now)).toThrow(FilterError);
    expect(buildFilters({ tag: ['#a,#b', ''] }, null, now).tags).toEqual(['a', 'b']);
    // A full-width ＃, as an IME in full-width mode types it, is a # too.
    expect(buildFilters({ tag: ['＃日本語', '＃ＬｏＲａ'] }, null, now).tags).toEqual(['日本語', 'lora']);
    expect(() => buildFilters({ tag: ['＃'] }, null, now)).toThrow(/^--tag must not be empty$/);
  });

  // `tsm search x --after "$SINCE"` with SINCE unset searched every date without a word.
  it('rejects a date flag that is empty', () => {
    expect(() => buildFilters({ after: '' }, null, now)).toThrow(/^--after takes YYYY, YYYY-MM or YYYY-MM-DD \(got ""\)$/);
    expect(() => buildFilters({ before: '' }, null, now)).toThrow(/^--before takes/);
    expect(() => buildFilters({ recent: '' }, null, now)).toThrow(/^--recent takes/);
    expect(() => buildFilters({ year: '' }, null, now)).toThrow(/^--year takes a four-digit year/);
  });

  it('rejects an unknown type and a bad year', () => {
    expect(() => buildFilters({ type: ['note'] }, null, now)).toThrow(/--type takes daily, knowledge, session/);
    expect(() => buildFilters({ year: 'abc' }, null, now)).toThrow(/--year/);
  });

  it('explicit date flags win over a temporal expression in the text', () => {
    const fromText = { after: '2026-10-01', before: '2026-11-01' };
    expect(buildFilters({}, fromText, now)).toEqual(fromText);
    expect(buildFilters({ after: '2025' }, fromText, now)).toEqual({ after: '2025-01-01' });
  });

  it('intersects --year with --after/--before', () => {
    expect(buildFilters({ year: 2026, after: '2026-06', before: '2026-09' }, null, now)).toEqual({
      after: '2026-06-01',
      before: '2026-09-01',
    });
  });

  it('date flags that leave no day are an error, not an empty result', () => {
    expect(() => buildFilters({ after: '2026-07', before: '2026-03' }, null, now)).toThrow(/the date flags leave no day: from 2026-07-01 to before 2026-03-01 \(check --after and --before\)$/);
    expect(() => buildFilters({ year: 2025, recent: '30d', after: '2026-01' }, null, now)).toThrow(/\(check --after, --year and --recent\)$/);
    expect(() => buildFilters({ year: 2025, after: '2026-01' }, null, now)).toThrow(FilterError);
    expect(() => buildFilters({ after: '2026-03-01', before: '2026-03-01' }, null, now)).toThrow(FilterError);
    // One day is a range: --after is its first day, --before the day after it.
    expect(buildFilters({ after: '2026-03-01', before: '2026-03-02' }, null, now)).toEqual({ after: '2026-03-01', before: '2026-03-02' });
  });
});
