// `tsm watch` retrains the semantic model in a worker thread, so file events keep being indexed meanwhile:
// the worker reads the sections through its own read-only connection (WAL: it never blocks the writer),
// trains, and hands the vectors back; the watcher's connection stores them between two batches
// (storeTrained re-embeds the sections written since the worker's snapshot).
import { Worker } from 'node:worker_threads';
import { findWorkerScript } from '../../parse/pool.js';
import { openReader, type Database } from '../db.js';
import { train, TRAIN_DEFAULTS } from './model.js';
import type { Trained } from './types.js';
import { retrainDue, storeTrained } from './refresh.js';
import { SemanticStore } from './store.js';
import { collectGarbage } from './collect-garbage.js';

/** The bundled worker entry (src/index/semantic/train-worker.ts). */
export const TRAIN_WORKER = 'semantic-worker.js';

/** A training's result in transferable form: one buffer per kind instead of 60k small ones. */
export interface PackedTraining {
  snapshotSeq: number;
  sectionsNow: number;
  trained: {
    dims: number;
    words: string[];
    idf: Float32Array;
    wordBytes: Uint8Array;
    sections: number;
    sectionIds: Float64Array;
    /** 1: the section has a vector (dims bytes at its place), 0: none of its words is known. */
    hasVector: Uint8Array;
    sectionBytes: Uint8Array;
  } | null;
}

/** Trains from the index at `dbPath` (any thread), read in one snapshot. */
export function trainFromIndex(dbPath: string): PackedTraining {
  const db = openReader(dbPath);
  try {
    return db.transaction(() => {
      const store = new SemanticStore(db);
      const snapshotSeq = store.state()?.seq ?? 0;
      const sectionsNow = store.sectionCount();
      return { snapshotSeq, sectionsNow, trained: pack(train(store.allSectionTexts(), TRAIN_DEFAULTS)) };
    })();
  } finally {
    db.close();
  }
}

function pack(t: Trained | null): PackedTraining['trained'] {
  if (!t) return null;
  const { dims } = t.model;
  const wordBytes = new Uint8Array(t.model.words.length * dims);
  t.model.vectors.forEach((v, i) => wordBytes.set(v, i * dims));
  const ids = [...t.sectionVectors.keys()];
  const hasVector = new Uint8Array(ids.length);
  const sectionBytes = new Uint8Array(ids.length * dims);
  ids.forEach((id, i) => {
    const v = t.sectionVectors.get(id) as Buffer;
    hasVector[i] = v.length ? 1 : 0;
    sectionBytes.set(v, i * dims);
  });
  return { dims, words: t.model.words, idf: t.model.idf, wordBytes, sections: t.model.sections, sectionIds: Float64Array.from(ids), hasVector, sectionBytes };
}

export function unpack(p: PackedTraining['trained']): Trained | null {
  if (!p) return null;
  const view = (bytes: Uint8Array, i: number, n: number) => Buffer.from(bytes.buffer, bytes.byteOffset + i * n, n);
  const sectionVectors = new Map<number, Buffer>();
  p.sectionIds.forEach((id, i) => sectionVectors.set(id, p.hasVector[i] ? view(p.sectionBytes, i, p.dims) : Buffer.alloc(0)));
  return {
    model: { dims: p.dims, words: p.words, idf: p.idf, vectors: p.words.map((_, i) => view(p.wordBytes, i, p.dims)), sections: p.sections },
    sectionVectors,
  };
}

/**
 * Trains from the index at `dbPath` in a worker thread (on this thread, after the current turn, when no
 * built worker exists: code running from sources, as under vitest).
 */
export function trainInWorker(dbPath: string): { result: Promise<PackedTraining>; stop: () => Promise<void> } {
  const url = findWorkerScript(TRAIN_WORKER);
  if (!url) {
    return {
      result: new Promise((resolve, reject) =>
        setImmediate(() => {
          try {
            resolve(trainFromIndex(dbPath));
          } catch (err) {
            reject(err);
          }
        }),
      ),
      stop: async () => {},
    };
  }
  const worker = new Worker(url, { workerData: { dbPath } });
  const result = new Promise<PackedTraining>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the training worker exited with code ${code}`)));
  });
  // A caller that fails before it awaits the result must not leave an unhandled rejection behind; the
  // worker (a few seconds of work) then finishes and exits on its own.
  result.catch(() => {});
  return { result, stop: async () => void (await worker.terminate()) };
}

/**
 * One retraining at a time. `check` (after each batch) starts one when due; when it finishes, `onReady`
 * asks the owner to call `check` again from a point where no batch is being written, which stores it.
 */
export class BackgroundTrainer {
  private stopWorker: (() => Promise<void>) | null = null;
  private running = false;
  private result: PackedTraining | null = null;
  private closed = false;

  constructor(
    private readonly dbPath: string,
    private readonly onReady: () => void,
    private readonly onNotice: (message: string) => void = () => {},
  ) {}

  check(db: Database): void {
    if (this.closed) return;
    if (this.result) {
      const r = this.result;
      this.result = null;
      storeTrained(db, unpack(r.trained), r.snapshotSeq, r.sectionsNow);
      return;
    }
    if (this.running) return;
    const store = new SemanticStore(db);
    if (retrainDue(store.state(), store.sectionCounts())) this.start();
  }

  get busy(): boolean {
    return this.running;
  }

  /** A training is done and waits to be stored (by the next `check`, which then takes the write lock). */
  get ready(): boolean {
    return this.result !== null;
  }

  private start(): void {
    this.running = true;
    // What the batch that made the training due left behind is collected before the worker adds its own
    // heap: a watcher that took in a copy of the whole handbook at once peaked at 904–937 MB RSS with the
    // training, 733–738 MB with this collection (docs/watch.md); ~50–150 ms once per retraining.
    collectGarbage();
    const { result, stop } = trainInWorker(this.dbPath);
    this.stopWorker = stop;
    result.then(
      (r) => this.done(r),
      (err) => this.done(null, err),
    );
  }

  private done(r: PackedTraining | null, err?: unknown): void {
    this.stopWorker = null;
    this.running = false;
    if (this.closed) return;
    if (err) this.onNotice(`retraining the semantic model failed (${(err as Error).message ?? err}); search goes on with the old one`);
    else if (r) {
      this.result = r;
      this.onReady();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const stop = this.stopWorker;
    this.stopWorker = null;
    if (stop) await stop();
  }
}
