// A note's frontmatter `description` (or `summary`) in its note-level row (src/index/fts-rows.ts
// noteFtsRow): its words are found, an edit or a removal takes them out exactly (the contentless table is
// handed back what it was given, so bm25() scores equal a clean build's), and an index of schema 11,
// which had no descriptions, is brought to 12 (and on to the current schema) in place (src/index/migrate.ts) — keeping its vectors —
// into the very index a clean build writes.
import { spawn } from 'node:child_process';
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openReader, openWriter, IndexError, type Database as Db } from '../../src/index/db.js';
import { noteFtsRow } from '../../src/index/fts-rows.js';
import { NOTE_FTS_COLUMNS, SCHEMA_VERSION } from '../../src/index/schema.js';
import { syncVault } from '../../src/index/sync.js';
import { frontmatterDescription } from '../../src/parse/metadata.js';
import { search } from '../../src/search/search.js';
import { loadConfig, tsmDir, type TsmConfig } from '../../src/vault/config.js';
import { watcherPidFile } from '../../src/vault/watcher-pid.js';
import { writeFiles } from '../helpers/cli.js';
import { embedAll, expectMigratedInPlace } from '../helpers/migration.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';

const models = useTwoTinyModels('tsm-description-');

const FILES: Record<string, string> = {
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'fleet.md': '---\ndescription: How we replaced the zeppelin fleet with gliders\n---\n# Fleet\n\nSome text about fleets.\n\n## Costs\n\nMoney spent on fleets.\n',
  'garden.md': '---\nsummary: 庭の手入れと堆肥づくり\ntags: [home]\n---\n# Garden\n\nTomatoes and beans.\n',
  'plain.md': '# Plain\n\nNo frontmatter at all, fleets mentioned.\n',
  'empty-desc.md': '---\ndescription: ""\n---\n# Empty\n\nfleets again\n',
};

async function vault(name: string, files: Record<string, string> = FILES): Promise<TsmConfig> {
  const dir = join(models.root, name);
  rmSync(dir, { recursive: true, force: true });
  writeFiles(dir, files);
  const cfg = loadConfig({ vaultFlag: dir, env: {} });
  await syncVault(cfg);
  return cfg;
}

function paths(db: Db, query: string): string[] {
  return search(db, { query, limit: 10 }).hits.map((h) => h.path);
}

/** Every note row's bm25() for a query, by note path: equal rows and equal column statistics give equal scores. */
function noteScores(db: Db, match: string): Record<string, number> {
  const rows = db
    .prepare('SELECT n.path, bm25(notes_fts) AS s FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? ORDER BY n.path')
    .all(match) as { path: string; s: number }[];
  return Object.fromEntries(rows.map((r) => [r.path, Number(r.s.toFixed(9))]));
}

const MATCHES = ['zeppelin', 'fleet', 'costs', 'garden', '"庭の"', 'home'];

function allScores(db: Db): Record<string, Record<string, number>> {
  return Object.fromEntries(MATCHES.map((m) => [m, noteScores(db, m)]));
}

describe('frontmatterDescription', () => {
  it('reads description, else summary; a list is joined; empty and non-text values give nothing', () => {
    expect(frontmatterDescription({ description: '  What it is  ', summary: 'other' })).toBe('What it is');
    expect(frontmatterDescription({ summary: 'The gist' })).toBe('The gist');
    expect(frontmatterDescription({ description: '', summary: 'The gist' })).toBe('The gist');
    expect(frontmatterDescription({ description: ['one', 'two'] })).toBe('one two');
    expect(frontmatterDescription({ description: 42 })).toBe('42');
    expect(frontmatterDescription({ description: { nested: 'x' } })).toBe('');
    expect(frontmatterDescription({ description: null })).toBe('');
    expect(frontmatterDescription({})).toBe('');
  });
});

describe('a note found by its description', () => {
  it('finds a word only the description has, and by the note, not by a section that lacks it', async () => {
    const cfg = await vault('find');
    const db = openReader(cfg.db);
    try {
      expect(paths(db, 'zeppelin')).toEqual(['fleet.md']);
      expect(paths(db, 'gliders zeppelin')).toEqual(['fleet.md']);
      expect(paths(db, '堆肥')).toEqual(['garden.md']);
    } finally {
      db.close();
    }
  });

  it('shows the description as the passage when only it says the words; the section text otherwise', async () => {
    const cfg = await vault('snippet');
    const db = openReader(cfg.db);
    try {
      const [byDescription] = search(db, { query: 'zeppelin', limit: 1 }).hits;
      expect(byDescription.snippet).toBe('How we replaced the zeppelin fleet with gliders');
      expect(byDescription.content).toBe('Some text about fleets.');
      const [cjk] = search(db, { query: '堆肥', limit: 1 }).hits;
      expect(cjk.snippet).toBe('庭の手入れと堆肥づくり');
      // The section says a query word: its own passage, though the description says it too.
      const fleets = search(db, { query: 'fleets', limit: 10 }).hits.find((h) => h.path === 'fleet.md');
      expect(fleets?.snippet).not.toContain('zeppelin');
    } finally {
      db.close();
    }
  });

  it('an edited or removed description is taken out exactly: scores equal a clean build of the same files', async () => {
    const cfg = await vault('edit');
    const edited = FILES['fleet.md'].replace('zeppelin fleet with gliders', 'balloon fleet with kites');
    writeFileSync(join(cfg.vault, 'fleet.md'), edited);
    writeFileSync(join(cfg.vault, 'garden.md'), '# Garden\n\nTomatoes and beans.\n'); // the summary removed
    unlinkSync(join(cfg.vault, 'empty-desc.md'));
    await syncVault(cfg);
    const { 'empty-desc.md': _removed, ...kept } = FILES;
    const clean = await vault('edit-clean', { ...kept, 'fleet.md': edited, 'garden.md': '# Garden\n\nTomatoes and beans.\n' });
    const db = openReader(cfg.db);
    const cleanDb = openReader(clean.db);
    try {
      expect(paths(db, 'zeppelin')).toEqual([]);
      expect(paths(db, 'balloon kites')).toEqual(['fleet.md']);
      expect(paths(db, '堆肥')).toEqual([]);
      expect(allScores(db)).toEqual(allScores(cleanDb));
      expect(noteScores(db, 'balloon')).toEqual(noteScores(cleanDb, 'balloon'));
    } finally {
      db.close();
      cleanDb.close();
    }
  });
});

/** Makes a current index what schema 11 wrote: note rows without descriptions, no note vectors (schema 13), version 11. */
function downgradeTo11(file: string): void {
  const db = new Database(file);
  try {
    const notes = db.prepare('SELECT id, path, title, aliases, tags FROM notes').all() as { id: number; path: string; title: string; aliases: string; tags: string }[];
    const headings = db.prepare('SELECT heading FROM sections WHERE note_id = ? ORDER BY ord');
    const insert = db.prepare(`INSERT INTO notes_fts (rowid, ${NOTE_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
    db.transaction(() => {
      db.exec("INSERT INTO notes_fts (notes_fts) VALUES ('delete-all')");
      for (const n of notes) {
        const row = noteFtsRow(n.path, n.title, JSON.parse(n.aliases), JSON.parse(n.tags), headings.all(n.id) as { heading: string }[], {});
        insert.run(n.id, row.name.words, row.headings.words, row.name.cjk, row.headings.cjk);
      }
      db.exec('DROP TABLE semantic_notes');
      db.prepare("UPDATE meta SET value = '11' WHERE key = 'schema_version'").run();
    })();
  } finally {
    db.close();
  }
}

describe('an index of schema 11', () => {
  it('is brought to the current schema in place by the next writer: the descriptions are found, the vectors kept, the index equal to a clean build', async () => {
    const cfg = await vault('migrate');
    const vectors = await embedAll(cfg.db, models.embedder);
    downgradeTo11(cfg.db);

    // Readers refuse it, and say what to run.
    expect(() => openReader(cfg.db)).toThrow(IndexError);
    expect(() => openReader(cfg.db)).toThrow(`schema version 11, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to update it`);

    expectMigratedInPlace(cfg.db, vectors);
    const clean = await vault('migrate-clean');
    const db = openReader(cfg.db);
    const cleanDb = openReader(clean.db);
    try {
      expect(paths(db, 'zeppelin')).toEqual(['fleet.md']);
      expect(allScores(db)).toEqual(allScores(cleanDb));
    } finally {
      db.close();
      cleanDb.close();
    }
  });

  it('is left as it is while a `tsm watch` of the vault (started by the older tsm) writes to it', async () => {
    const cfg = await vault('watched');
    downgradeTo11(cfg.db);
    // A live process that is not this one, with a watcher's command line, stands for the older watcher.
    const watcher = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '/opt/tsm/bin/tsm', 'watch'], { stdio: 'ignore' });
    try {
      writeFileSync(watcherPidFile(tsmDir(cfg)), String(watcher.pid));
      await expect(syncVault(cfg)).rejects.toThrow(
        new RegExp(`schema version 11, this tsm needs ${SCHEMA_VERSION}, and \`tsm watch\` \\(pid ${watcher.pid}\\) writes to it: stop it, then run \`tsm index\``),
      );
      const raw = new Database(cfg.db, { readonly: true });
      expect(raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe('11');
      raw.close();
    } finally {
      watcher.kill();
      await new Promise((resolve) => watcher.once('exit', resolve));
    }
    // The watcher gone (its pid file left behind, as a killed one leaves it), the next sync updates the index.
    await syncVault(cfg);
    const db = openReader(cfg.db);
    try {
      expect(paths(db, 'zeppelin')).toEqual(['fleet.md']);
    } finally {
      db.close();
    }
  });

  it('an index of an older schema is still rebuilt from nothing', async () => {
    const cfg = await vault('older');
    const raw = new Database(cfg.db);
    raw.prepare("UPDATE meta SET value = '10' WHERE key = 'schema_version'").run();
    raw.close();
    expect(() => openReader(cfg.db)).toThrow(`schema version 10, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to rebuild it`);
    const opened = openWriter(cfg.db);
    try {
      expect(opened.fresh).toBe(true);
      expect(opened.db.prepare('SELECT count(*) FROM notes').pluck().get()).toBe(0);
    } finally {
      opened.db.close();
    }
  });
});

describe('a writer that outlives a schema change', () => {
  it('writes nothing once another tsm has changed the index schema under it, and says what to do', async () => {
    const cfg = await vault('outlived');
    const { db } = openWriter(cfg.db);
    try {
      const before = db.prepare('SELECT path, hash FROM notes ORDER BY path').all();
      // A newer tsm migrates or rebuilds the file while this process keeps its connection.
      const other = new Database(cfg.db);
      other.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
      other.close();
      writeFileSync(join(cfg.vault, 'fleet.md'), '# Fleet\n\nrewritten by hand\n');
      await expect(syncVault(cfg, { db })).rejects.toThrow(
        `is now schema version ${SCHEMA_VERSION + 1} (another tsm changed it), and this process writes ${SCHEMA_VERSION}: nothing was written; restart it`,
      );
      expect(db.prepare('SELECT path, hash FROM notes ORDER BY path').all()).toEqual(before);
    } finally {
      db.close();
    }
  });
});
