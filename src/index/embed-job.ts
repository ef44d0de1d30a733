// The embedding job (issue 17): gives every section lacking a vector of the embedder's fingerprint its chunk
// vectors. Used by `tsm index --embed` after the sync, and in the background by `tsm watch` and `tsm serve`.
//
// - Resumable: vectors are committed every BATCH sections, so a killed run loses at most one batch and the
//   next run starts with what is still missing (the query is "sections without a vector of this model").
// - Never a long lock: the model runs outside any transaction; each batch is one short BEGIN IMMEDIATE
//   through writeTransactionAsync, which takes its turn with the sync's writers as they take theirs, and
//   waits for it on a timer, so a resident process keeps answering while a `tsm index --full` holds the lock.
// - One section at a time through the model: a query sent to the same embedder (the resident query
//   embedder shares it) waits for at most one passage, not a batch.
// - A section rewritten by a sync while the model ran keeps no vector of its old text (VectorStore.put).
import type { Embedder } from '../embed/types.js';
import { fingerprintModel } from '../embed/fingerprint.js';
import { WaitStopped, writeTransactionAsync, type Database } from './db.js';
import { VectorStore, type SectionToEmbed } from './vectors.js';
import { count } from '../text/count.js';

/** Sections per commit: a killed run redoes at most this many; ~1 commit a second with a small model. */
const BATCH = 32;

export interface EmbedJobOptions {
  /** Called after each committed batch: sections done by this run, and what the run set out to do. */
  onProgress?: (done: number, total: number) => void;
  /** Stops the run between two sections (what is committed stays). */
  signal?: AbortSignal;
  batch?: number;
  /**
   * Store nothing, and replace nothing, when the index holds another model's vectors (the summary's
   * `otherModel` names it). A resident's runs after its first: such vectors were stored since by another
   * process (`tsm index --embed` after the vault's model was changed), and replacing them undid that work.
   */
  keepOtherModel?: boolean;
}

export interface EmbedSummary {
  /** Sections given vectors by this run. */
  embedded: number;
  /** Sections found rewritten or gone when their vectors were ready (embedded again by the next run). */
  stale: number;
  /** Sections the model failed on (left without a vector), and the first reason. */
  failed: number;
  firstError?: string;
  /** Sections still without a vector of this model (a stopped run, a failure, or a sync since). */
  remaining: number;
  /** Sections with a vector of this model now, of all sections. */
  total: number;
  withVectors: number;
  seconds: number;
  stopped: boolean;
  /** With keepOtherModel: the model whose vectors the index holds instead, when the run did nothing for that reason. */
  otherModel?: string;
}

/** Embeds what lacks a vector of `embedder`'s fingerprint, in id order, committing every batch. */
export async function embedPending(db: Database, embedder: Embedder, opts: EmbedJobOptions = {}): Promise<EmbedSummary> {
  const started = performance.now();
  const store = new VectorStore(db);
  const halted = () => opts.signal?.aborted === true;
  let taken: { other: string } | { model: number };
  try {
    taken = await writeTransactionAsync(
      db,
      () => {
        const other = opts.keepOtherModel ? store.otherModel(embedder.fingerprint) : null;
        return other !== null ? { other } : { model: store.useModel(embedder.fingerprint, embedder.spec.dims) };
      },
      { stopped: halted },
    );
  } catch (err) {
    if (!(err instanceof WaitStopped)) throw err;
    // Stopped while another writer held the lock, before anything was done: a stopped run's summary (a Ctrl-C
    // of `tsm index --embed` says what it leaves), not an error.
    const counts = store.counts(store.modelId(embedder.fingerprint));
    return { embedded: 0, stale: 0, failed: 0, remaining: counts.sections - counts.embedded, total: counts.sections, withVectors: counts.embedded, seconds: 0, stopped: true };
  }
  if ('other' in taken) {
    const counts = store.counts(null);
    return { embedded: 0, stale: 0, failed: 0, remaining: counts.sections, total: counts.sections, withVectors: 0, seconds: 0, stopped: false, otherModel: taken.other };
  }
  const model = taken.model;
  const todo = store.pendingCount(model);
  const batchSize = Math.max(1, opts.batch ?? BATCH);
  let embedded = 0;
  let stale = 0;
  let failed = 0;
  let firstError: string | undefined;
  let afterId = -1;
  let stopped = false;
  opts.onProgress?.(0, todo);
  outer: for (;;) {
    const sections = store.pending(model, batchSize, afterId);
    if (sections.length === 0) break;
    const ready: { section: SectionToEmbed; vectors: Float32Array[] }[] = [];
    for (const section of sections) {
      if (opts.signal?.aborted) {
        stopped = true;
        await commit(ready);
        break outer;
      }
      try {
        ready.push({ section, vectors: await embedder.embedPassage(section.text) });
      } catch (err) {
        // One section the model cannot take stops nothing: it stays without a vector (tried again by the
        // next run), and the run says how many and why.
        failed++;
        firstError ??= (err as Error).message ?? String(err);
      }
    }
    if (!(await commit(ready))) {
      stopped = true;
      break;
    }
    afterId = sections[sections.length - 1].id;
    opts.onProgress?.(embedded + stale + failed, todo);
    // A turn for whatever else the process does (watch events, tool calls, socket queries) between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  /**
   * Stores a batch; false when the model was replaced since the run began, or the run was stopped while it
   * waited for the write lock (the run then stops; the batch is embedded again by the next run).
   */
  async function commit(ready: { section: SectionToEmbed; vectors: Float32Array[] }[]): Promise<boolean> {
    if (ready.length === 0) return true;
    try {
      return await writeTransactionAsync(
        db,
        () => {
          // Another writer with another model (a second `tsm index --embed`) has deleted this model's id:
          // nothing is stored under it, and this run is over.
          if (store.modelId(embedder.fingerprint) !== model) return false;
          for (const r of ready) {
            if (store.put(model, r.section, r.vectors)) embedded++;
            else stale++;
          }
          return true;
        },
        { stopped: halted },
      );
    } catch (err) {
      if (err instanceof WaitStopped) return false;
      throw err;
    }
  }
  const counts = store.counts(model);
  return {
    embedded,
    stale,
    failed,
    ...(firstError ? { firstError } : {}),
    remaining: counts.sections - counts.embedded,
    total: counts.sections,
    withVectors: counts.embedded,
    seconds: Math.round((performance.now() - started) / 10) / 100,
    stopped,
  };
}

/**
 * The embedding job in the background of a resident process (`tsm watch`, `tsm serve`): one run at a time
 * on the given writer connection; `kick` (after a sync wrote something, or on a timer) starts one, or asks
 * the running one to be followed by another. Failures are notices: search goes on with what is stored.
 */
export class BackgroundEmbedding {
  private running: Promise<void> | null = null;
  private again = false;
  /** A run has stored under this embedder's model: from then on, another model's vectors are another process's, and stay. */
  private claimed = false;
  /** The other model whose vectors the index holds, as last said (said once, not at every run). */
  private superseded: string | null = null;
  private readonly stop = new AbortController();

  constructor(
    /** The writer connection to use now (the watcher reopens its connection when the index file is replaced). */
    private readonly db: () => Database | null,
    private readonly embedder: Embedder,
    private readonly onNotice: (message: string) => void = () => {},
    /** After a run that stored vectors (a resident reads its copy of them again: vectors-in-memory.ts). */
    private readonly onStored: () => void = () => {},
    /** Once the index holds another model's vectors (this one embeds nothing more): the resident stands down. */
    private readonly onSuperseded: (otherModel: string) => void = () => {},
  ) {}

  kick(): void {
    if (this.stop.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no run is under way (tests, and a watcher that wants its vectors before it reports). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const db = this.db();
      if (!db) return;
      try {
        const s = await embedPending(db, this.embedder, { signal: this.stop.signal, keepOtherModel: this.claimed });
        if (s.otherModel !== undefined) {
          // The vault's model was changed and embedded by another process: its vectors stay; this model is out of date.
          if (s.otherModel !== this.superseded) {
            this.onNotice(
              `the index now holds vectors of another model (${fingerprintModel(s.otherModel)}), stored by another process: ` +
                `${this.embedder.spec.name} embeds nothing more here; restart \`tsm watch\` / \`tsm serve\` to load the vault's model`,
            );
            this.onSuperseded(s.otherModel);
          }
          this.superseded = s.otherModel;
          return;
        }
        this.claimed = true;
        this.superseded = null;
        if (s.embedded > 0) {
          this.onNotice(`embedded ${count(s.embedded, 'section')} in ${s.seconds.toFixed(1)} s (${s.withVectors} of ${s.total} have vectors)`);
          this.onStored();
        }
        if (s.failed > 0) this.onNotice(`the embedding model failed on ${count(s.failed, 'section')} (${s.firstError}); they stay without vectors`);
      } catch (err) {
        if (err instanceof WaitStopped) return; // closed while waiting for another writer: nothing to say
        this.onNotice(`embedding sections failed (${(err as Error).message ?? err}); search goes on with the vectors stored`);
        return;
      }
    } while (this.again && !this.stop.signal.aborted);
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.idle();
  }
}
