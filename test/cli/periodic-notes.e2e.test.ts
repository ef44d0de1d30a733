// Weekly, monthly, quarterly and yearly notes, by the built CLI. Named as the Periodic Notes plugin names them
// by default (2026-W47.md, 2026-11.md, 2026-Q4.md), they are dated their period's first day, so a date range
// finds the period asked about whenever the file was last edited (name-date.ts periodStart). Named as the
// vault's Periodic Notes settings say (.obsidian/plugins/periodic-notes/data.json), they are dated whatever the
// format, in the entry's folder only, of their own type, read again when the settings change, and a wrong entry
// is a warning naming the file (day-format.ts, vault/obsidian-daily.ts).
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

// Saturday 2026-11-28, 09:00 UTC: last week is Monday 2026-11-16 to Sunday 2026-11-22 (ISO week 47).
const ENV = { TSM_NOW: '2026-11-28T09:00:00Z', TZ: 'UTC' };

let vault: { dir: string; cleanup: () => void };
const run = (...args: string[]) => tsm([...args, '--vault', vault.dir], { env: ENV });
// Every file edited today, as a weekly note of September reread in November is: the name must date it.
const write = (rel: string, text: string) => {
  mkdirSync(join(vault.dir, rel, '..'), { recursive: true });
  writeFileSync(join(vault.dir, rel), text);
  const today = new Date(ENV.TSM_NOW);
  utimesSync(join(vault.dir, rel), today, today);
};
const found = (query: string, ...flags: string[]) => {
  const r = run('search', query, '-f', 'json', ...flags);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string; date: string; type: string }[]).map((x) => `${x.path} ${x.date} ${x.type}`);
};

const PERIODIC = '.obsidian/plugins/periodic-notes/data.json';
const SETTINGS = {
  daily: { enabled: true, folder: 'Daily', format: 'YYYY-MM-DD' },
  weekly: { enabled: true, folder: 'Reviews/Weekly', format: '[Week] ww[, ]gggg', template: '' },
  monthly: { enabled: true, folder: 'Reviews', format: 'MMMM YYYY' },
  quarterly: { enabled: true, folder: 'Reviews', format: 'YYYY [Q]Q' },
  yearly: { enabled: true, folder: 'Years', format: 'YYYY' },
};
const sorted = (query: string, ...flags: string[]) => found(query, ...flags).sort();
const warnings = () => (JSON.parse(run('status', '--json').stdout) as { warningList: { path: string; message: string }[] }).warningList;

beforeAll(() => assertBuilt());
afterEach(() => vault.cleanup());

describe('Periodic Notes names', () => {
  beforeEach(() => {
    vault = makeVault();
    write('Weekly/2026-W47.md', '# Week 47\n\nsoldered the antenna connector\n');
    write('Weekly/2026-W38.md', '# Week 38\n\nordered the antenna mast\n');
    write('Monthly/2026-11.md', '# November\n\nantenna budget\n');
    write('Monthly/2026-09.md', '# September\n\nantenna plans\n');
    write('Quarterly/2026-Q3.md', '# Q3\n\nantenna goals\n');
    write('notes/2026-11 plan.md', '# Plan\n\nantenna plan\n');
    expect(run('index').code).toBe(0);
  });

  it("date ranges find the week's and the month's notes, not the ones edited today", () => {
    expect(found('last week')).toEqual(['Weekly/2026-W47.md 2026-11-16 knowledge']);
    expect(found('先週')).toEqual(['Weekly/2026-W47.md 2026-11-16 knowledge']);
    // This month: its monthly note and its weeks' notes, and the note merely edited today (dated by its mtime).
    expect(found('this month').sort()).toEqual(['Monthly/2026-11.md 2026-11-01 knowledge', 'Weekly/2026-W47.md 2026-11-16 knowledge', 'notes/2026-11 plan.md 2026-11-28 knowledge']);
    expect(found('antenna', '--before', '2026-10').sort()).toEqual([
      'Monthly/2026-09.md 2026-09-01 knowledge',
      'Quarterly/2026-Q3.md 2026-07-01 knowledge',
      'Weekly/2026-W38.md 2026-09-14 knowledge',
    ]);
  });
});

describe("Periodic Notes' settings", () => {
  beforeEach(() => {
    vault = makeVault();
    write(PERIODIC, JSON.stringify(SETTINGS));
    write('Reviews/Weekly/Week 47, 2026.md', '# Week 47\n\nsoldered the antenna connector\n');
    write('Reviews/Weekly/Week 45, 2026.md', '# Week 45\n\nordered the antenna mast\n');
    write('Reviews/Weekly/Template.md', '# Template\n\nantenna checklist\n');
    write('Reviews/November 2026.md', '# November\n\nantenna budget\n');
    write('Reviews/2026 Q3.md', '# Q3\n\nantenna goals\n');
    write('Years/2025.md', '# 2025\n\nantenna year\n');
    // A page about an event of that year, outside the yearly folder: no yearly note.
    write('events/2021.md', '# Field day 2021\n\nantenna contest\n');
    expect(run('index').code).toBe(0);
  });

  it("date ranges find last week's note named by the vault's weekly format, and the month's, quarter's and year's", () => {
    expect(sorted('last week')).toEqual(['Reviews/Weekly/Week 47, 2026.md 2026-11-16 knowledge']);
    expect(sorted('antenna')).toEqual([
      'Reviews/2026 Q3.md 2026-07-01 knowledge',
      'Reviews/November 2026.md 2026-11-01 knowledge',
      'Reviews/Weekly/Template.md 2026-11-28 knowledge',
      'Reviews/Weekly/Week 45, 2026.md 2026-11-02 knowledge',
      'Reviews/Weekly/Week 47, 2026.md 2026-11-16 knowledge',
      'Years/2025.md 2025-01-01 knowledge',
      'events/2021.md 2026-11-28 knowledge',
    ]);
    expect(sorted('antenna', '--before', '2026-01-02')).toEqual(['Years/2025.md 2025-01-01 knowledge']);
  });

  it("numbers weeks as the format says: gggg's 2027-W01 is a week before ISO's", () => {
    write(PERIODIC, JSON.stringify({ ...SETTINGS, weekly: { enabled: true, folder: 'Weekly', format: '' } }));
    write('Weekly/2027-W01.md', '# Week 1\n\nnew year antenna\n');
    write('ISO/2027-W01.md', '# Week 1\n\nnew year antenna\n');
    const r = run('index');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Periodic Notes' weekly, monthly, quarterly or yearly settings (.obsidian/) changed since the notes were read");
    // The plugin's default gggg-[W]ww in moment's English locale: the week of Sunday 2026-12-27, January 1st in it.
    expect(sorted('new year')).toEqual(['ISO/2027-W01.md 2027-01-04 knowledge', 'Weekly/2027-W01.md 2026-12-28 knowledge']);
    // The old folder is no weekly folder any more: its notes are read again, by their mtime.
    expect(sorted('soldered')).toEqual(['Reviews/Weekly/Week 47, 2026.md 2026-11-28 knowledge']);
  });

  it('an entry turned off dates nothing; each wrong one is a warning naming the file, never an error', () => {
    const wrong = { ...SETTINGS, weekly: { ...SETTINGS.weekly, format: '[Week] ww HH' }, quarterly: { enabled: true, folder: 3 }, yearly: { ...SETTINGS.yearly, enabled: false } };
    write(PERIODIC, JSON.stringify(wrong));
    expect(run('index').code).toBe(0);
    expect(sorted('antenna', '--before', '2026-11-27')).toEqual(['Reviews/November 2026.md 2026-11-01 knowledge']);
    expect(warnings()).toEqual([
      { path: PERIODIC, message: 'quarterly\'s folder and format must be text (got {"folder":3,"format":""}): its quarterly-note settings are not read' },
      { path: PERIODIC, message: expect.stringMatching(/^weekly format "\[Week\] ww HH": its token HH is not one tsm reads .*: tsm takes no day from these weekly-note settings$/) },
    ]);
    // doctor gives each its own fix, not the generic one for a note.
    const doctor = JSON.parse(run('doctor', '--json').stdout) as { problems: { message: string; fix: string }[] };
    const fixes = doctor.problems.filter((p) => p.message.startsWith(PERIODIC)).map((p) => p.fix);
    expect(fixes).toEqual([expect.stringMatching(/^correct them in Obsidian/), expect.stringMatching(/^choose a format of the tokens tsm reads/)]);
    write(PERIODIC, '{"weekly": ');
    expect(run('index').code).toBe(0);
    expect(warnings()).toEqual([{ path: PERIODIC, message: expect.stringMatching(/^not valid JSON .*: its daily-note settings are not read, nor its weekly, monthly, quarterly and yearly ones$/) }]);
  });
});

// Periodic Notes 1.0 (beta) keeps its settings in calendar sets; the active one is read, not the 0.x keys.
// Day-first and month-first dashed days, and this weekly format, are read only where a setting says so.
describe("Periodic Notes 1.0's calendar sets", () => {
  const sets = (active: string) => ({
    daily: { enabled: true, folder: 'Old', format: 'DD-MM-YYYY' },
    activeCalendarSet: active,
    calendarSets: [
      { id: 'home', day: { enabled: true, folder: 'Home', format: 'DD-MM-YYYY' } },
      { id: 'work', day: { enabled: true, folder: 'Work/Log', format: 'MM-DD-YYYY' }, week: { enabled: true, folder: 'Work/Weekly', format: '[Week] WW[, ]GGGG' } },
    ],
  });
  beforeEach(() => {
    vault = makeVault();
    write(PERIODIC, JSON.stringify(sets('work')));
    write('Work/Log/11-20-2026.md', '# Friday\n\nantenna tuning\n');
    write('Work/Weekly/Week 46, 2026.md', '# Week 46\n\nantenna review\n');
    write('Old/02-11-2026.md', '# Old log\n\nantenna old log\n');
    write('Home/03-11-2026.md', '# Home\n\nantenna at home\n');
    expect(run('index').code).toBe(0);
  });

  it("dates the active set's daily and weekly notes, and no other set's", () => {
    expect(sorted('antenna')).toEqual([
      'Home/03-11-2026.md 2026-11-28 knowledge',
      'Old/02-11-2026.md 2026-11-28 knowledge',
      'Work/Log/11-20-2026.md 2026-11-20 daily',
      'Work/Weekly/Week 46, 2026.md 2026-11-09 knowledge',
    ]);
    write(PERIODIC, JSON.stringify(sets('home')));
    expect(run('index').code).toBe(0);
    expect(found('antenna', '--type', 'daily')).toEqual(['Home/03-11-2026.md 2026-11-03 daily']);
  });

  it('a calendarSets tsm cannot read is a warning with its own fix, and the top-level settings are read', () => {
    write(PERIODIC, JSON.stringify({ ...sets('work'), calendarSets: 'work' }));
    expect(run('index').code).toBe(0);
    expect(found('antenna', '--type', 'daily')).toEqual(['Old/02-11-2026.md 2026-11-02 daily']);
    expect(warnings()).toEqual([{ path: PERIODIC, message: expect.stringMatching(/^calendarSets must be a list of calendar sets/) }]);
    const doctor = JSON.parse(run('doctor', '--json').stdout) as { problems: { message: string; fix: string }[] };
    expect(doctor.problems.filter((p) => p.message.startsWith(PERIODIC)).map((p) => p.fix)).toEqual([expect.stringMatching(/^open Periodic Notes' settings in Obsidian/)]);
  });
});
