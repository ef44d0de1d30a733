// The first `tsm index` after an upgrade (the built CLI): an index of an older schema whose every note (or
// nearly: REBUILD_SHARE) an older tsm read (src/index/note-reading.ts) is rebuilt from the notes in one transaction, as `tsm index
// --full` rebuilds it (sync.ts rereadAll), with the schema brought up inside it (db.ts upgradeForRebuild), not
// migrated in place and then rewritten note by note. That was 33 s on the handbook where a build takes 14 s,
// and left its full-text index in pieces (278 MB against a build's 179). Here: the same full-text index, byte
// for byte, and the same vectors as `--full` of the same index; and a kill in the middle leaves the older
// index as it was, whole, where it left a migrated index half read again.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/index/schema.js';
import { openReader } from '../../src/index/db.js';
import { semanticStatus } from '../../src/index/semantic/refresh.js';
import { loadConfig } from '../../src/vault/config.js';
import { watchVault } from '../../src/watch/watch-vault.js';
import { tsm, writeFiles } from '../helpers/cli.js';
import { writeFtsRowsAs } from '../helpers/migration.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';
import { runAndKill } from '../resilience/processes.js';

const models = useTwoTinyModels('tsm-upgrade-rebuild-');

const WORDS = ['アンテナ', 'garden', '堆肥', 'piano', 'オーブン', 'battery', '旋律', 'dough', 'トマト', 'charger'];

function noteText(n: number): string {
  const w = WORDS[n % WORDS.length];
  return `---\ntitle: Note ${n}\ntags: [t${n % 7}]\n---\n# Note ${n}\n\n## About ${w}\n\n${w} ${w} と ${w} のこと [[n${String((n + 1) % 40).padStart(4, '0')}]]\n\n## Other\n\nplain words here ${n}\n`;
}

/** A vault of `notes` notes, indexed (and its sections embedded by the tiny model), made into an older tsm's index. */
function olderIndex(name: string, notes: number, semantic = false): { dir: string; db: string } {
  const dir = join(models.root, name);
  const files: Record<string, string> = { '.tsm/config.json': JSON.stringify({ modelDir: '../m1', semantic }) };
  for (let n = 0; n < notes; n++) files[`notes/n${String(n).padStart(4, '0')}.md`] = noteText(n);
  writeFiles(dir, files);
  const first = tsm(['index', '--vault', dir, '--embed']);
  expect(first.code, first.stderr).toBe(0);
  const db = join(dir, '.tsm', 'index.db');
  // The schema before this one (its full-text rows as the text's analysis then cut them: the same for this
  // text), and no record of which reading wrote the notes, as a tsm before that record left it.
  writeFtsRowsAs(db, SCHEMA_VERSION - 1, (text) => text);
  const conn = new Database(db);
  conn.exec('DROP TABLE note_reading');
  conn.close();
  return { dir, db };
}

/** Rows of a table, in rowid order, as one string to compare. */
function rows(path: string, sql: string): string {
  const conn = new Database(path, { readonly: true });
  try {
    return JSON.stringify(conn.prepare(sql).raw().all(), (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v));
  } finally {
    conn.close();
  }
}

const REBUILT_TABLES = ['sections_fts_data', 'notes_fts_data', 'cjk_df', 'sections', 'links'];

/** `tsm index` of the vault, then `--full` of `fullDb` (a copy of its index taken before): the tables are row for row the same. */
function indexEqualsFull(dir: string, db: string, fullDb: string, tables: readonly string[] = REBUILT_TABLES): ReturnType<typeof tsm> {
  const r = tsm(['index', '--vault', dir]);
  expect(r.code, r.stderr).toBe(0);
  const full = tsm(['index', '--vault', dir, '--db', fullDb, '--full']);
  expect(full.code, full.stderr).toBe(0);
  for (const table of tables) {
    const sql = `SELECT * FROM ${table} ORDER BY 1`;
    expect(rows(db, sql), table).toBe(rows(fullDb, sql));
  }
  return r;
}

const versionOf = (path: string) => rows(path, "SELECT value FROM meta WHERE key = 'schema_version'");

describe('the first tsm index after an upgrade', () => {
  it('rebuilds an older index whose notes an older tsm read into what `tsm index --full` of it writes, vectors kept', () => {
    // 360 sections, enough for the semantic model (300), which is trained again: to what it was.
    const { dir, db } = olderIndex('equal', 120, true);
    const modelBefore = rows(db, 'SELECT * FROM semantic_words ORDER BY 1');
    expect(modelBefore).not.toBe('[]');
    const vectorsBefore = rows(db, 'SELECT s.heading_path, s.text, v.vec FROM section_vectors v JOIN sections s ON s.id = v.id ORDER BY s.note_id, s.ord');
    const fullDb = join(dir, '.tsm', 'full.db');
    copyFileSync(db, fullDb);

    // The full-text index as a rebuild leaves it (one segment each, merged): the note-by-note rewrite left
    // the old rows' deletions and a segment per batch.
    const r = indexEqualsFull(dir, db, fullDb, [...REBUILT_TABLES, 'semantic_words', 'semantic_sections', 'semantic_notes']);
    expect(versionOf(db)).toBe(`[["${SCHEMA_VERSION}"]]`);
    expect(rows(db, 'SELECT s.heading_path, s.text, v.vec FROM section_vectors v JOIN sections s ON s.id = v.id ORDER BY s.note_id, s.ord')).toBe(vectorsBefore);
    expect(rows(db, 'SELECT * FROM semantic_words ORDER BY 1')).toBe(modelBefore);
    // Said as it is: an update of the schema, and every note read again (not a `--full`'s "120 added").
    expect(r.stderr).toContain(`from schema version ${SCHEMA_VERSION - 1} to ${SCHEMA_VERSION} as it is rebuilt from the notes, in one transaction (its 360 stored vectors given back`);
    expect(r.stderr).toContain('tsm: the index holds 120 notes as an older tsm read them: reading them again, once');
    expect(r.stdout).toMatch(/^0 added, 120 updated, 0 removed, 0 unchanged, 0 skipped/);
    // Nothing read again next time, nothing to embed.
    const again = tsm(['index', '--vault', dir, '--embed', '--json']);
    expect(again.stderr).not.toContain('older tsm');
    expect(JSON.parse(again.stdout)).toMatchObject({ unchanged: 120, updated: 0, embedding: { embedded: 0, remaining: 0, withVectors: 360 } });
  }, 120_000);

  it('rebuilds it too when a sync of a few notes came first (a Stop hook\'s): what this tsm read of it is unchanged', () => {
    const { dir, db } = olderIndex('few-first', 60);
    // Updated in place by a sync of listed paths, which reads that one note as this tsm reads it.
    const one = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'notes/n0003.md\n' });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain('in place');
    expect(versionOf(db)).toBe(`[["${SCHEMA_VERSION}"]]`);
    const fullDb = join(dir, '.tsm', 'full.db');
    copyFileSync(db, fullDb);

    const r = indexEqualsFull(dir, db, fullDb);
    expect(r.stderr).toBe('tsm: the index holds 59 notes as an older tsm read them: reading them again, once\n');
    expect(r.stdout).toMatch(/^0 added, 59 updated, 0 removed, 1 unchanged, 0 skipped/);
  }, 120_000);

  it('rebuilds an index whose notes a changed setting has them all read again (chunkChars) as `--full` does', () => {
    const dir = join(models.root, 'setting');
    const files: Record<string, string> = { '.tsm/config.json': JSON.stringify({ semantic: false }) };
    for (let n = 0; n < 60; n++) files[`notes/n${String(n).padStart(4, '0')}.md`] = noteText(n);
    writeFiles(dir, files);
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    writeFileSync(join(dir, '.tsm', 'config.json'), JSON.stringify({ semantic: false, chunkChars: 1500 }));
    const db = join(dir, '.tsm', 'index.db');
    const fullDb = join(dir, '.tsm', 'full.db');
    copyFileSync(db, fullDb);

    const r = indexEqualsFull(dir, db, fullDb);
    expect(r.stderr).toBe('tsm: chunkChars changed in config.json since the notes were read: reading them all again, once\n');
    expect(r.stdout).toMatch(/^0 added, 60 updated, 0 removed, 0 unchanged, 0 skipped/);
  }, 120_000);

  it('killed half way, it leaves the older index as it was, whole; the next run upgrades it', async () => {
    // Enough notes for an upgrade long enough to be killed in the middle (parsed in worker threads).
    const { dir, db } = olderIndex('killed', 1500);
    const before = rows(db, 'SELECT id, path, hash FROM notes ORDER BY id') + rows(db, 'SELECT * FROM sections_fts_data ORDER BY rowid');
    // The moment is taken from the time of a `--full` of the same index (a copy): the upgrade is one too.
    const copy = join(dir, '.tsm', 'timing.db');
    copyFileSync(db, copy);
    const started = performance.now();
    expect(tsm(['index', '--vault', dir, '--db', copy, '--full']).code).toBe(0);
    const fullMs = performance.now() - started;

    const killed = await runAndKill(['index', '--vault', dir], fullMs / 2);
    expect(killed.killed, killed.stderr).toBe(true);
    expect(versionOf(db)).toBe(`[["${SCHEMA_VERSION - 1}"]]`);
    expect(rows(db, 'PRAGMA integrity_check')).toBe('[["ok"]]');
    expect(rows(db, 'SELECT id, path, hash FROM notes ORDER BY id') + rows(db, 'SELECT * FROM sections_fts_data ORDER BY rowid')).toBe(before);

    const next = tsm(['index', '--vault', dir, '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ updated: 1500, added: 0 });
    expect(versionOf(db)).toBe(`[["${SCHEMA_VERSION}"]]`);
    writeFileSync(join(dir, 'notes/n0007.md'), readFileSync(join(dir, 'notes/n0007.md'), 'utf8').replace('plain words here 7', 'other words'));
    expect(JSON.parse(tsm(['index', '--vault', dir, '--json']).stdout)).toMatchObject({ updated: 1, unchanged: 1499 });
  }, 180_000);
});

describe("a watcher's first sync after an upgrade", () => {
  it('trains the semantic model in its rebuild, as tsm index does, not with every section embedded by the old model first', async () => {
    // Given the old model's vectors, then retrained in the background, every section was embedded at once:
    // on the handbook the watcher peaked at 611–674 MB, where `tsm index` of the same upgrade peaks at 347 MB.
    const { dir, db } = olderIndex('watch', 120, true);
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    const controller = new AbortController();
    let atReady: ReturnType<typeof semanticStatus> | null = null;
    const done = watchVault(cfg, {
      debounceMs: 50,
      signal: controller.signal,
      onReady: () => {
        const r = openReader(db);
        try {
          atReady = semanticStatus(r);
        } finally {
          r.close();
        }
        controller.abort();
      },
      onNotice: () => {},
    });
    await done.catch(() => {});
    expect(atReady).toMatchObject({ retrainDue: false, unembedded: 0, state: { kind: 'trained', embeddedSince: 0, sections: 360 } });
  }, 120_000);
});
