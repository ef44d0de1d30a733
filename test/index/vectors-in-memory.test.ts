// A resident's copy of the index's vectors (src/index/vectors-in-memory.ts) and the notes the neural ranker
// adds from it: the copy ranks exactly as the stored vectors do, it is read off the query's path and again
// after the index changes, a list made for one index is ignored by a search of another, an id the index no
// longer holds never becomes a hit, and no index file is ever made by reading.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWriter, type Database } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { indexStamp, VectorsInMemory } from '../../src/index/vectors-in-memory.js';
import { NEAREST_NOTES, VectorStore } from '../../src/index/vectors.js';
import { search } from '../../src/search/search.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { indexFixtureVault } from '../helpers/fixture-vault.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A unit vector along `axis` (of 8) with a little of the next axis. */
function unit(axis: number): Float32Array {
  const v = new Float32Array(8);
  v[axis] = 1;
  v[(axis + 1) % 8] = 0.1;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

const AXIS: Record<string, number> = { alpha: 0, beta: 1, gamma: 2, delta: 3 };
const byWord = (text: string) => [unit(AXIS[Object.keys(AXIS).find((w) => text.includes(w)) ?? ''] ?? 7)];
const FINGERPRINT = 'test-model';

async function vault(): Promise<{ cfg: TsmConfig; db: Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-vecmem-'));
  const cfg = await indexFixtureVault(dir, {
    'a.md': { content: '# A\n\n## One\n\nalpha text\n\n## Two\n\nbeta text\n' },
    // b is about alpha in other words: only its vector says so.
    'b.md': { content: '# B\n\nfirst letter of the greek script\n' },
    'c.md': { content: '# C\n\ngamma text\n' },
    'd.md': { content: '# D\n\ndelta text\n' },
  });
  const { db } = openWriter(cfg.db);
  const store = new VectorStore(db);
  const model = store.useModel(FINGERPRINT, 8);
  for (const s of store.pending(model, 1000)) store.put(model, s, byWord(s.text.replace('first letter', 'alpha')));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { cfg, db };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('vectors in memory', () => {
  it('ranks exactly as the stored vectors do, and only for the model it holds', async () => {
    const { cfg, db } = await vault();
    const copy = new VectorsInMemory(cfg.db);
    cleanups.push(() => copy.close());
    copy.load();
    const store = new VectorStore(db);
    const model = store.modelOf(FINGERPRINT, 8) as number;
    expect(copy.size).toBe(store.counts(model).embedded);
    for (let axis = 0; axis < 8; axis++) {
      const q = unit(axis);
      const list = copy.nearest(FINGERPRINT, q);
      expect(list?.ids).toEqual(store.nearest(model, q, NEAREST_NOTES).map((h) => h.id));
    }
    expect(copy.nearest('another-model', unit(0))).toBeNull();
    expect(copy.nearest(FINGERPRINT, new Float32Array(4))).toBeNull();
  });

  it('is read off the query path, and read again once the index has changed', async () => {
    const { cfg, db } = await vault();
    const copy = new VectorsInMemory(cfg.db, () => {}, 300);
    cleanups.push(() => copy.close());
    // The first query finds no copy: it is answered without one, and the read follows it.
    expect(copy.nearest(FINGERPRINT, unit(0))).toBeNull();
    await tick();
    const before = copy.nearest(FINGERPRINT, unit(3));
    expect(before?.ids.length).toBe(4);
    // d.md's vector goes (as when the model changes): the copy still lists its section until it is read
    // again, not sooner than its reload interval (here 300 ms) after the last read.
    const dId = before!.ids[0];
    db.prepare('DELETE FROM section_vectors WHERE id = ?').run(dId);
    expect(copy.nearest(FINGERPRINT, unit(3))?.ids).toContain(dId);
    await tick();
    expect(copy.nearest(FINGERPRINT, unit(3))?.ids).toContain(dId); // 300 ms have not passed
    await new Promise((r) => setTimeout(r, 400));
    expect(copy.nearest(FINGERPRINT, unit(3))?.ids).not.toContain(dId);
    expect(copy.size).toBe(new VectorStore(db).counts(new VectorStore(db).modelId(FINGERPRINT)).embedded);
  });

  it('adds the notes it lists to a search of its own index only, and never an id the index no longer holds', async () => {
    const { cfg, db } = await vault();
    const copy = new VectorsInMemory(cfg.db);
    cleanups.push(() => copy.close());
    copy.load();
    const q = unit(0);
    const plain = search(db, { query: 'alpha', limit: 10 });
    expect(plain.hits.map((h) => h.path)).toEqual(['a.md']);
    const nearest = copy.nearest(FINGERPRINT, q)!;
    const listed = search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q, nearest } });
    // b.md has no word of the query: only the listed vectors bring it.
    expect(listed.hits.map((h) => h.path)).toContain('b.md');
    // The same as reading every stored vector at search time.
    const scanned = search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q }, tuning: { neuralAdds: 'always' } });
    expect(listed).toEqual(scanned);
    // Without a list (or 'never'), the neural ranker only reorders what the lexical rankers found.
    const reordered = search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q } });
    expect(reordered.hits.map((h) => h.path)).toEqual(['a.md']);
    expect(search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q, nearest }, tuning: { neuralAdds: 'never' } })).toEqual(reordered);
    // A list made for another index file: ignored.
    const foreign = { fingerprint: FINGERPRINT, vector: q, nearest: { ...nearest, index: '1:2' } };
    expect(search(db, { query: 'alpha', limit: 10, queryVector: foreign })).toEqual(reordered);
    // The same file rebuilt (tsm index --full hands section ids out again): a list made before is ignored
    // until the copy is read again.
    await syncVault(cfg, { db, full: true });
    expect(search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q, nearest } }).hits.map((h) => h.path)).toEqual(['a.md']);
    copy.load();
    const fresh = copy.nearest(FINGERPRINT, q)!;
    expect(fresh.index).not.toBe(nearest.index);
    expect(search(db, { query: 'alpha', limit: 10, queryVector: { fingerprint: FINGERPRINT, vector: q, nearest: fresh } }).hits.map((h) => h.path)).toContain('b.md');
    // Ids of sections the index no longer holds (a copy seconds old): no hit, no error.
    const gone = { fingerprint: FINGERPRINT, vector: q, nearest: { ...fresh, ids: [...fresh.ids.map((id) => id + 7), 999 * 2 ** 20] } };
    expect(search(db, { query: 'alpha', limit: 10, queryVector: gone }).hits.map((h) => h.path)).toEqual(['a.md']);
  });

  it('reads nothing, and makes no file, where there is no index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsm-vecmem-none-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'index.db');
    const notices: string[] = [];
    const copy = new VectorsInMemory(file, (m) => notices.push(m));
    cleanups.push(() => copy.close());
    copy.load();
    expect(copy.nearest(FINGERPRINT, unit(0))).toBeNull();
    expect(existsSync(file)).toBe(false);
    expect(notices).toEqual([]);
    expect(indexStamp(file)).toBe('-|-');
  });
});
