// Neural vectors across `tsm index --full` (src/index/vector-carry.ts), through the real sync and the real
// embedding job with the tiny generated model: a section whose embedded input (heading path, line break,
// text) is unchanged keeps its vector's very bytes under its model; a changed section loses it and is
// embedded again by the next job; a removed note's vectors are gone; vectors are never relabelled as another
// model's; a vault without vectors is rebuilt as before; a rebuild killed on the way after emptying the index
// (an older tsm's, which committed as it went: simulated) leaves its vectors to the next sync that scans the
// whole vault (a partial one leaves them waiting); a `--full` killed by SIGKILL leaves every vector as it was.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openWriter, type Database as Db } from '../../src/index/db.js';
import { embedPending } from '../../src/index/embed-job.js';
import { NoteWriter } from '../../src/index/note-writer.js';
import { syncVault } from '../../src/index/sync.js';
import { VectorStore } from '../../src/index/vectors.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { tsm, writeFiles } from '../helpers/cli.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';
import { runAndKill } from '../resilience/processes.js';

const models = useTwoTinyModels('tsm-carry-');

const WORDS = ['antenna', 'garden', 'compost', 'piano', 'oven', 'battery', 'melody', 'dough', 'tomato', 'charger'];

function noteText(n: number): string {
  const w = WORDS[n % WORDS.length];
  return `# Note ${n}\n\n## About ${w}\n\n${w} ${w} and more ${w}\n\n## Other\n\nplain words here ${n}\n`;
}

/** A vault of `notes` notes (plus two with the same text: equal inputs), indexed; semantic off (not under test). */
async function vault(name: string, notes = 12, extra: Record<string, string> = {}): Promise<TsmConfig> {
  const dir = join(models.root, name);
  const files: Record<string, string> = { '.tsm/config.json': JSON.stringify({ semantic: false }), ...extra };
  for (let n = 0; n < notes; n++) files[`notes/n${String(n).padStart(2, '0')}.md`] = noteText(n);
  files['twins/same.md'] = '# Twin\n\nthe very same words\n';
  files['twins/other/same.md'] = '# Twin\n\nthe very same words\n';
  writeFiles(dir, files);
  const cfg = loadConfig({ vaultFlag: dir, env: {} });
  await syncVault(cfg);
  return cfg;
}

/** Every section's embedded input (as the job reads it) → its vector's bytes (base64) and model id. */
function vectorsByInput(db: Db): Map<string, { vec: string; model: number }[]> {
  const out = new Map<string, { vec: string; model: number }[]>();
  const rows = db
    .prepare('SELECT s.heading_path || char(10) || s.text AS input, v.vec, v.model FROM section_vectors v JOIN sections s ON s.id = v.id ORDER BY s.id')
    .all() as { input: string; vec: Buffer; model: number }[];
  for (const r of rows) out.set(r.input, [...(out.get(r.input) ?? []), { vec: r.vec.toString('base64'), model: r.model }]);
  return out;
}

function inputs(db: Db): string[] {
  return db.prepare('SELECT s.heading_path || char(10) || s.text FROM sections s ORDER BY s.id').pluck().all() as string[];
}

const carryTable = (db: Db) => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'carried_vectors'").get() !== undefined;
const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;

describe('vectors across tsm index --full', () => {
  it('keeps the vectors of unchanged sections (same bytes, same model), drops those of changed and removed ones', async () => {
    const cfg = await vault('v1');
    const { db } = openWriter(cfg.db);
    try {
      const first = await embedPending(db, models.embedder);
      const sections = count(db, 'SELECT count(*) FROM sections');
      expect(first).toMatchObject({ embedded: sections, remaining: 0 });
      const before = vectorsByInput(db);
      const model = new VectorStore(db).modelId(models.embedder.fingerprint)!;
      const oldIds = db.prepare('SELECT id FROM sections ORDER BY id').pluck().all();

      // One section changed (n01's "Other"), one note removed (n02), one note added; everything else as it was.
      writeFileSync(join(cfg.vault, 'notes/n01.md'), noteText(1).replace('plain words here 1', 'plain words changed'));
      unlinkSync(join(cfg.vault, 'notes/n02.md'));
      writeFileSync(join(cfg.vault, 'notes/zz-new.md'), '# Newcomer\n\nfresh words\n');
      const summary = await syncVault(cfg, { db, full: true });
      expect(summary).toMatchObject({ added: count(db, 'SELECT count(*) FROM notes'), removed: 0 });
      expect(carryTable(db)).toBe(false);

      const after = vectorsByInput(db);
      const now = inputs(db);
      const kept = now.filter((i) => before.has(i));
      const fresh = now.filter((i) => !before.has(i));
      // The changed section and the new note's section; the rest of n01 kept its vectors.
      expect(fresh).toHaveLength(2);
      expect(fresh.some((i) => i.includes('plain words changed'))).toBe(true);
      expect(fresh.some((i) => i.includes('fresh words'))).toBe(true);
      expect(now.some((i) => /plain words here 1$/.test(i))).toBe(false);
      // Every section with an unchanged input has the very vector it had, under the same model row.
      for (const input of kept) expect(after.get(input), input).toEqual(before.get(input));
      // Equal inputs (the twins) both got theirs.
      expect(after.get(now.find((i) => i.includes('the very same words'))!)).toHaveLength(2);
      // Nothing of a changed, new or removed section: the removed note's inputs are nowhere.
      expect(fresh.every((i) => !after.has(i))).toBe(true);
      expect(count(db, 'SELECT count(*) FROM section_vectors')).toBe(kept.length);
      expect(count(db, 'SELECT count(*) FROM section_vectors WHERE model != ' + model)).toBe(0);
      expect([...after.keys()].every((i) => now.includes(i))).toBe(true);
      // New section ids (the notes were written again); the vectors followed the inputs, not the ids.
      expect(db.prepare('SELECT id FROM sections ORDER BY id').pluck().all()).not.toEqual(oldIds);

      // The next job embeds exactly what changed.
      const next = await embedPending(db, models.embedder);
      expect(next).toMatchObject({ embedded: 2, remaining: 0, withVectors: now.length });
      expect(new VectorStore(db).modelId(models.embedder.fingerprint)).toBe(model);
    } finally {
      db.close();
    }
  });

  it('never gives a vector to another model: carried vectors stay their model’s, and a new model embeds everything', async () => {
    const cfg = await vault('v2', 6);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const m1 = new VectorStore(db).modelId(models.embedder.fingerprint)!;
      await syncVault(cfg, { db, full: true });
      const sections = count(db, 'SELECT count(*) FROM sections');
      expect(count(db, `SELECT count(*) FROM section_vectors WHERE model = ${m1}`)).toBe(sections);
      // The other model finds nothing of its own: it embeds every section, and the first model's vectors go.
      const m2run = await embedPending(db, models.other);
      expect(m2run).toMatchObject({ embedded: sections, remaining: 0 });
      const m2 = new VectorStore(db).modelId(models.other.fingerprint)!;
      expect(count(db, `SELECT count(*) FROM section_vectors WHERE model = ${m2}`)).toBe(sections);
      expect(new VectorStore(db).modelId(models.embedder.fingerprint)).toBeNull();
    } finally {
      db.close();
    }
  });

  it('a rebuild killed after emptying the index: another model in between takes the set-aside vectors with it', async () => {
    const cfg = await vault('v3', 6);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const sections = count(db, 'SELECT count(*) FROM sections');
      killedRebuild(db);
      expect(carryTable(db)).toBe(true);
      expect(count(db, 'SELECT count(*) FROM carried_vectors')).toBe(sections - 1); // the twins share one
      // Another model's job on the emptied index: it takes over the model table, and the first model's set-aside vectors go.
      await embedPending(db, models.other);
      expect(count(db, 'SELECT count(*) FROM carried_vectors')).toBe(0);
      await syncVault(cfg, { db });
      expect(carryTable(db)).toBe(false);
      expect(count(db, 'SELECT count(*) FROM section_vectors')).toBe(0);
      expect(await embedPending(db, models.other)).toMatchObject({ embedded: sections, remaining: 0 });
    } finally {
      db.close();
    }
  });

  it('a rebuild killed after emptying the index: a partial sync leaves the vectors waiting, the next whole-vault sync gives them back', async () => {
    const cfg = await vault('v4', 6);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const before = vectorsByInput(db);
      killedRebuild(db);
      // The watcher's kind of sync, of one path: that note is written, the others are not back yet.
      await syncVault(cfg, { db, paths: ['notes/n00.md'] });
      expect(count(db, 'SELECT count(*) FROM notes')).toBe(1);
      expect(carryTable(db)).toBe(true);
      await syncVault(cfg, { db });
      expect(carryTable(db)).toBe(false);
      expect(vectorsByInput(db)).toEqual(before);
      expect((await embedPending(db, models.embedder)).embedded).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a vault without vectors: nothing set aside, and the rebuild is what it was', async () => {
    const cfg = await vault('v5', 6);
    const { db } = openWriter(cfg.db);
    try {
      // By note and order, not by id: a rebuild gives its notes new ids (no old section id names a new section).
      const rows = () => db.prepare('SELECT n.path, s.ord, s.heading_path, s.text FROM sections s JOIN notes n ON n.id = s.note_id ORDER BY n.path, s.ord').all();
      const before = rows();
      killedRebuild(db);
      expect(carryTable(db)).toBe(false);
      const summary = await syncVault(cfg, { db });
      expect(summary.added).toBe(count(db, 'SELECT count(*) FROM notes'));
      expect(rows()).toEqual(before);
      expect(await syncVault(cfg, { db, full: true })).toMatchObject({ added: summary.added, removed: 0 });
      expect(rows()).toEqual(before);
      expect(carryTable(db)).toBe(false);
      expect(count(db, 'SELECT count(*) FROM section_vectors')).toBe(0);
    } finally {
      db.close();
    }
  });

  it('the built CLI: `tsm index --full --embed` embeds only what changed, and a SIGKILL mid-rebuild leaves every vector as it was', async () => {
    const dir = join(models.root, 'cli');
    const files: Record<string, string> = { '.tsm/config.json': JSON.stringify({ modelDir: '../m1', semantic: false }) };
    // Enough notes for a rebuild long enough to be killed in the middle (parsed in worker threads, written in batches).
    for (let n = 0; n < 1500; n++) files[`notes/${String(n).padStart(4, '0')}.md`] = `${noteText(n)}\n## More\n\n${'words of note '.repeat(40)}${n}\n`;
    writeFiles(dir, files);
    const first = tsm(['index', '--vault', dir, '--embed']);
    expect(first.code, first.stderr).toBe(0);
    // Four sections a note: the title's, "About …", "Other", "More".
    expect(first.stderr).toMatch(/embedded 6000 sections in [\d.]+ s; 6000 of 6000 have vectors/);
    const dbPath = join(dir, '.tsm', 'index.db');
    const before = readVectors(dbPath);

    const edited = join(dir, 'notes/0007.md');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('plain words here 7', 'other words now'));
    const full = tsm(['index', '--vault', dir, '--full', '--embed']);
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/embedded 1 section in [\d.]+ s; 6000 of 6000 have vectors/);

    // SIGKILL half way through a rebuild. It is one transaction (sync.ts), so no reader sees its middle:
    // the moment is taken from the time of one. The old index stays as it was, every vector with it.
    const started = performance.now();
    expect(tsm(['index', '--vault', dir, '--full']).code).toBe(0);
    const fullMs = performance.now() - started;
    const whole = readVectors(dbPath);
    const killed = await runAndKill(['index', '--vault', dir, '--full'], fullMs / 2);
    expect(killed.killed).toBe(true);
    expect(readVectors(dbPath)).toEqual(whole);
    const next = tsm(['index', '--vault', dir]);
    expect(next.code, next.stderr).toBe(0);
    const after = readVectors(dbPath);
    for (const [input, vec] of after) if (before.has(input)) expect(vec, input).toBe(before.get(input));
    const again = tsm(['index', '--vault', dir, '--embed', '--json']);
    expect(JSON.parse(again.stdout).embedding).toMatchObject({ embedded: 0, remaining: 0, withVectors: 6000 });
  }, 180_000);
});

/** What a `--full` killed right after its first transaction leaves: the index emptied, its rebuild begun. */
function killedRebuild(db: Db): void {
  const writer = new NoteWriter(db, ['.md']);
  writer.inTransaction(() => {
    writer.clearAll();
    writer.addPendingLinks('all');
    writer.beginBulkLoad();
  });
}

function readVectors(path: string): Map<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const out = new Map<string, string>();
    for (const r of db
      .prepare('SELECT s.heading_path || char(10) || s.text AS input, v.vec FROM section_vectors v JOIN sections s ON s.id = v.id')
      .iterate() as Iterable<{ input: string; vec: Buffer }>) {
      out.set(r.input, r.vec.toString('base64'));
    }
    return out;
  } finally {
    db.close();
  }
}
