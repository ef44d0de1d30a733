// The message for an index another writer keeps locked says how long this process waited. Every SQLITE_BUSY
// said "for 10 minutes" (the writers' retries, WRITER_WAIT_MS), even one statement's that SQLite gave up after
// its 10 s busy_timeout: `tsm index` beside a stopped `sqlite3` holding BEGIN IMMEDIATE printed it after 10.2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asIndexError, busyError, IndexError, openWriter } from '../../src/index/db.js';
import { makeVault, tsm } from '../helpers/cli.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('the busy message', () => {
  it("says SQLite's 10 s for one statement's SQLITE_BUSY, not 10 minutes", () => {
    const e = asIndexError(busy(), '/v/.tsm/index.db') as IndexError;
    expect(e.code).toBe('busy');
    expect(e.message).toBe(
      'the index at /v/.tsm/index.db stayed locked by another writer (`tsm index`, `tsm watch`) for 10 s: run `tsm index` again once it is done, or stop a writer that hangs',
    );
  });

  it('says the time given: seconds, then minutes', () => {
    expect(busyError('x', 2_400).message).toMatch(/ for 2 s: /);
    expect(asIndexError(busy(), 'x', 3_000) as IndexError).toHaveProperty('message', expect.stringMatching(/ for 3 s: /));
    expect(busyError('x', 10 * 60_000 + 40).message).toMatch(/ for 10 minutes: /);
  });
});

describe('a writer meeting a lock held by another process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsm-busy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports the busy_timeout it waited (recording the vault, outside a write transaction)", () => {
    const db = join(dir, 'index.db');
    openWriter(db, { vault: join(dir, 'a') }).db.close();
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    try {
      // Another vault's name to record: a write outside writeTransaction, which SQLite gives up after busy_timeout.
      expect(() => openWriter(db, { vault: dir, waitUntil: Date.now() + 1_500 })).toThrow(/stayed locked by another writer .* for (1|2) s: /);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a reader meeting an index another process holds whole (locking_mode = EXCLUSIVE)', () => {
  // A SQLite browser or a `sqlite3` shell can hold the file so that WAL readers wait too. The search said
  // "cannot read the index at …: database is locked", with no fix; doctor's fix named a folder, a pipe or a
  // failing disk, and `tsm index`. Both now say what holds it and what to do.
  it('search and doctor say the index stayed locked and the fix, in one line, without a stack trace', { timeout: 60_000 }, () => {
    const v = makeVault({ 'a.md': '# a\n\nword\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const holder = new Database(join(v.dir, '.tsm', 'index.db'));
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec("BEGIN EXCLUSIVE; UPDATE meta SET value = value WHERE key = 'schema_version'");
      try {
        const fix = 'close the program that holds the index file (a SQLite browser, a `sqlite3` shell) or stop a tsm that hangs, then run the command again';
        const search = tsm(['search', 'word', '--vault', v.dir]);
        expect(search.code).toBe(1);
        expect(search.stdout).toBe('');
        expect(search.stderr).toBe(`tsm: the index at ${join(v.dir, '.tsm', 'index.db')} stayed locked by another process for 10 s, which keeps readers out: ${fix}\n`);
        const doctor = JSON.parse(tsm(['doctor', '--json', '--vault', v.dir]).stdout) as { problems: { check: string; fix: string }[] };
        expect(doctor.problems.find((p) => p.check === 'index')?.fix).toBe(fix);
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
    } finally {
      v.cleanup();
    }
  });
});
