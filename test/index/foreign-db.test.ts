// `--db` may name any file: tsm rebuilds only databases that are provably its own and refuses, leaving
// every byte in place, a database of another application (issue: one with a `meta` table lost all tables).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TSM_APPLICATION_ID } from '../../src/index/db.js';
import { makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
beforeEach(() => {
  vault = makeVault({ 'a.md': '# Alpha\n\nneedle text\n' });
});
afterEach(() => vault.cleanup());

function sqlite(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

const tables = (path: string) => {
  const db = new Database(path, { readonly: true });
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
  db.close();
  return names;
};

const FOREIGN: Record<string, string> = {
  'a meta table with a schema_version of its own': `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
     INSERT INTO meta VALUES ('schema_version', '3'); CREATE TABLE users (id INTEGER, name TEXT); INSERT INTO users VALUES (1, 'ann');`,
  'a meta table of another shape': `CREATE TABLE meta (id INTEGER, blob BLOB); CREATE TABLE orders (id INTEGER);`,
  'tables and no meta at all': `CREATE TABLE photos (id INTEGER, path TEXT); INSERT INTO photos VALUES (1, 'x.jpg');`,
  // No table, yet another application's: it was taken for an empty file, and tsm wrote its index into it.
  'views and no table': `CREATE VIEW answer AS SELECT 42 AS x;`,
  'no table, a user_version of its own': `PRAGMA user_version = 7;`,
  'a notes table but another application id': `PRAGMA application_id = 42; CREATE TABLE meta (key TEXT, value TEXT);
     INSERT INTO meta VALUES ('schema_version', '8'); CREATE TABLE notes (id INTEGER, path TEXT);`,
};

describe('a database tsm did not create', () => {
  for (const [name, sql] of Object.entries(FOREIGN)) {
    it(`is refused, untouched: ${name}`, () => {
      const db = join(vault.dir, 'other.db');
      sqlite(db, sql);
      const before = readFileSync(db);
      const before_tables = tables(db);
      for (const args of [['index'], ['index', '--full'], ['search', 'needle'], ['status']]) {
        const r = tsm([...args, '--vault', vault.dir, '--db', db], { cwd: vault.dir });
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toMatch(/is not a tsm index .*leaves it as it is: give --db a new file name/);
        expect(r.stderr).not.toMatch(/\n\s+at /); // tsm's message, not a stack
      }
      expect(tables(db)).toEqual(before_tables);
      expect(readFileSync(db).equals(before)).toBe(true);
    });
  }
});

describe('a database that is tsm own, or free to use', () => {
  it('an empty SQLite file gets the schema and the mark', () => {
    const db = join(vault.dir, 'empty.db');
    sqlite(db, 'PRAGMA user_version = 0;');
    expect(tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir }).code).toBe(0);
    const conn = new Database(db, { readonly: true });
    expect(conn.pragma('application_id', { simple: true })).toBe(TSM_APPLICATION_ID);
    conn.close();
    expect(tsm(['search', 'needle', '--vault', vault.dir, '--db', db], { cwd: vault.dir }).stdout).toContain('a.md');
  });

  it('an index of an older tsm (before the mark existed) is rebuilt', () => {
    const db = join(vault.dir, 'old.db');
    expect(tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir }).code).toBe(0);
    sqlite(db, "PRAGMA application_id = 0; UPDATE meta SET value = '5' WHERE key = 'schema_version';");
    const r = tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1 added/);
    const conn = new Database(db, { readonly: true });
    expect(conn.pragma('application_id', { simple: true })).toBe(TSM_APPLICATION_ID);
    conn.close();
  });

  it('a file that is not a database at all is refused, untouched: a note named by --db stays a note', () => {
    // It used to be moved aside and replaced by an index: `--db README.md` turned the note into SQLite.
    // A file of one byte: SQLite opens it as an empty database, and `tsm index` wrote an index over it.
    const files = [['README.md', '# Read me\n\nmy own words\n'], ['junk.db', 'not sqlite\n'.repeat(100)], ['one-byte.db', 'x'], ['newline.txt', '\n']] as const;
    for (const [name, content] of files) {
      const file = join(vault.dir, name);
      writeFileSync(file, content);
      for (const args of [['index'], ['index', '--full'], ['search', 'needle'], ['status']]) {
        const r = tsm([...args, '--vault', vault.dir, '--db', file], { cwd: vault.dir });
        expect(r.code, `${name}: ${args.join(' ')}`).toBe(1);
        expect(r.stderr).toMatch(
          name.endsWith('.md') ? /the index cannot be a note: .*README\.md ends in \.md/ : /is not a tsm index \(not a database tsm wrote\); tsm leaves it as it is: give --db a new file name/,
        );
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(readdirSync(vault.dir).filter((f) => f.startsWith(`${name}.corrupt-`))).toEqual([]);
    }
  });

  it("another file of the vault's .tsm/ folder named by --db (its config.json) is refused, untouched", () => {
    // A file in `.tsm/` counted as tsm's own: `--db .tsm/config.json` moved the settings aside as
    // `config.json.corrupt-<time>` and wrote an index there, and every command then stopped at a config that was SQLite.
    const config = join(vault.dir, '.tsm', 'config.json');
    mkdirSync(join(vault.dir, '.tsm'), { recursive: true });
    const content = '{\n  // my settings\n  "chunkChars": 1200\n}\n';
    writeFileSync(config, content);
    for (const args of [['index'], ['index', '--full'], ['search', 'needle'], ['status']]) {
      const r = tsm([...args, '--vault', vault.dir, '--db', config], { cwd: vault.dir });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/config\.json is not a tsm index \(not a database tsm wrote\); tsm leaves it as it is/);
    }
    expect(readFileSync(config, 'utf8')).toBe(content);
    expect(readdirSync(join(vault.dir, '.tsm')).filter((f) => f.includes('corrupt'))).toEqual([]);
    // The index in its own place is still rebuilt when it is no database (bad-index.test.ts does it whole).
    writeFileSync(join(vault.dir, '.tsm', 'index.db'), 'not sqlite\n'.repeat(100));
    expect(tsm(['index', '--vault', vault.dir], { cwd: vault.dir }).stderr).toMatch(/moved it to .*index\.db\.corrupt-\d+ and rebuilt/);
  });

  it('a folder or a FIFO named by --db is refused by name, for writers as for readers', () => {
    const dir = join(vault.dir, 'a-folder.db');
    mkdirSync(dir);
    const fifo = join(vault.dir, 'a-fifo.db');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const db of [dir, fifo]) {
      for (const args of [['index'], ['search', 'needle']]) {
        const r = tsm([...args, '--vault', vault.dir, '--db', db], { cwd: vault.dir, timeoutMs: 15_000 });
        expect(r.code, `${db}: ${args[0]}`).toBe(1);
        // A folder named by --db is where the user meant to keep the index: the fix is a file in it.
        expect(r.stderr).toMatch(db === dir ? /is a folder: give --db a file name, like .*a-folder\.db\/index\.db/ : /is not a plain file \(a folder, FIFO or device\?\): move it aside/);
      }
    }
  });

  it('an index path that is a link to nothing says so, for writers as for readers, and a link to a folder that exists is followed', () => {
    const link = join(vault.dir, 'linked.db');
    symlinkSync(join(vault.dir, 'unmounted', 'disk', 'index.db'), link);
    for (const args of [['index'], ['search', 'needle'], ['status'], ['doctor']]) {
      const r = tsm([...args, '--vault', vault.dir, '--db', link], { cwd: vault.dir });
      expect(r.code, args[0]).toBe(1);
      // It was "unable to open database file: check the permissions of the file and its folder" (index, search),
      // and "no index …: run `tsm index` first" (status, doctor).
      expect(r.stderr + r.stdout, args[0]).toMatch(/linked\.db is a symbolic link to .*unmounted\/disk\/index\.db, whose folder .*unmounted\/disk does not exist/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readdirSync(vault.dir)).not.toContain('unmounted');
    mkdirSync(join(vault.dir, 'unmounted', 'disk'), { recursive: true });
    expect(tsm(['index', '--vault', vault.dir, '--db', link], { cwd: vault.dir }).code).toBe(0);
    expect(readdirSync(join(vault.dir, 'unmounted', 'disk'))).toContain('index.db');
  });

  it('an index named like a note is refused, whether the note exists, is empty or not there yet', () => {
    const empty = join(vault.dir, 'blank.md');
    writeFileSync(empty, '');
    for (const db of [empty, join(vault.dir, 'a.md'), join(vault.dir, 'new-index.md')]) {
      const r = tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir });
      expect(r.code, db).toBe(1);
      expect(r.stderr).toMatch(/the index cannot be a note: .* ends in \.md; give --db \(or TSM_DB\) another name/);
    }
    expect(readFileSync(empty, 'utf8')).toBe('');
    expect(readFileSync(join(vault.dir, 'a.md'), 'utf8')).toBe('# Alpha\n\nneedle text\n');
    expect(readdirSync(vault.dir)).not.toContain('new-index.md');
  });

  it('an index of its own damaged past its first page is moved aside, never deleted, and rebuilt', () => {
    const db = join(vault.dir, 'mine.db');
    expect(tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir }).code).toBe(0);
    // Keep the header (tsm's mark), damage everything after it.
    const bytes = readFileSync(db);
    bytes.fill(0x5a, 100);
    writeFileSync(db, bytes);
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    const r = tsm(['index', '--vault', vault.dir, '--db', db], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/moved it to .*mine\.db\.corrupt-\d+/);
    expect(tsm(['search', 'needle', '--vault', vault.dir, '--db', db, '--ids'], { cwd: vault.dir }).stdout.trim()).not.toBe('');
  });
});
