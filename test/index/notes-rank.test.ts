// The fields ranking reads of each note a ranker found come from the index notes_rank alone (schema 16,
// src/index/schema.ts NOTES_RANK_SQL): a search looks up hundreds of notes by id, and their rows are wide.
// An index of schema 15, which has no such index, is brought to 16 in place by the next writer, and ranks
// as a clean build does.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openReader, type Database as Db } from '../../src/index/db.js';
import { search } from '../../src/search/search.js';
import { expectMigratedInPlace } from '../helpers/migration.js';
import { syncedVaults } from '../helpers/synced-vaults.js';

const FILES: Record<string, string> = {
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'antenna.md': '---\ntags: [radio]\nstatus: draft\n---\n# Antenna\n\nThe LoRa antenna reached 3 km in the valley test.\n',
  'daily/2026-03-01.md': '# 2026-03-01\n\nTested the antenna range again; battery held.\n',
  'archive/old-antenna.md': '---\nstatus: archived\n---\n# Old antenna\n\nThe first antenna reached 1 km.\n',
  'empty.md': '',
  'bread.md': '# Sourdough\n\nFeed the starter twice a day.\n',
};

const vault = syncedVaults('tsm-notes-rank-', FILES);

const ranked = (db: Db, query: string) => search(db, { query, limit: 10 }).hits.map((h) => [h.path, h.score, h.status ?? null]);

describe('notes_rank', () => {
  it('is what a search reads the ranked notes\' fields from', async () => {
    const cfg = await vault('plan');
    let db = openReader(cfg.db);
    try {
      const hits = ranked(db, 'antenna');
      expect(hits.map((r) => r[0]).sort()).toEqual(['antenna.md', 'archive/old-antenna.md', 'daily/2026-03-01.md']);
      expect(hits.find((r) => r[0] === 'archive/old-antenna.md')?.[2]).toBe('archived');
    } finally {
      db.close();
    }
    // Without it (a schema-16 index someone changed by hand), the search names it: it read nothing else.
    const w = new Database(cfg.db);
    w.exec('DROP INDEX notes_rank');
    w.close();
    db = openReader(cfg.db);
    try {
      expect(() => ranked(db, 'antenna')).toThrow(/no such index: notes_rank/);
    } finally {
      db.close();
    }
  });

  it('an index of schema 15 is updated in place by the next writer, and ranks as a clean build does', async () => {
    const cfg = await vault('migrate');
    const old = new Database(cfg.db);
    old.exec('DROP INDEX notes_rank');
    old.prepare("UPDATE meta SET value = '15' WHERE key = 'schema_version'").run();
    old.close();
    // A reader of schema 16 names the fix rather than failing on the missing index.
    expect(() => openReader(cfg.db)).toThrow(/has schema version 15, this tsm needs 16: run `tsm index` to update it/);
    expectMigratedInPlace(cfg.db, undefined, (db) =>
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'notes_rank'").pluck().get()).toBe('notes_rank'),
    );
    const clean = await vault('clean');
    const db = openReader(cfg.db);
    const cleanDb = openReader(clean.db);
    try {
      for (const q of ['antenna', 'antenna range', 'starter', 'radio']) expect(ranked(db, q)).toEqual(ranked(cleanDb, q));
    } finally {
      db.close();
      cleanDb.close();
    }
  });
});
