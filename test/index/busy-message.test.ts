// The message for an index another writer keeps locked says how long this process waited. Every SQLITE_BUSY
// said "for 10 minutes" (the writers' retries, WRITER_WAIT_MS), even one statement's that SQLite gave up after
// its 10 s busy_timeout: `tsm index` beside a stopped `sqlite3` holding BEGIN IMMEDIATE printed it after 10.2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asIndexError, busyError, IndexError, openWriter } from '../../src/index/db.js';

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
