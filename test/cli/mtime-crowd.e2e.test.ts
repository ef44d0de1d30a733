// A modification time most of the vault shares dates none of its notes (src/search/mtime-crowd.ts), by the
// built CLI: a vault just cloned, copied or unpacked has every undated note "written today", and a text's
// date range ("today", "yesterday", "last week") then listed the whole vault. Such a range leaves those
// notes out and says so, as the SessionStart hook's recent notes do; a date flag still goes by the files' times; notes changed at their own times, and a
// few notes written in one sitting, keep their dates.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

// Saturday 2026-11-28, 09:00 UTC; the checkout happened on Friday at 16:00.
const ENV = { TSM_NOW: '2026-11-28T09:00:00Z', TZ: 'UTC' };
const CHECKOUT = new Date('2026-11-27T16:00:00Z');

let vault: { dir: string; cleanup: () => void };
const write = (rel: string, text: string, when: Date) => {
  mkdirSync(join(vault.dir, rel, '..'), { recursive: true });
  writeFileSync(join(vault.dir, rel), text);
  utimesSync(join(vault.dir, rel), when, when);
};
const search = (...args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'json', '-n', '50', '--vault', vault.dir], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path), stderr: r.stderr };
};
/** `n` knowledge notes about antennas, each changed `at(i)`. */
const notes = (n: number, at: (i: number) => Date) => {
  for (let i = 0; i < n; i++) write(`knowledge/note-${String(i).padStart(2, '0')}.md`, `# Note ${i}\n\nantenna gain, measurement ${i}\n`, at(i));
};
const index = () => expect(tsm(['index', '--vault', vault.dir], { env: ENV }).code).toBe(0);

beforeAll(() => assertBuilt());
afterEach(() => vault.cleanup());

describe('a vault whose notes were all written at once', () => {
  it("yesterday's range holds yesterday's daily note, not the 40 notes the checkout wrote", () => {
    vault = makeVault();
    // Within seconds of each other, as git writes them.
    notes(40, (i) => new Date(CHECKOUT.getTime() + i * 500));
    write('daily/2026-11-27.md', '# 2026-11-27\n\nantenna gain of the new collar\n', CHECKOUT);
    write('daily/2026-11-20.md', '# 2026-11-20\n\nantenna gain of the old collar\n', CHECKOUT);
    index();
    const crowd = /40 notes dated only by their files' time, 2026-11-27, were all changed at once .*: the query's dates leave them out \(a date filter still goes by that time\)$/m;
    // A word or two that no note of the day holds: the day's notes listed, then the rest.
    const day = search('what did I do yesterday');
    expect(day.paths[0]).toBe('daily/2026-11-27.md');
    expect(day.stderr).toMatch(crowd);
    // Words of the day's note: it first, before every note the checkout dated yesterday.
    const words = search('antenna gain yesterday');
    expect(words.paths[0]).toBe('daily/2026-11-27.md');
    expect(words.paths).toHaveLength(42);
    expect(words.stderr).toMatch(/1 match dated from 2026-11-27 to before 2026-11-28 \(read from the query\) first/);
    // A flag is the files' time, as find -mtime's: every note changed since Friday.
    const flag = search('antenna gain', '--after', '2026-11-27');
    expect(flag.paths).toHaveLength(41);
    expect(flag.stderr).not.toMatch(/changed at once/);
    // A range the crowd leaves empty: searched every date, and the notice says why.
    const empty = search('antenna gain yesterday', '--type', 'knowledge');
    expect(empty.paths).toHaveLength(40);
    expect(empty.stderr).toMatch(/no match dated from 2026-11-27 to before 2026-11-28 \(read from the query\); searched every date/);
    expect(empty.stderr).toMatch(/40 notes dated only by their files' time, 2026-11-27, were all changed at once/);
    // A query without dates says nothing about them.
    expect(search('antenna gain').stderr).not.toMatch(/changed at once/);
    // tsm status says so, and how to date them.
    const status = tsm(['status', '--vault', vault.dir], { env: ENV });
    expect(status.stdout).toMatch(/^dates {5}40 notes are dated only by their files' time, 2026-11-27, all changed at once .*give them `created:`/m);
    expect(JSON.parse(tsm(['status', '--json', '--vault', vault.dir], { env: ENV }).stdout).datesCrowded).toEqual({ day: '2026-11-27', notes: 40 });
    // The SessionStart hook's recent notes: the daily notes, not 40 pages "17 hours ago".
    const hook = tsm(['hook'], { env: ENV, input: JSON.stringify({ hook_event_name: 'SessionStart', source: 'startup', cwd: vault.dir, session_id: 's1' }) });
    expect(hook.code).toBe(0);
    const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toMatch(/daily\/2026-11-27\.md/);
    expect(context).not.toMatch(/knowledge\/note-/);
  });
});

describe('vaults whose times are their own', () => {
  it('notes changed at their own times keep their dates in a range', () => {
    vault = makeVault();
    // One note an hour, from Friday 00:00: 24 on Friday, 16 on Saturday.
    notes(40, (i) => new Date(Date.UTC(2026, 10, 27, i)));
    index();
    const r = search('antenna gain yesterday');
    expect(r.stderr).not.toMatch(/changed at once/);
    expect(tsm(['status', '--vault', vault.dir], { env: ENV }).stdout).not.toMatch(/^dates/m);
    expect(r.stderr).toMatch(/24 matches dated from 2026-11-27 to before 2026-11-28 \(read from the query\) first/);
  });

  it('a few notes written in one sitting are no checkout', () => {
    vault = makeVault();
    notes(12, (i) => new Date(CHECKOUT.getTime() + i * 60_000));
    write('knowledge/older.md', '---\ncreated: 2026-01-05\n---\n# Older\n\nantenna gain in January\n', CHECKOUT);
    index();
    const r = search('antenna gain yesterday');
    expect(r.stderr).not.toMatch(/changed at once/);
    expect(r.stderr).toMatch(/12 matches dated from 2026-11-27/);
  });
});
