// SectionSearch's row count: read from FTS5's averages record, it must always equal the FTS row count
// (the N of bm25), through inserts, rewrites and deletions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader, openWriter } from '../../src/index/db.js';
import { NoteWriter } from '../../src/index/note-writer.js';
import { readVarint, SectionSearch } from '../../src/index/section-search.js';
import { SAMPLE_NOTES, writeIndex } from '../hooks/fixture-index.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function counts(dbPath: string): { read: number; counted: number } {
  const db = openReader(dbPath);
  try {
    return {
      read: new SectionSearch(db).indexedSections(),
      counted: db.prepare('SELECT count(*) FROM sections_fts').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe('SectionSearch.indexedSections', () => {
  it('equals the FTS row count after writes, rewrites and deletions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsm-ss-'));
    dirs.push(dir);
    const dbPath = join(dir, '.tsm', 'index.db');
    await writeIndex(dir, SAMPLE_NOTES);
    const first = counts(dbPath);
    expect(first.counted).toBeGreaterThan(3);
    expect(first.read).toBe(first.counted);

    const { db } = openWriter(dbPath);
    try {
      const writer = new NoteWriter(db, ['.md']);
      writer.inTransaction(() => writer.removePath(SAMPLE_NOTES[0].path));
    } finally {
      db.close();
    }
    const after = counts(dbPath);
    expect(after.counted).toBeLessThan(first.counted);
    expect(after.read).toBe(after.counted);
  });

  it('an empty index has no rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsm-ss-'));
    dirs.push(dir);
    const dbPath = join(dir, '.tsm', 'index.db');
    await writeIndex(dir, []);
    expect(counts(dbPath)).toEqual({ read: 0, counted: 0 });
  });
});

describe('readVarint', () => {
  it('reads SQLite varints of every length, and null when cut short', () => {
    expect(readVarint(Uint8Array.of(0x00))).toBe(0);
    expect(readVarint(Uint8Array.of(0x7f))).toBe(127);
    expect(readVarint(Uint8Array.of(0x81, 0x00))).toBe(128);
    expect(readVarint(Uint8Array.of(0x83, 0xa5, 0x54))).toBe((3 << 14) | (0x25 << 7) | 0x54);
    expect(readVarint(Uint8Array.of(0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01))).toBe(2 ** 57 + 1);
    expect(readVarint(Uint8Array.of(0x81))).toBeNull();
    expect(readVarint(new Uint8Array())).toBeNull();
  });
});
