// An index keeps what an older tsm read from each note until the file changes; a sync that lists the whole
// vault reads every note again, once, when the index was read by another version of the reading
// (src/parse/version.ts, meta parse_version).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PARSE_VERSION } from '../../src/parse/version.js';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
const db = () => join(vault.dir, '.tsm', 'index.db');
const index = (args: string[] = [], input?: string) => tsm(['index', '--json', '--vault', vault.dir, ...args], input === undefined ? {} : { input });

/**
 * What an older tsm leaves: no parse_version (or another one), and rows as it read them. The rows stand in
 * as a hash no reading of these files gives (a column no full-text row holds: rewriting a title under the
 * contentless FTS tables would damage them), so a note read again is seen by its hash.
 */
function asOlderTsmLeftIt(version: string | null): void {
  const conn = new Database(db());
  conn.prepare("UPDATE notes SET hash = 'as an older tsm read it'").run();
  if (version === null) conn.prepare("DELETE FROM meta WHERE key = 'parse_version'").run();
  else conn.prepare("UPDATE meta SET value = ? WHERE key = 'parse_version'").run(version);
  conn.close();
}
function readAgain(): boolean[] {
  const conn = new Database(db(), { readonly: true });
  const out = (conn.prepare('SELECT hash FROM notes ORDER BY path').pluck().all() as string[]).map((h) => h !== 'as an older tsm read it');
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
  it('a build records the version of the reading; a sync then reads nothing again', () => {
    const conn = new Database(db(), { readonly: true });
    expect(conn.prepare("SELECT value FROM meta WHERE key = 'parse_version'").pluck().get()).toBe(String(PARSE_VERSION));
    conn.close();
    const r = index();
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, unchanged: 3 });
    expect(r.stderr).not.toMatch(/read them/);
  });

  for (const version of [null, '0']) {
    it(`are read again, once, by a sync of the whole vault (parse_version ${version ?? 'absent'})`, () => {
      asOlderTsmLeftIt(version);
      const r = index();
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('tsm: the index holds notes as an older tsm read them: reading all 2 again, once');
      expect(JSON.parse(r.stdout)).toMatchObject({ updated: 2 });
      expect(readAgain()).toEqual([true, true]);
      const again = index();
      expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0 });
      expect(again.stderr).not.toMatch(/read them/);
    });
  }

  it('a sync of listed paths reads those and leaves the rest to a sync of the whole vault', () => {
    asOlderTsmLeftIt(null);
    const r = index(['--files-from-stdin'], 'a.md\n');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/read them/);
    expect(readAgain()).toEqual([true, false]);
    const whole = index();
    expect(whole.stderr).toMatch(/reading all 2 again, once/);
    expect(readAgain()).toEqual([true, true]);
  });
});
