// Obsidian's daily-note formats (moment.js tokens) read back into the day a note's path names.
import { describe, expect, it } from 'vitest';
import { dailyByFormat, dayFormatProblem, dayOf, formatDay, type DayFormat } from '../../src/parse/day-format.js';
import { noteDate, noteType } from '../../src/parse/metadata.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';

describe('dayOf: a name by a moment format', () => {
  it('reads the numeric tokens, in the order the format gives', () => {
    expect(dayOf('27-11-2026', 'DD-MM-YYYY')).toBe('2026-11-27');
    expect(dayOf('11-27-2026', 'MM-DD-YYYY')).toBe('2026-11-27');
    expect(dayOf('2026-11-27', 'YYYY-MM-DD')).toBe('2026-11-27');
    expect(dayOf('7.3.26', 'D.M.YY')).toBe('2026-03-07');
    expect(dayOf('07.03.99', 'DD.MM.YY')).toBe('1999-03-07');
    expect(dayOf('20261127', 'YYYYMMDD')).toBe('2026-11-27');
  });

  it('reads folders in the format, and a field written twice must agree', () => {
    expect(dayOf('2026/11/2026-11-27', 'YYYY/MM/YYYY-MM-DD')).toBe('2026-11-27');
    expect(dayOf('2026/10/2026-11-27', 'YYYY/MM/YYYY-MM-DD')).toBeNull();
    expect(dayOf('2026/11-November/27', 'YYYY/MM-MMMM/DD')).toBe('2026-11-27');
  });

  it('reads month and weekday names, English and as Obsidian writes them in Japanese', () => {
    expect(dayOf('Friday, November 27th, 2026', 'dddd, MMMM Do, YYYY')).toBe('2026-11-27');
    expect(dayOf('Fri 27 Nov 2026', 'ddd D MMM YYYY')).toBe('2026-11-27');
    expect(dayOf('2026年11月27日(金)', 'YYYY年MMMMDo(ddd)')).toBe('2026-11-27');
    expect(dayOf('2026-11-27 金曜日', 'YYYY-MM-DD dddd')).toBe('2026-11-27');
  });

  it('takes [bracketed] text and letters that are no token as written', () => {
    expect(dayOf('Daily 2026-11-27', '[Daily] YYYY-MM-DD')).toBe('2026-11-27');
    expect(dayOf('Diary 2026-11-27', '[Daily] YYYY-MM-DD')).toBeNull();
    expect(dayOf('2026-11-27T', 'YYYY-MM-DDT')).toBe('2026-11-27');
  });

  it('names no day where the name does not fit the format, or the day does not exist', () => {
    expect(dayOf('2026-11-27', 'DD-MM-YYYY')).toBeNull();
    expect(dayOf('31-02-2026', 'DD-MM-YYYY')).toBeNull();
    expect(dayOf('27-11-2026 meeting', 'DD-MM-YYYY')).toBeNull();
    expect(dayOf('x27-11-2026', 'DD-MM-YYYY')).toBeNull();
  });

  it('says why it cannot read a format: a token it does not read, or no whole day', () => {
    expect(dayFormatProblem('YYYY-MM-DD')).toBeNull();
    expect(dayFormatProblem('YYYY-MM-DD HHmm')).toContain('token HH');
    expect(dayFormatProblem('gggg-[W]ww')).toBe('it does not name a year, a month and a day');
    expect(dayFormatProblem('YYYY-DDDD')).toContain('token DDDD');
    expect(dayFormatProblem('YYYY-MM')).toBe('it does not name a year, a month and a day');
    expect(dayOf('2026-11-27 0930', 'YYYY-MM-DD HHmm')).toBeNull();
  });
});

describe('formatDay: a path by the vault\'s settings', () => {
  const rules = [{ folder: 'Journal/Daily', format: 'DD-MM-YYYY' }];

  it('reads notes below the folder, at any depth, in any case, without their extension', () => {
    expect(formatDay('Journal/Daily/27-11-2026.md', rules)).toBe('2026-11-27');
    expect(formatDay('journal/daily/2026/27-11-2026.md', rules)).toBe('2026-11-27');
    expect(formatDay('Journal/Daily/27-11-2026.markdown', rules)).toBe('2026-11-27');
  });

  it('reads no note outside the folder, nor one of a folder that only starts like it', () => {
    expect(formatDay('27-11-2026.md', rules)).toBeNull();
    expect(formatDay('Journal/Daily2/27-11-2026.md', rules)).toBeNull();
    expect(formatDay('Other/Journal/Daily/27-11-2026.md', rules)).toBeNull();
  });

  it('the vault root is every folder', () => {
    expect(formatDay('a/b/11-27-2026.md', [{ folder: '', format: 'MM-DD-YYYY' }])).toBe('2026-11-27');
  });
});

describe('typed and dated by the settings', () => {
  const opts = { ...DEFAULT_PARSE_OPTIONS, dailyFolders: [], dayFormats: [{ folder: 'Notes/Days', format: 'MM.DD.YYYY' }] };

  it('a note the settings name is daily, of their day: before the name guesses, which read dots day first', () => {
    expect(noteType({}, 'Notes/Days/11.12.2026.md', opts)).toBe('daily');
    expect(noteDate({}, 'Notes/Days/11.12.2026.md', 0, opts.dayFormats)).toEqual({ date: '2026-11-12', dateSource: 'filename' });
    expect(noteDate({}, 'Elsewhere/11.12.2026.md', 0, opts.dayFormats)).toEqual({ date: '2026-12-11', dateSource: 'filename' });
  });

  it('frontmatter still wins, and other notes of the folder stay knowledge', () => {
    expect(noteDate({ date: '2026-01-02' }, 'Notes/Days/11.12.2026.md', 0, opts.dayFormats)).toEqual({ date: '2026-01-02', dateSource: 'frontmatter' });
    expect(noteType({}, 'Notes/Days/template.md', opts)).toBe('knowledge');
    expect(noteType({ type: 'knowledge' }, 'Notes/Days/11.12.2026.md', opts)).toBe('knowledge');
  });
});

describe("dayOf: Periodic Notes' weekly, monthly, quarterly and yearly names, their period's first day", () => {
  it('an ISO week (GGGG, W, WW) is its Monday; a locale week (gggg, w, ww) the Monday of its Sunday-to-Saturday week', () => {
    expect(dayOf('2026-W47', 'GGGG-[W]WW')).toBe('2026-11-16');
    expect(dayOf('2026-W47', 'gggg-[W]ww')).toBe('2026-11-16');
    // Years that start on a Friday (2027) or a Saturday (2028): moment's English week 1 holds January 1st, ISO's January 4th.
    expect(dayOf('2027-W01', 'GGGG-[W]WW')).toBe('2027-01-04');
    expect(dayOf('2027-W01', 'gggg-[W]ww')).toBe('2026-12-28');
    expect(dayOf('2027-W02', 'gggg-[W]ww')).toBe('2027-01-04');
    expect(dayOf('2028-W01', 'GGGG-[W]WW')).toBe('2028-01-03');
    expect(dayOf('2028-W01', 'gggg-[W]ww')).toBe('2027-12-27');
    // A year that starts on a Sunday: both weeks 1 have one Monday.
    expect(dayOf('2023-W01', 'gggg-[W]ww')).toBe('2023-01-02');
    expect(dayOf('2023-W01', 'GGGG-[W]WW')).toBe('2023-01-02');
  });

  it('reads the fixed forms name-date.ts knows, and any other the vault sets', () => {
    expect(dayOf('2026-W47 Review', 'YYYY-[W]ww [Review]')).toBe('2026-11-16');
    expect(dayOf('Week 7 - 2026', '[Week] w - YYYY')).toBe('2026-02-09');
    expect(dayOf('2026/W47', 'gggg/[W]ww')).toBe('2026-11-16');
    expect(dayOf('Week 47, 2026', '[Week] ww[, ]gggg')).toBe('2026-11-16');
    expect(dayOf('KW47-2026', '[KW]WW-GGGG')).toBe('2026-11-16');
  });

  it('a week the year does not have is none', () => {
    expect(dayOf('2026-W53', 'GGGG-[W]WW')).toBe('2026-12-28');
    expect(dayOf('2026-W53', 'gggg-[W]ww')).toBeNull();
    expect(dayOf('2026-W00', 'gggg-[W]ww')).toBeNull();
    expect(dayOf('2025-W53', 'GGGG-[W]WW')).toBeNull();
  });

  it('a month is its 1st, a quarter its first day, a year January 1st', () => {
    expect(dayOf('2026-11', 'YYYY-MM')).toBe('2026-11-01');
    expect(dayOf('November 2026', 'MMMM YYYY')).toBe('2026-11-01');
    expect(dayOf('2026-13', 'YYYY-MM')).toBeNull();
    expect(dayOf('2026-Q4', 'YYYY-[Q]Q')).toBe('2026-10-01');
    expect(dayOf('2026 Q2', 'YYYY [Q]Q')).toBe('2026-04-01');
    expect(dayOf('2026-Q5', 'YYYY-[Q]Q')).toBeNull();
    expect(dayOf('2026', 'YYYY')).toBe('2026-01-01');
    expect(dayOf('2026 plan', 'YYYY')).toBeNull();
  });

  it('reads a daily format that names its week or quarter too (a folder each), not checked against the day', () => {
    expect(dayFormatProblem('YYYY/[W]ww/YYYY-MM-DD')).toBeNull();
    expect(dayOf('2026/W47/11-20-2026', 'YYYY/[W]ww/MM-DD-YYYY')).toBe('2026-11-20');
    expect(dayOf('2026-W47/2026-11-20', 'GGGG-[W]ww/YYYY-MM-DD')).toBe('2026-11-20');
    expect(dayOf('2026/Q4/2026-11-20', 'YYYY/[Q]Q/YYYY-MM-DD')).toBe('2026-11-20');
    // A week's year is no calendar year: around January 1st the two differ.
    expect(dayFormatProblem('gggg/[W]ww/MM-DD')).toBe('it does not name a year, a month and a day');
  });

  it("says why it cannot read a period's format; a daily note's must still name a day", () => {
    expect(dayFormatProblem('gggg-[W]ww', false)).toBeNull();
    expect(dayFormatProblem('YYYY', false)).toBeNull();
    expect(dayFormatProblem('YYYY-MM-DD', false)).toBeNull();
    expect(dayFormatProblem('YYYY', true)).toBe('it does not name a year, a month and a day');
    expect(dayFormatProblem('GGGG-[W]ww', false)).toBe('it mixes ISO week tokens (GGGG, W, WW) with locale ones (gggg, w, ww)');
    expect(dayFormatProblem('gggg', false)).toBe('it does not name a week and its year alone');
    expect(dayFormatProblem('YYYY-MM-[W]ww', false)).toBe('it does not name a week and its year alone');
    expect(dayFormatProblem('gggg-[W]ww dddd', false)).toBe('it names a weekday but no day of the month');
    expect(dayFormatProblem('MMMM', false)).toBe('it does not name a year');
    expect(dayFormatProblem('YYYY-MM [Q]Q', false)).toBe('it names a month and a quarter');
    expect(dayFormatProblem('gggg-[W]wo', false)).toContain('token wo');
    expect(dayFormatProblem('GG-[W]WW', false)).toContain('token GG');
  });
});

describe("formatDay and dailyByFormat: Periodic Notes' entries date their notes, but type none daily", () => {
  const rules: DayFormat[] = [
    { folder: 'Journal', format: 'YYYY-MM-DD' },
    { folder: 'Weekly', format: 'gggg-[W]ww', period: 'weekly' },
    { folder: 'Years', format: 'YYYY', period: 'yearly' },
  ];
  const opts = { ...DEFAULT_PARSE_OPTIONS, dailyFolders: [], dayFormats: rules };

  it("dates a note in the entry's folder by its format, and only there", () => {
    expect(formatDay('Weekly/2027-W01.md', rules)).toBe('2026-12-28');
    expect(formatDay('Years/2026.md', rules)).toBe('2026-01-01');
    expect(formatDay('events/2026.md', rules)).toBeNull();
    expect(noteDate({}, 'Weekly/2027-W01.md', 0, rules)).toEqual({ date: '2026-12-28', dateSource: 'filename' });
    // Elsewhere the name's own reading: an ISO week.
    expect(noteDate({}, 'Other/2027-W01.md', 0, rules)).toEqual({ date: '2027-01-04', dateSource: 'filename' });
  });

  it('a weekly or yearly note stays of its type; a daily rule still types its notes daily', () => {
    expect(dailyByFormat('Weekly/2027-W01.md', rules)).toBe(false);
    expect(dailyByFormat('Journal/2026-11-27.md', rules)).toBe(true);
    expect(noteType({}, 'Weekly/2027-W01.md', opts)).toBe('knowledge');
    expect(noteType({}, 'Years/2026.md', opts)).toBe('knowledge');
    expect(noteType({}, 'Journal/2026-11-27.md', opts)).toBe('daily');
  });
});
