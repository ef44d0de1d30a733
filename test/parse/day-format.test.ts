// Obsidian's daily-note formats (moment.js tokens) read back into the day a note's path names.
import { describe, expect, it } from 'vitest';
import { dayFormatProblem, dayOf, formatDay } from '../../src/parse/day-format.js';
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
    expect(dayFormatProblem('gggg-[W]ww')).toContain('token gggg');
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
