// The vector store (src/index/vectors.ts): vectors follow their sections through the sync (a changed or
// deleted note drops them), another fingerprint's vectors are never read and storing a new model's
// deletes the old one's, a section rewritten while the model ran is not given the old text's vector,
// and brute-force search ranks notes by their best chunk.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWriter, type Database } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { VectorStore } from '../../src/index/vectors.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { indexFixtureVault } from '../helpers/fixture-vault.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A unit vector pointing mostly along axis `axis` (of 8), with a little of `other`. */
function unit(axis: number, other = (axis + 1) % 8, mix = 0.1): Float32Array {
  const v = new Float32Array(8);
  v[axis] = 1;
  v[other] += mix;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

async function vault(): Promise<{ cfg: TsmConfig; db: Database; store: VectorStore }> {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-vectors-'));
  const cfg = await indexFixtureVault(dir, {
    'a.md': { content: '# A\n\n## One\n\nalpha text\n\n## Two\n\nbeta text\n' },
    'b.md': { content: '# B\n\ngamma text\n' },
    'c.md': { content: '# C\n\ndelta text\n' },
  });
  const { db } = openWriter(cfg.db);
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { cfg, db, store: new VectorStore(db) };
}

/** Embeds every pending section with `vectorOf(text)` (chunk vectors), as the embedding job stores them. */
function embedAll(store: VectorStore, model: number, vectorOf: (text: string) => Float32Array[]): number {
  let n = 0;
  for (const s of store.pending(model, 1000)) if (store.put(model, s, vectorOf(s.text))) n++;
  return n;
}

const AXIS: Record<string, number> = { alpha: 0, beta: 1, gamma: 2, delta: 3, epsilon: 4 };
const byWord = (text: string) => [unit(AXIS[Object.keys(AXIS).find((w) => text.includes(w)) ?? 'epsilon'] ?? 7)];

describe('vector store', () => {
  it('ranks notes by their best section, reads only the current model, and re-embeds on a new fingerprint', async () => {
    const { db, store } = await vault();
    const m1 = store.useModel('model-1', 8);
    expect(store.counts(m1).embedded).toBe(0);
    const sections = store.counts(m1).sections;
    expect(embedAll(store, m1, byWord)).toBe(sections);
    expect(store.pending(m1, 10)).toEqual([]);

    const hits = store.nearest(m1, unit(1, 0), 10);
    // Note a by its section "Two" (beta), then the others; one hit per note.
    expect(hits[0].cos).toBeGreaterThan(0.95);
    expect(db.prepare('SELECT text FROM sections WHERE id = ?').pluck().get(hits[0].id)).toContain('beta');
    expect(new Set(hits.map((h) => h.noteId)).size).toBe(hits.length);
    expect(hits.length).toBe(3);
    expect(store.nearest(m1, unit(1, 0), 10, false).length).toBe(sections);

    // A new fingerprint: the old vectors are gone, nothing of model-1 is read, every section is pending.
    const m2 = store.useModel('model-2', 8);
    expect(store.modelId('model-1')).toBeNull();
    expect(store.counts(m2).embedded).toBe(0);
    expect(store.nearest(m2, unit(1, 0), 10)).toEqual([]);
    expect(store.pending(m2, 1000).length).toBe(sections);
    // Asking for the old model's vectors by its old id finds nothing.
    expect(store.nearest(m1, unit(1, 0), 10)).toEqual([]);
  });

  it('best chunk: a section of two chunks scores by the closer one', async () => {
    const { store } = await vault();
    const m = store.useModel('m', 8);
    const [first] = store.pending(m, 1);
    store.put(m, first, [unit(5), unit(6)]);
    const c = store.cosines(m, unit(6), [first.id]);
    expect(c.get(first.id)).toBeGreaterThan(0.99);
    // int8 rounding moves a cosine by about 0.005 at most
    expect(Math.abs((store.cosines(m, unit(5), [first.id]).get(first.id) ?? 0) - 1)).toBeLessThan(0.01);
  });

  it('a changed or deleted note drops its vectors with its sections; unchanged notes keep theirs', async () => {
    const { cfg, db, store } = await vault();
    const m = store.useModel('m', 8);
    embedAll(store, m, byWord);
    const before = store.counts(m);
    writeFileSync(join(cfg.vault, 'b.md'), '# B\n\nepsilon now\n');
    unlinkSync(join(cfg.vault, 'c.md'));
    await syncVault(cfg, { db });
    const after = store.counts(m);
    expect(after.sections).toBe(before.sections - 1);
    expect(after.embedded).toBe(after.sections - 1); // b's new section lacks one
    const pending = store.pending(m, 10);
    expect(pending.map((p) => p.text)).toEqual(['B\nepsilon now']);
  });

  it('a section rewritten while the model ran keeps no vector of its old text', async () => {
    const { cfg, db, store } = await vault();
    const m = store.useModel('m', 8);
    const before = store.pending(m, 1000).find((s) => s.text.includes('gamma'))!;
    writeFileSync(join(cfg.vault, 'b.md'), '# B\n\ngamma changed\n');
    await syncVault(cfg, { db });
    expect(store.put(m, before, byWord(before.text))).toBe(false);
    expect(store.cosines(m, unit(2), [before.id]).size).toBe(0);
  });
});
