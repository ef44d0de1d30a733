// Neural vectors across an edit (src/index/vector-carry.ts NoteVectors, used by note-writer.ts writeNote),
// through the real sync (a whole-vault scan, and the watcher's sync of one path) and the real embedding job
// with the tiny generated model: the sections of an edited note whose embedded input (heading path, line
// break, text) is unchanged keep their vector's very bytes under its model, wherever they moved in the note;
// a changed, renamed or new section has none and is the only thing the next job embeds; a note without
// vectors is written as before.
import { renameSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWriter, type Database as Db } from '../../src/index/db.js';
import { embedPending } from '../../src/index/embed-job.js';
import { syncVault } from '../../src/index/sync.js';
import { VectorStore } from '../../src/index/vectors.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { writeFiles } from '../helpers/cli.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';

const models = useTwoTinyModels('tsm-editcarry-');

const PARTS = ['antenna garden', 'compost piano', 'oven battery', 'melody dough', 'tomato charger'];

/** A note of a title section and one `## Part i` section per entry of `parts` (in that order). */
function noteText(title: string, parts: [string, string][]): string {
  return `# ${title}\n\nintro words\n\n${parts.map(([h, body]) => `## ${h}\n\n${body}\n`).join('\n')}`;
}

const LONG: [string, string][] = PARTS.map((p, i) => [`Part ${i}`, `${p} and more ${p}`]);

async function vault(name: string): Promise<TsmConfig> {
  const dir = join(models.root, name);
  writeFiles(dir, {
    '.tsm/config.json': JSON.stringify({ semantic: false }),
    'notes/long.md': noteText('Long', LONG),
    'notes/other.md': noteText('Other', [['Only', 'something else entirely']]),
  });
  const cfg = loadConfig({ vaultFlag: dir, env: {} });
  await syncVault(cfg);
  return cfg;
}

/** Writes a note and moves its mtime on, so the sync's stat check sees the change even at equal size. */
let tick = 0;
function edit(cfg: TsmConfig, path: string, text: string): void {
  const abs = join(cfg.vault, path);
  writeFileSync(abs, text);
  const t = Date.now() / 1000 + 10 + ++tick;
  utimesSync(abs, t, t);
}

interface Row {
  id: number;
  input: string;
  vec: string | null;
  model: number | null;
}

/** Every section: id, embedded input (as the job reads it), its vector's bytes (base64) and model, or nulls. */
function rows(db: Db): Row[] {
  return (
    db
      .prepare(
        `SELECT s.id, s.heading_path || char(10) || s.text AS input, v.vec, v.model
         FROM sections s LEFT JOIN section_vectors v ON v.id = s.id ORDER BY s.id`,
      )
      .all() as { id: number; input: string; vec: Buffer | null; model: number | null }[]
  ).map((r) => ({ ...r, vec: r.vec === null ? null : r.vec.toString('base64') }));
}

const byInput = (rs: Row[]) => new Map(rs.map((r) => [r.input, r]));
const missing = (rs: Row[]) => rs.filter((r) => r.vec === null).map((r) => r.input);

/** Syncs as `how` says: the whole vault (tsm index) or just the path (the watcher, --files-from-stdin). */
async function sync(cfg: TsmConfig, db: Db, how: 'scan' | 'path', paths: string | string[] = 'notes/long.md') {
  return how === 'scan' ? syncVault(cfg, { db }) : syncVault(cfg, { db, paths: typeof paths === 'string' ? [paths] : paths });
}

describe.each(['scan', 'path'] as const)('vectors across an edit (%s sync)', (how) => {
  it('an edited section loses its vector, a new one has none; every other section keeps its exact bytes and model', async () => {
    const cfg = await vault(`edit-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      const first = await embedPending(db, models.embedder);
      expect(first.remaining).toBe(0);
      const model = new VectorStore(db).modelId(models.embedder.fingerprint)!;
      const before = rows(db);

      // Part 2's text changed; a Part 5 appended.
      const parts: [string, string][] = LONG.map(([h, b], i) => [h, i === 2 ? 'oven battery rewritten' : b]);
      edit(cfg, 'notes/long.md', noteText('Long', [...parts, ['Part 5', 'brand new part']]));
      expect(await sync(cfg, db, how)).toMatchObject({ updated: 1, added: 0 });

      const after = rows(db);
      expect(missing(after).sort()).toEqual(['Long > Part 2\noven battery rewritten', 'Long > Part 5\nbrand new part']);
      const old = byInput(before);
      for (const r of after) {
        if (r.vec === null) continue;
        // Same input, same bytes, same model row — under a new id: a rewritten note's sections get ids past
        // its old ones, so an id handed out before the edit names nothing (note-writer.ts nextSectionBase).
        const was = old.get(r.input)!;
        expect({ input: r.input, vec: r.vec, model: r.model }, r.input).toEqual({ input: was.input, vec: was.vec, model: was.model });
        if (r.input.startsWith('Long')) expect(r.id).not.toBe(was.id);
        else expect(r.id).toBe(was.id); // the other note was not rewritten: its ids stay valid
        expect(r.model).toBe(model);
      }
      expect(after.filter((r) => r.vec !== null)).toHaveLength(before.length - 1);

      const next = await embedPending(db, models.embedder);
      expect(next).toMatchObject({ embedded: 2, remaining: 0, withVectors: after.length });
    } finally {
      db.close();
    }
  });

  it('reordered sections: the vectors follow their text to the new section ids', async () => {
    const cfg = await vault(`reorder-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const before = byInput(rows(db));
      edit(cfg, 'notes/long.md', noteText('Long', [...LONG].reverse()));
      await sync(cfg, db, how);
      const after = rows(db);
      expect(missing(after)).toEqual([]);
      let moved = 0;
      for (const r of after) {
        const was = before.get(r.input)!;
        expect({ vec: r.vec, model: r.model }, r.input).toEqual({ vec: was.vec, model: was.model });
        if (r.id !== was.id) moved++;
      }
      expect(moved).toBe(6); // every section of the rewritten note (its intro and 5 parts) has a new id
      expect((await embedPending(db, models.embedder)).embedded).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a renamed title or heading is a new input: the sections under it lose their vectors', async () => {
    const cfg = await vault(`rename-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const before = byInput(rows(db));

      // One heading renamed: that section alone.
      edit(cfg, 'notes/long.md', noteText('Long', LONG.map(([h, b], i) => [i === 3 ? 'Renamed part' : h, b])));
      await sync(cfg, db, how);
      let after = rows(db);
      expect(missing(after)).toEqual(['Long > Renamed part\nmelody dough and more melody dough']);
      for (const r of after) if (r.vec !== null) expect(r.vec).toBe(before.get(r.input)!.vec);

      // The title renamed: it is in every section's heading path, so the whole note is new input.
      edit(cfg, 'notes/long.md', noteText('Longer', LONG));
      await sync(cfg, db, how);
      after = rows(db);
      const note = after.filter((r) => r.input.startsWith('Longer'));
      expect(note).toHaveLength(LONG.length + 1);
      expect(note.every((r) => r.vec === null)).toBe(true);
      // The other note is untouched.
      expect(after.filter((r) => r.vec !== null).map((r) => r.input)).toEqual(['Other\nintro words', 'Other > Only\nsomething else entirely']);
      expect((await embedPending(db, models.embedder)).embedded).toBe(LONG.length + 1);
    } finally {
      db.close();
    }
  });

  it('a moved or renamed file keeps its sections’ vectors (same input); what no note claims goes at the next whole scan', async () => {
    const cfg = await vault(`move-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const before = byInput(rows(db));
      const carried = () => db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'carried_vectors'").pluck().get();
      // Moved to another folder under another file name; its title comes from its H1, so its inputs are unchanged.
      renameSync(join(cfg.vault, 'notes/long.md'), join(cfg.vault, 'archive-long.md'));
      expect(await sync(cfg, db, how, ['notes/long.md', 'archive-long.md'])).toMatchObject({ added: 1, removed: 1 });
      const after = rows(db);
      expect(missing(after)).toEqual([]);
      for (const r of after) expect({ vec: r.vec, model: r.model }, r.input).toEqual({ vec: before.get(r.input)!.vec, model: before.get(r.input)!.model });
      expect((await embedPending(db, models.embedder)).embedded).toBe(0);
      // A whole scan drops what waited; a watcher's batch leaves it for a later note of the same input.
      expect(carried()).toBe(how === 'scan' ? 0 : 1);
      // Removed for good: nothing of it goes to a note of other text, and the next whole scan drops it.
      unlinkSync(join(cfg.vault, 'notes/other.md'));
      writeFileSync(join(cfg.vault, 'notes/new.md'), noteText('New', [['Only', 'not the same words']]));
      await sync(cfg, db, how, ['notes/other.md', 'notes/new.md']);
      expect(missing(rows(db)).sort()).toEqual(['New\nintro words', 'New > Only\nnot the same words']);
      await syncVault(cfg, { db });
      expect(carried()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('equal inputs within a note both get the vector back; none goes to a section of another text', async () => {
    const cfg = await vault(`twins-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      // Two sections of one input (same heading path and text) before the edit, and after it.
      const twin: [string, string] = ['Twin', 'the very same words'];
      edit(cfg, 'notes/long.md', noteText('Long', [twin, twin, ['Tail', 'tail words']]));
      await sync(cfg, db, how);
      await embedPending(db, models.embedder);
      const vec = byInput(rows(db)).get('Long > Twin\nthe very same words')!.vec;
      edit(cfg, 'notes/long.md', noteText('Long', [['Tail', 'tail words changed'], twin, twin]));
      await sync(cfg, db, how);
      const after = rows(db);
      expect(after.filter((r) => r.input === 'Long > Twin\nthe very same words').map((r) => r.vec)).toEqual([vec, vec]);
      expect(missing(after)).toEqual(['Long > Tail\ntail words changed']);
    } finally {
      db.close();
    }
  });

  it('a note without vectors is written as before: no vectors appear, and the sections are those of a fresh build', async () => {
    const cfg = await vault(`plain-${how}`);
    const { db } = openWriter(cfg.db);
    try {
      const parts: [string, string][] = LONG.map(([h, b], i) => [h, i === 1 ? 'changed words' : b]).reverse() as [string, string][];
      edit(cfg, 'notes/long.md', noteText('Long', parts));
      expect(await sync(cfg, db, how)).toMatchObject({ updated: 1 });
      const after = rows(db);
      expect(after.every((r) => r.vec === null)).toBe(true);
      expect(db.prepare('SELECT count(*) FROM section_vectors').pluck().get()).toBe(0);
      const fresh = loadConfig({ vaultFlag: cfg.vault, env: {} });
      const clean = openWriter(join(models.root, `plain-${how}-fresh.db`));
      try {
        await syncVault({ ...fresh, db: join(models.root, `plain-${how}-fresh.db`) }, { db: clean.db });
        // The same rows in the same order; only the ids differ (the rewritten note's are past its old ones).
        const noIds = (rs: Row[]) => rs.map(({ id: _id, ...r }) => r);
        expect(noIds(rows(clean.db))).toEqual(noIds(after));
      } finally {
        clean.db.close();
      }
    } finally {
      db.close();
    }
  });
});

describe('vectors across an edit: models', () => {
  it('a vector goes back only under the model that made it; another model embeds everything', async () => {
    const cfg = await vault('models');
    const { db } = openWriter(cfg.db);
    try {
      await embedPending(db, models.embedder);
      const m1 = new VectorStore(db).modelId(models.embedder.fingerprint)!;
      const total = rows(db).length;
      await embedPending(db, models.other); // takes over: m1 and its vectors are gone
      const m2 = new VectorStore(db).modelId(models.other.fingerprint)!;
      expect(m2).not.toBe(m1);
      const before = byInput(rows(db));
      edit(cfg, 'notes/long.md', noteText('Long', [...LONG].reverse()));
      await syncVault(cfg, { db, paths: ['notes/long.md'] });
      const after = rows(db);
      expect(after.map((r) => r.model)).toEqual(after.map(() => m2));
      for (const r of after) expect(r.vec).toBe(before.get(r.input)!.vec);
      expect(after).toHaveLength(total);
    } finally {
      db.close();
    }
  });
});
