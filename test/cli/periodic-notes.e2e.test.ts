// Weekly, monthly and quarterly notes as the Periodic Notes plugin names them (2026-W47.md, 2026-11.md,
// 2026-Q4.md) are dated their period's first day by the built CLI, so a date range finds the period asked
// about, whenever the file was last edited (name-date.ts periodStart).
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

beforeAll(() => assertBuilt());
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
afterEach(() => vault.cleanup());

describe('Periodic Notes names', () => {
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
