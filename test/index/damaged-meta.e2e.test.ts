// An index whose `meta` table (the schema version's page) is damaged: SQLITE_CORRUPT reading the version was
// taken for "no version", so readers said the index "is empty", doctor too, and `tsm index` said it "has
// schema version none" and went on to rebuild it as if it were an index of an older tsm. Damage is said as
// damage: a reader names the file as no usable database and the fix, `tsm index` moves it aside and rebuilds.
import { closeSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
let db: string;

beforeEach(() => {
  vault = makeVault({ 'a.md': '# Alpha\n\nneedle text\n', 'b.md': '# Beta\n\nother words\n' });
  db = join(vault.dir, '.tsm', 'index.db');
  expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
});
afterEach(() => vault.cleanup());

/** Overwrites the page at the root of `table`'s b-tree (or of `index`) with bytes no page begins with. */
function damageRootOf(name: string): void {
  const conn = new Database(db, { readonly: true });
  const pageSize = conn.pragma('page_size', { simple: true }) as number;
  const root = conn.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name) as number;
  conn.close();
  for (const s of ['-wal', '-shm']) rmSync(db + s, { force: true });
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
}

describe('a damaged meta table', { timeout: 60_000 }, () => {
  for (const name of ['meta', 'sqlite_autoindex_meta_1']) {
    it(`(${name}'s page) is reported as damage, and tsm index moves the file aside and rebuilds`, () => {
      damageRootOf(name);
      for (const args of [['search', 'needle'], ['status']]) {
        const r = tsm([...args, '--vault', vault.dir]);
        expect(r.code, args[0]).toBe(1);
        expect(r.stdout).toBe('');
        // It was "the index at … is empty: run `tsm index`".
        expect(r.stderr, args[0]).toMatch(/^tsm: the index at \S+index\.db is not a usable database: run `tsm index( --vault \S+)?` to rebuild it\n$/);
      }
      const doctor = tsm(['doctor', '--vault', vault.dir]);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/error +index: the index at \S+ is not a usable database/);
      expect(doctor.stdout).not.toMatch(/is empty/);

      const r = tsm(['index', '--vault', vault.dir]);
      expect(r.code, r.stderr).toBe(0);
      // It was "has schema version none, which this tsm … cannot update in place: rebuilding it from the notes" first.
      expect(r.stderr).not.toMatch(/schema version none/);
      expect(r.stderr).toMatch(/^tsm: the index was not a usable database; moved it to \S+index\.db\.corrupt-\d+ and rebuilt\n$/);
      expect(readdirSync(join(vault.dir, '.tsm')).filter((f) => f.startsWith('index.db.corrupt-'))).toHaveLength(1);
      const found = tsm(['search', 'needle', '--vault', vault.dir, '-f', 'json']);
      expect(found.code, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['a.md']);
    });
  }
});
