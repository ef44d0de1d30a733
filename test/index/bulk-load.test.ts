// A build from scratch leaves each full-text index as one merged segment with FTS5's merging back on;
// a build killed before the merge is finished by the next sync; a sync merges again once a tenth of the
// notes were written since (sync.ts COMPACT_SHARE). (Segments per term are what every query
// reads, so this is what keeps a freshly built index fast.)
import { appendFileSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader, openWriter } from '../../src/index/db.js';
import { NoteWriter } from '../../src/index/note-writer.js';
import { syncVault } from '../../src/index/sync.js';
import { search } from '../../src/search/search.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { writeFiles } from '../helpers/cli.js';
import { segmentCount } from '../helpers/fts-segments.js';
import { generateVault } from '../resilience/vault-gen.js';

const TABLES = ['sections_fts', 'notes_fts'] as const;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

interface FtsState {
  segments: number;
  automerge: unknown;
}

function ftsState(dbPath: string): Record<(typeof TABLES)[number], FtsState> {
  const db = openReader(dbPath);
  try {
    const state = (t: string): FtsState => ({
      segments: segmentCount(db.prepare(`SELECT block FROM ${t}_data WHERE id = 10`).pluck().get() as Uint8Array),
      automerge: db.prepare(`SELECT v FROM ${t}_config WHERE k = 'automerge'`).pluck().get(),
    });
    return { sections_fts: state('sections_fts'), notes_fts: state('notes_fts') };
  } finally {
    db.close();
  }
}

function searchOnce(dbPath: string, query: string) {
  const db = openReader(dbPath);
  try {
    return search(db, { query, limit: 20 });
  } finally {
    db.close();
  }
}

function ftsIntegrity(dbPath: string): void {
  const { db } = openWriter(dbPath);
  try {
    for (const t of TABLES) db.prepare(`INSERT INTO ${t} (${t}) VALUES ('integrity-check')`).run();
  } finally {
    db.close();
  }
}

async function builtVault(notes: number): Promise<{ dir: string; cfg: TsmConfig; paths: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-bulk-'));
  dirs.push(dir);
  const files = generateVault(5, notes).files;
  // No semantic model: its training on --full would move the scores this test compares (see resilience/fixture.ts).
  writeFiles(dir, { ...files, '.tsm/config.json': JSON.stringify({ semantic: false }) });
  const cfg = loadConfig({ vaultFlag: dir, env: {} });
  await syncVault(cfg);
  return { dir, cfg, paths: Object.keys(files).filter((p) => p.endsWith('.md')) };
}

const MERGED = { segments: 1, automerge: 4 };

describe('bulk load of the full-text indexes', () => {
  it('leaves a fresh build merged into one segment per index, with merging back on', async () => {
    const { cfg } = await builtVault(60);
    expect(ftsState(cfg.db)).toEqual({ sections_fts: MERGED, notes_fts: MERGED });
    ftsIntegrity(cfg.db);
  });

  it('keeps merging on through incremental updates, and merges again on --full', async () => {
    const { dir, cfg, paths } = await builtVault(60);
    for (const p of paths.slice(0, 12)) {
      appendFileSync(join(dir, p), `\n\nAn edit to ${p} about quokka migrations.\n`);
      await syncVault(cfg);
    }
    const updated = ftsState(cfg.db);
    expect(updated.sections_fts.automerge).toBe(4);
    expect(updated.notes_fts.automerge).toBe(4);
    // Twelve one-note transactions add segments that FTS5 merges as it goes, not into one.
    expect(updated.sections_fts.segments).toBeGreaterThan(1);
    const before = searchOnce(cfg.db, 'quokka migrations');

    await syncVault(cfg, { full: true });
    expect(ftsState(cfg.db)).toEqual({ sections_fts: MERGED, notes_fts: MERGED });
    ftsIntegrity(cfg.db);
    // Merging moves no row and changes no statistic: the same hits with the same scores.
    const after = searchOnce(cfg.db, 'quokka migrations');
    expect(after.hits.map((h) => [h.path, h.section, h.score])).toEqual(before.hits.map((h) => [h.path, h.section, h.score]));
    expect(after.total).toBe(before.total);
  });

  it('merges once a tenth of the notes were written since, across syncs; a sync past its deadline leaves it to the next', async () => {
    const { dir, cfg, paths } = await builtVault(60);
    const edit = (p: string) => appendFileSync(join(dir, p), `\n\nAn edit to ${p} about quokka migrations.\n`);
    const tenth = paths.slice(0, Math.ceil(paths.length / 10) + 1);
    tenth.forEach(edit);
    // A hook's sync whose deadline has passed by the time it would merge: its notes are written, the merge left.
    const late = await syncVault(cfg, { paths: tenth, waitUntil: Date.now() - 1 });
    expect(late.updated).toBe(tenth.length);
    expect(ftsState(cfg.db).sections_fts.segments).toBeGreaterThan(1);
    const before = searchOnce(cfg.db, 'quokka migrations');
    // One more note, far below a tenth on its own: the count carried over, so this sync merges.
    edit(paths[paths.length - 1]);
    await syncVault(cfg, { paths: [paths[paths.length - 1]] });
    expect(ftsState(cfg.db)).toEqual({ sections_fts: MERGED, notes_fts: MERGED });
    ftsIntegrity(cfg.db);
    const after = searchOnce(cfg.db, 'quokka migrations');
    expect(after.total).toBe(before.total + 1);
  });

  it('finds files whose time alone changed unchanged, and leaves the index as it was', async () => {
    const { dir, cfg, paths } = await builtVault(30);
    const before = ftsState(cfg.db);
    const later = new Date(Date.now() + 3_600_000);
    for (const p of paths) utimesSync(join(dir, p), later, later);
    const summary = await syncVault(cfg);
    expect(summary).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: paths.length });
    expect(ftsState(cfg.db)).toEqual(before);
    // The new times are recorded: the next sync does not read the files again.
    expect(await syncVault(cfg)).toMatchObject({ unchanged: paths.length });
  });

  it('finishes, on the next sync, a bulk load that a kill cut short', async () => {
    const { cfg } = await builtVault(30);
    // What a build killed mid-way leaves: merging off, rows in several segments.
    const { db } = openWriter(cfg.db);
    try {
      const writer = new NoteWriter(db, ['.md']);
      writer.inTransaction(() => writer.beginBulkLoad());
      expect(writer.bulkLoadUnfinished()).toBe(true);
    } finally {
      db.close();
    }
    const summary = await syncVault(cfg);
    expect(summary.added + summary.updated + summary.removed).toBe(0);
    expect(ftsState(cfg.db)).toEqual({ sections_fts: MERGED, notes_fts: MERGED });
  });
});
