// The embedding job and the neural ranker through the real runtime (src/embed/embedder.ts, onnxruntime)
// with the tiny generated model (test/helpers/tiny-model.ts): every section gets vectors, a stopped run
// resumes where it stopped, another model re-embeds and its vectors never meet the old query's, and a
// query vector reorders or (neuralAdds) extends the lexical results; a vector of another model is ignored.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embed/embedder.js';
import { openWriter, type Database } from '../../src/index/db.js';
import { BackgroundEmbedding, embedPending } from '../../src/index/embed-job.js';
import { syncVault } from '../../src/index/sync.js';
import { VectorStore } from '../../src/index/vectors.js';
import { search } from '../../src/search/search.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { indexFixtureVault } from '../helpers/fixture-vault.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';

const models = useTwoTinyModels('tsm-embedjob-');

const WORDS = ['antenna', 'garden', 'compost', 'piano', 'oven', 'battery', 'melody', 'dough', 'tomato', 'charger'];

async function vault(name: string, notes = 12): Promise<{ cfg: TsmConfig; db: Database }> {
  const files: Record<string, { content: string }> = {};
  for (let n = 0; n < notes; n++) {
    const w = WORDS[n % WORDS.length];
    files[`notes/n${String(n).padStart(2, '0')}.md`] = {
      content: `# Note ${n}\n\n## About ${w}\n\n${w} ${w} and more ${w}\n\n## Other\n\nplain words here ${n}\n`,
    };
  }
  const cfg = await indexFixtureVault(join(models.root, name), files);
  return { cfg, db: openWriter(cfg.db).db };
}

describe('embedding job', () => {
  it('embeds every section, resumes a stopped run, and re-embeds for another model', async () => {
    const { db } = await vault('v1');
    const sections = (db.prepare('SELECT count(*) FROM sections').pluck().get() as number);
    // Stopped after its first batch (of 5): what was committed stays, the rest is left.
    const stop = new AbortController();
    const first = await embedPending(db, models.embedder, { batch: 5, onProgress: (done) => done >= 5 && stop.abort(), signal: stop.signal });
    expect(first.stopped).toBe(true);
    expect(first.embedded).toBe(5);
    expect(first.remaining).toBe(sections - 5);
    const second = await embedPending(db, models.embedder);
    expect(second.embedded).toBe(sections - 5);
    expect(second).toMatchObject({ remaining: 0, withVectors: sections, stopped: false });
    expect((await embedPending(db, models.embedder)).embedded).toBe(0);

    const store = new VectorStore(db);
    expect(store.modelOf(models.embedder.fingerprint, models.embedder.spec.dims)).not.toBeNull();
    // Another model: its run replaces every vector, and the first model's are gone.
    expect(models.other.fingerprint).not.toBe(models.embedder.fingerprint);
    const again = await embedPending(db, models.other);
    expect(again.embedded).toBe(sections);
    expect(store.modelId(models.embedder.fingerprint)).toBeNull();
    db.close();
  });

  it('stopped while another writer holds the lock, before it began: a stopped run with what is left, not an error', async () => {
    // It threw WaitStopped ("stopped while waiting for the write lock"): a Ctrl-C of `tsm index --embed`
    // waiting on a `tsm index --full` ended in an error line instead of its summary.
    const { cfg, db } = await vault('v6', 4);
    const sections = db.prepare('SELECT count(*) FROM sections').pluck().get() as number;
    const other = openWriter(cfg.db).db;
    other.exec('BEGIN IMMEDIATE');
    try {
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const s = await embedPending(db, models.embedder, { signal: stop.signal });
      expect(s).toMatchObject({ embedded: 0, stopped: true, remaining: sections, total: sections, withVectors: 0 });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await embedPending(db, models.embedder)).embedded).toBe(sections);
    db.close();
  });

  it('a model that fails on sections leaves them without vectors and goes on; the next run retries them', async () => {
    const { db } = await vault('v4', 6);
    const sections = db.prepare('SELECT count(*) FROM sections').pluck().get() as number;
    const doomed = await loadEmbedder(join(models.root, 'm1'));
    // Closed under the job after its first batch: every later section fails in the runtime.
    const s = await embedPending(db, doomed, { batch: 4, onProgress: (done) => void (done >= 4 && doomed.close()) });
    expect(s).toMatchObject({ embedded: 4, failed: sections - 4, remaining: sections - 4, stopped: false });
    expect(s.firstError).toBeTruthy();
    const again = await embedPending(db, models.embedder); // same fingerprint: only the failed ones
    expect(again).toMatchObject({ embedded: sections - 4, failed: 0, remaining: 0 });
    db.close();
  });

  it('in the background: a sync that writes is followed by vectors for what it wrote', async () => {
    const { cfg, db } = await vault('v2', 4);
    const notices: string[] = [];
    const bg = new BackgroundEmbedding(() => db, models.embedder, (m) => notices.push(m));
    bg.kick();
    bg.kick(); // while running: one more run after it, not a second at once
    await bg.idle();
    const model = new VectorStore(db).modelId(models.embedder.fingerprint)!;
    expect(new VectorStore(db).pendingCount(model)).toBe(0);
    writeFileSync(join(cfg.vault, 'notes', 'new.md'), '# New\n\nfresh antenna words\n');
    await syncVault(cfg, { db });
    expect(new VectorStore(db).pendingCount(model)).toBe(1);
    bg.kick();
    await bg.idle();
    expect(new VectorStore(db).pendingCount(model)).toBe(0);
    expect(notices.some((n) => /embedded \d+ section/.test(n))).toBe(true);
    await bg.close();
    db.close();
  });

  it("in the background: another model's vectors stored since by another process stay; the resident says so once and embeds nothing more", async () => {
    // A running watcher of the old model deleted the vectors `tsm index --embed` had just made with the
    // vault's new model, at its next batch, and embedded every section again with its own.
    const { cfg, db } = await vault('v6', 4);
    const sections = db.prepare('SELECT count(*) FROM sections').pluck().get() as number;
    const old = await embedPending(db, models.other); // the index held the model the vault used before
    expect(old.withVectors).toBe(sections);
    const notices: string[] = [];
    const bg = new BackgroundEmbedding(() => db, models.embedder, (m) => notices.push(m));
    bg.kick(); // a resident's first run: its model is the vault's now, and replaces the old one's vectors
    await bg.idle();
    const store = new VectorStore(db);
    expect(store.modelId(models.other.fingerprint)).toBeNull();
    expect(store.counts(store.modelId(models.embedder.fingerprint)).embedded).toBe(sections);
    // The vault's model changed, and `tsm index --embed` embedded with it, while the resident runs.
    expect((await embedPending(db, models.other)).withVectors).toBe(sections);
    writeFileSync(join(cfg.vault, 'notes', 'new.md'), '# New\n\nfresh antenna words\n');
    await syncVault(cfg, { db });
    for (let i = 0; i < 2; i++) {
      bg.kick();
      await bg.idle();
    }
    const kept = store.modelId(models.other.fingerprint);
    expect(kept).not.toBeNull();
    expect(store.modelId(models.embedder.fingerprint)).toBeNull();
    expect(store.counts(kept)).toEqual({ embedded: sections, sections: sections + 1 });
    const said = notices.filter((n) => /another model/.test(n));
    expect(said).toEqual([
      `the index now holds vectors of another model (tsm-test/tiny-2@${models.other.spec.revision}), stored by another process: tsm-test/tiny embeds nothing more here; restart \`tsm watch\` / \`tsm serve\` to load the vault's model`,
    ]);
    // `tsm index --embed` still takes the index over for the model it runs with, as before.
    expect((await embedPending(db, models.embedder)).withVectors).toBe(sections + 1);
    await bg.close();
    db.close();
  });

  it('waits for another writer on a timer: the process goes on meanwhile, the vectors land when the lock is free', async () => {
    const { cfg, db } = await vault('v5', 4);
    // Another connection (another process's `tsm index --full`, as far as SQLite can tell) holds the lock.
    const other = openWriter(cfg.db).db;
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    let done = false;
    const run = embedPending(db, models.embedder).then((s) => ((done = true), s));
    await new Promise((resolve) => setTimeout(resolve, 600));
    // SQLite's own busy wait would have held this thread for its 10 s: no timer would have fired, and the
    // run could not have been waiting here.
    expect(ticks).toBeGreaterThan(10);
    expect(done).toBe(false);
    expect(other.prepare('SELECT count(*) FROM section_vectors').pluck().get()).toBe(0);
    other.exec('COMMIT');
    const s = await run;
    clearInterval(ticker);
    expect(s).toMatchObject({ remaining: 0, stopped: false });
    expect(s.embedded).toBeGreaterThan(0);

    // Stopped while it waits: it gives up without writing, and the background job says nothing of it.
    writeFileSync(join(cfg.vault, 'notes', 'new.md'), '# New\n\nfresh antenna words\n');
    await syncVault(cfg, { db });
    other.exec('BEGIN IMMEDIATE');
    const notices: string[] = [];
    const bg = new BackgroundEmbedding(() => db, models.embedder, (m) => notices.push(m));
    bg.kick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await bg.close();
    other.exec('COMMIT');
    const model = new VectorStore(db).modelId(models.embedder.fingerprint)!;
    expect(new VectorStore(db).pendingCount(model)).toBe(1);
    expect(notices).toEqual([]);
    other.close();
    db.close();
  });
});

describe('the neural ranker in search', () => {
  it('reorders the lexical results by default, may add notes with neuralAdds, and ignores another model’s vector', async () => {
    const { db } = await vault('v3', 20);
    await embedPending(db, models.embedder);
    const query = 'antenna';
    const plain = search(db, { query, limit: 10 });
    const qv = { fingerprint: models.embedder.fingerprint, vector: await models.embedder.embedQuery(query) };
    const neural = search(db, { query, limit: 10, queryVector: qv });
    // Reorder only: the same notes as the lexical search (their order may change).
    expect(neural.hits.map((h) => h.path).sort()).toEqual(plain.hits.map((h) => h.path).sort());
    expect(neural.hits.every((h, i) => h.score !== plain.hits[i].score || h.path === plain.hits[i].path)).toBe(true);
    // With its weight the scores change (one more RRF list).
    expect(neural.hits[0].score).toBeGreaterThan(plain.hits[0].score);

    // Adding: notes without the word come in, ranked below the lexical matches at this weight.
    const added = search(db, { query, limit: 20, queryVector: qv, tuning: { neuralAdds: 'always' } });
    expect(added.hits.length).toBeGreaterThan(plain.hits.length);
    expect(added.hits.slice(0, plain.hits.length).map((h) => h.path).sort()).toEqual(plain.hits.map((h) => h.path).sort());
    // …and filters hold for them as for every ranker.
    const filtered = search(db, { query, limit: 20, queryVector: qv, tuning: { neuralAdds: 'always' }, flags: { path: ['notes/n1'] } });
    expect(filtered.hits.every((h) => h.path.startsWith('notes/n1'))).toBe(true);

    // A vector of a model the index has no vectors of: exactly the lexical answer.
    const foreign = { fingerprint: models.other.fingerprint, vector: await models.other.embedQuery(query) };
    expect(search(db, { query, limit: 10, queryVector: foreign, tuning: { neuralAdds: 'always' } })).toEqual(plain);
    // Weight 0: off.
    expect(search(db, { query, limit: 10, queryVector: qv, tuning: { neuralWeight: 0 } })).toEqual(plain);
    db.close();
  });
});
