// An index keeps what an older tsm read from each note until the file changes; each note records the version
// of the reading that wrote it (src/index/note-reading.ts), and a sync that lists the whole vault reads again,
// once, the notes an older reading wrote: an older tsm's whole index, or the notes an older tsm running beside
// this one (a `tsm watch`, a `--full`) wrote since. Notes a newer reading wrote are left as they are.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PARSE_VERSION } from '../../src/parse/version.js';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
const db = () => join(vault.dir, '.tsm', 'index.db');
const index = (args: string[] = [], input?: string) => tsm(['index', '--json', '--vault', vault.dir, ...args], input === undefined ? {} : { input });

/**
 * Rows as an older tsm read them. They stand in as a hash no reading of these files gives (a column no
 * full-text row holds: rewriting a title under the contentless FTS tables would damage them), so a note read
 * again is seen by its hash. `how`: an index of a tsm before the record (no table), records of an older
 * reading, or notes an older tsm rewrote after this one wrote them (it writes indexed_at, not the record).
 */
function asOlderTsmLeftIt(how: 'no record' | 'older record' | 'rewritten', paths = ['a.md', 'b/c.md']): void {
  const conn = new Database(db());
  const where = `path IN (SELECT value FROM json_each('${JSON.stringify(paths)}'))`;
  conn.prepare(`UPDATE notes SET hash = 'as an older tsm read it' WHERE ${where}`).run();
  if (how === 'no record') conn.prepare('DROP TABLE note_reading').run();
  if (how === 'older record') conn.prepare(`UPDATE note_reading SET version = 0 WHERE note_id IN (SELECT id FROM notes WHERE ${where})`).run();
  if (how === 'rewritten') conn.prepare(`UPDATE notes SET indexed_at = '2026-11-27T16:00:00.000Z' WHERE ${where}`).run();
  conn.close();
}
function readAgain(): boolean[] {
  const conn = new Database(db(), { readonly: true });
  const out = (conn.prepare('SELECT hash FROM notes ORDER BY path').pluck().all() as string[]).map((h) => h !== 'as an older tsm read it');
  conn.close();
  return out;
}
function versions(): number[] {
  const conn = new Database(db(), { readonly: true });
  const out = conn.prepare('SELECT r.version FROM notes n JOIN note_reading r ON r.note_id = n.id ORDER BY n.path').pluck().all() as number[];
  conn.close();
  return out;
}

beforeAll(() => assertBuilt());
beforeEach(() => {
  vault = makeVault({ 'a.md': '# Alpha\n\nThe walrus.\n', 'b/c.md': '# Gamma\n\nThe seal.\n', 'bin.md': Buffer.from([0, 1, 2, 0, 0]) });
  expect(index().code).toBe(0);
});
afterEach(() => vault.cleanup());

describe('notes an older tsm read', () => {
  it('a build records the version of the reading of every note; a sync then reads nothing again', () => {
    expect(versions()).toEqual([PARSE_VERSION, PARSE_VERSION]);
    const r = index();
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, unchanged: 2, skipped: 1 });
    expect(r.stderr).not.toMatch(/read them/);
  });

  for (const how of ['no record', 'older record'] as const) {
    it(`are read again, once, by a sync of the whole vault (${how})`, () => {
      asOlderTsmLeftIt(how);
      const r = index();
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('tsm: the index holds 2 notes as an older tsm read them: reading them again, once');
      expect(JSON.parse(r.stdout)).toMatchObject({ updated: 2 });
      expect(readAgain()).toEqual([true, true]);
      expect(versions()).toEqual([PARSE_VERSION, PARSE_VERSION]);
      const again = index();
      expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0 });
      expect(again.stderr).not.toMatch(/read them/);
    });
  }

  it("doctor's staleness says the files it counts as changed are unchanged notes an older tsm read", () => {
    // After an upgrade it said "the index is behind the vault: 0 new, 2 changed, 0 deleted files" of files
    // nobody had touched.
    asOlderTsmLeftIt('no record');
    const doctor = tsm(['doctor', '--vault', vault.dir]);
    expect(doctor.stdout).toContain(
      'the index is behind the vault: 0 new, 2 changed, 0 deleted files (2 of them not edited: an older tsm read them, and `tsm index` reads them again, once)',
    );
    index();
    expect(tsm(['doctor', '--vault', vault.dir]).stdout).not.toContain('staleness');
  });

  it('a note an older tsm rewrote after this one wrote it (a watcher of the older tsm) is read again, and only it', () => {
    // Before the record was kept per note, a mark of the whole index said "read by this tsm" after this
    // tsm's sync, and what an older `tsm watch` or `--full` wrote next stayed as it read it.
    asOlderTsmLeftIt('rewritten', ['b/c.md']);
    const r = index();
    expect(r.stderr).toContain('tsm: the index holds 1 notes as an older tsm read them: reading them again, once');
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 1, unchanged: 1, skipped: 1 });
    expect(readAgain()).toEqual([true, true]);
    expect(JSON.parse(index().stdout)).toMatchObject({ updated: 0 });
  });

  it('notes a newer tsm read are left as they are; a note this tsm writes records its own, older, reading', () => {
    // Once, a newer version was taken for another one: every note read again and the version lowered, so a
    // newer and an older tsm used in turn read the whole vault again each time.
    const conn = new Database(db());
    conn.prepare("UPDATE notes SET hash = 'as a newer tsm read it'").run();
    conn.prepare('UPDATE note_reading SET version = 99').run();
    conn.close();
    for (let i = 0; i < 2; i++) {
      const r = index();
      expect(r.stderr).not.toMatch(/read them/);
      expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, unchanged: 2, skipped: 1 });
    }
    expect(versions()).toEqual([99, 99]);
    writeFileSync(join(vault.dir, 'a.md'), '# Alpha\n\nThe walrus, edited.\n');
    expect(JSON.parse(index().stdout)).toMatchObject({ updated: 1 });
    expect(versions()).toEqual([PARSE_VERSION, 99]);
  });

  it('a sync of listed paths reads those and leaves the rest to a sync of the whole vault', () => {
    asOlderTsmLeftIt('no record');
    const r = index(['--files-from-stdin'], 'a.md\n');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/read them/);
    expect(readAgain()).toEqual([true, false]);
    const whole = index();
    expect(whole.stderr).toMatch(/reading them again, once/);
    expect(JSON.parse(whole.stdout)).toMatchObject({ updated: 1 });
    expect(readAgain()).toEqual([true, true]);
  });
});

describe('links an older tsm resolved', () => {
  // An older tsm re-resolves links by its rules at its syncs, also those of notes it does not write (on the
  // Obsidian Hub, an old `tsm watch` that added and removed notes moved 7 links of notes it never wrote), and
  // writes meta last_sync. Here: a link of a.md pointed elsewhere, as older rules might, by such a sync.
  const linkTarget = (): string | null => {
    const conn = new Database(db(), { readonly: true });
    const t = conn
      .prepare("SELECT t.path FROM links l JOIN notes n ON n.id = l.source_id LEFT JOIN notes t ON t.id = l.target_id WHERE n.path = 'a.md'")
      .pluck()
      .get() as string | null;
    conn.close();
    return t;
  };
  function resolvedElsewhere(byAnotherSync: boolean): void {
    const conn = new Database(db());
    conn.prepare("UPDATE links SET target_id = (SELECT id FROM notes WHERE path = 'a.md') WHERE source_id = (SELECT id FROM notes WHERE path = 'a.md')").run();
    if (byAnotherSync) conn.prepare("UPDATE meta SET value = '2026-11-27T16:00:00.000Z' WHERE key = 'last_sync'").run();
    conn.close();
  }
  beforeEach(() => {
    writeFileSync(join(vault.dir, 'a.md'), '# Alpha\n\nThe walrus, see [[c]].\n');
    expect(index().code).toBe(0);
    expect(linkTarget()).toBe('b/c.md');
  });

  it('are resolved again, all of them, by the next sync of the whole vault, and once only', () => {
    resolvedElsewhere(true);
    expect(JSON.parse(index().stdout)).toMatchObject({ updated: 0 });
    expect(linkTarget()).toBe('b/c.md');
    // Done: the next sync resolves no link it has no reason to (a link set wrong by hand stays so).
    resolvedElsewhere(false);
    index();
    expect(linkTarget()).toBe('a.md');
  });

  it('are resolved again, once, when the rules that resolve them changed (an index resolved by a tsm before them)', () => {
    // As a tsm of this PARSE_VERSION left it before `[[./y]]` was read from the note's folder: same record, no LINK_RULES.
    resolvedElsewhere(false);
    const conn = new Database(db());
    conn.prepare("DELETE FROM meta WHERE key = 'link_rules'").run();
    conn.close();
    expect(JSON.parse(index().stdout)).toMatchObject({ updated: 0 });
    expect(linkTarget()).toBe('b/c.md');
    resolvedElsewhere(false);
    index();
    expect(linkTarget()).toBe('a.md');
  });

  it('a sync of listed paths leaves that to the next sync of the whole vault', () => {
    resolvedElsewhere(true);
    writeFileSync(join(vault.dir, 'b', 'c.md'), '# Gamma\n\nThe seal, edited.\n');
    expect(JSON.parse(index(['--files-from-stdin'], 'b/c.md\n').stdout)).toMatchObject({ updated: 1 });
    index();
    expect(linkTarget()).toBe('b/c.md');
  });
});
