// Daily notes as Obsidian's own settings name them (.obsidian/daily-notes.json, Periodic Notes' data.json):
// typed daily and dated by the vault's format, read again when the settings change, and a broken settings file
// is a warning naming it (the whole path: the files, the index, search, status, doctor).
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

// Saturday 2026-11-28, 09:00 UTC.
const ENV = { TSM_NOW: '2026-11-28T09:00:00Z', TZ: 'UTC' };
const CORE = '.obsidian/daily-notes.json';
const PERIODIC = '.obsidian/plugins/periodic-notes/data.json';

let vault: { dir: string; cleanup: () => void };
const run = (...args: string[]) => tsm([...args, '--vault', vault.dir], { env: ENV });
// Every file of January, whatever the clock says: a note not dated by its name is no note of the days asked about.
const JANUARY = new Date('2026-01-15T12:00:00Z');
const write = (rel: string, text: string) => {
  mkdirSync(join(vault.dir, rel, '..'), { recursive: true });
  writeFileSync(join(vault.dir, rel), text);
  utimesSync(join(vault.dir, rel), JANUARY, JANUARY);
};
const status = () => JSON.parse(run('status', '--json').stdout) as { byType: Record<string, number>; warningList: { path: string; message: string }[] };
const found = (query: string, ...flags: string[]) => {
  const r = run('search', query, '-f', 'json', ...flags);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string; date: string }[]).map((x) => `${x.path} ${x.date}`);
};

beforeAll(() => assertBuilt());
beforeEach(() => {
  vault = makeVault();
  write(CORE, JSON.stringify({ folder: 'Diary/Days', format: 'DD-MM-YYYY', template: 'Templates/Day' }));
  write('Diary/Days/27-11-2026.md', '# Friday\n\nsoldered the antenna connector\n');
  write('Diary/Days/11-12-2026.md', '# A day\n\nordered cable\n');
  // A frontmatter value that looks like a day and is none (src/index/note-writer.ts WRITTEN_DAY_SQL).
  write('Diary/Days/10-12-2026.md', '---\ncreated: 2026年度\n---\n# Another day\n\nfiled the report\n');
  write('Diary/Days/Ideas.md', '# Ideas\n\nantenna mast\n');
  write('daily/standup.md', '# Standup\n\nnotes\n');
  write('notes/antenna.md', '---\ndate: 2026-10-01\n---\n# Antenna\n\nmast and cable notes\n');
  expect(run('index').code).toBe(0);
});
afterEach(() => vault.cleanup());

describe("Obsidian's daily-note settings", () => {
  it('type and date the notes they name; config.json dailyFolders still type theirs', () => {
    expect(found('yesterday')).toEqual(['Diary/Days/27-11-2026.md 2026-11-27']);
    // Day first, as the vault's format says (name-date.ts alone reads no dashed day-month-year).
    expect(found('cable', '--type', 'daily')).toEqual(['Diary/Days/11-12-2026.md 2026-12-11']);
    expect(status().byType).toMatchObject({ daily: 4, knowledge: 2 });
    // A sync with nothing changed reads nothing again.
    expect(JSON.parse(run('index', '--json').stdout)).toMatchObject({ updated: 0, unchanged: 6 });
  });

  it("Periodic Notes' daily settings count too", () => {
    write(PERIODIC, JSON.stringify({ daily: { enabled: true, folder: 'Log', format: 'MM-DD-YYYY' } }));
    write('Log/11-26-2026.md', 'shipped the collar firmware\n');
    expect(run('index').code).toBe(0);
    expect(found('2 days ago')).toEqual(['Log/11-26-2026.md 2026-11-26']);
  });

  it('changed in Obsidian, they reach unchanged notes at the next `tsm index`, which says why; doctor says so first', () => {
    write(CORE, JSON.stringify({ folder: 'Diary/Days', format: 'MM-DD-YYYY' }));
    expect(run('doctor').stdout).toContain("Obsidian's daily-note settings (.obsidian/) changed since the notes were read");
    const r = run('index', '--json');
    expect(r.stderr).toContain("tsm: Obsidian's daily-note settings (.obsidian/) changed since the notes were read: reading them all again, once");
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 6 });
    expect(found('cable', '--type', 'daily')).toEqual(['Diary/Days/11-12-2026.md 2026-11-12']);
    expect(found('yesterday')).toEqual([]);
    // Once: the next sync reads nothing again.
    const again = run('index', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, unchanged: 6 });
    expect(again.stderr).toBe('');
  });

  it('an index of a tsm before them (38dd29c) is read again once, for its reading, in one line that names no change of settings', () => {
    // What 38dd29c left: a record of the settings without dayFormats (nor extensions), notes without a record of
    // their reading (src/index/note-reading.ts). Taken as read with no day formats, the settings were said to
    // have "changed" in Obsidian, on a second line beside the re-read every note of that tsm gets anyway.
    const conn = new Database(join(vault.dir, '.tsm', 'index.db'));
    const settings = JSON.parse(conn.prepare("SELECT value FROM meta WHERE key = 'reading_settings'").pluck().get() as string) as Record<string, unknown>;
    delete settings.dayFormats;
    delete settings.extensions;
    conn.prepare("UPDATE meta SET value = ? WHERE key = 'reading_settings'").run(JSON.stringify(settings));
    conn.exec('DROP TABLE note_reading');
    conn.close();
    expect(run('doctor').stdout).not.toContain('changed since the notes were read');
    const r = run('index', '--json');
    expect(r.stderr).toBe('tsm: the index holds 6 notes as an older tsm read them: reading them again, once\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 6 });
    expect(found('cable', '--type', 'daily')).toEqual(['Diary/Days/11-12-2026.md 2026-12-11']);
    const again = run('index', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, unchanged: 6 });
    expect(again.stderr).toBe('');
  });

  it('a settings file that is no JSON, or a format tsm cannot read, is a warning naming the file, never an error', () => {
    write(CORE, '{"folder": "Diary/Days", "format": ');
    const r = run('index');
    expect(r.code, r.stderr).toBe(0);
    expect(status().byType).toMatchObject({ daily: 1, knowledge: 5 });
    // With no settings read, 10-12-2026.md is dated by its file's time, and its `created: 2026年度` is said to be no date.
    const noDate = { path: 'Diary/Days/10-12-2026.md', message: expect.stringMatching(/^frontmatter: created "2026年度" is no date tsm reads/) };
    expect(status().warningList).toEqual([{ path: CORE, message: expect.stringMatching(/^not valid JSON .*: its daily-note settings are not read$/) }, noDate]);
    expect(run('doctor').stdout).toContain('correct them in Obsidian (Settings → Daily notes, or Periodic Notes), or delete the file, then run `tsm index');
    expect(found('antenna').length).toBe(3);

    write(CORE, JSON.stringify({ folder: 'Diary/Days', format: 'DD-MM-YYYY HHmm' }));
    expect(run('index').code).toBe(0);
    expect(status().warningList).toEqual([
      { path: CORE, message: expect.stringContaining('format "DD-MM-YYYY HHmm": its token HH is not one tsm reads') },
      noDate,
    ]);
    // Corrected: the settings' warning goes, and the file name dates the note, so its `created` is no news.
    write(CORE, JSON.stringify({ folder: 'Diary/Days', format: 'DD-MM-YYYY' }));
    expect(run('index').code).toBe(0);
    expect(status()).toMatchObject({ byType: { daily: 4 }, warningList: [] });
  });
});
