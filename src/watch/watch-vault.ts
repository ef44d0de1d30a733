// `tsm watch` as a function: an incremental sync, then every file-system change applied in batches
// through one long-lived writer connection, one batch at a time, until the signal aborts.
import { existsSync, statSync } from 'node:fs';
import type { SyncSummary } from '../core/types.js';
import { checkpointWal, IndexError, moveCorruptAside, openWriter, overwrittenIndex, writerFree, type Database } from '../index/db.js';
import { NoteReader } from '../index/note-reader.js';
import { BackgroundEmbedding } from '../index/embed-job.js';
import { BackgroundTrainer } from '../index/semantic/background.js';
import type { ResidentEmbedder } from '../embed/query-embedder.js';
import { syncVault } from '../index/sync.js';
import type { TsmConfig } from '../vault/config.js';
import { ChangeQueue, Debouncer, type Batch } from './change-queue.js';
import { classifyEvent, handlesAdvice, vaultRelative, type WatchEventName } from './classify.js';
import { inotifyInstancesOut, kernelEventQueue, POLL_INTERVAL_MS, VaultFsWatcher } from './fs-watcher.js';
import type { BatchReport } from './report.js';
import { fileIdentity } from '../vault/file-kind.js';
import { restoreWatcherPid, watcherPidFile } from '../vault/watcher-pid.js';

export interface WatchOptions {
  /** Quiet time that closes a batch of events. */
  debounceMs: number;
  /** Poll instead of native events (network drives, some container mounts). */
  poll?: boolean;
  /** Abort to stop: the batch in hand is finished, then the database is closed. */
  signal?: AbortSignal;
  onInitialProgress?: (done: number, total: number) => void;
  onReady?: (info: ReadyInfo) => void;
  onBatch?: (report: BatchReport) => void;
  /** Things the user should know that do not stop the watcher (fallback to polling, a failed batch). */
  onNotice?: (message: string) => void;
  /** The `.tsm/` folder whose `watch.pid` names this process: written again should it go (src/vault/watcher-pid.ts). */
  pidDir?: string;
  /** The kernel's event queue (fs-watcher.ts kernelEventQueue); tests make it small. */
  eventQueue?: number;
}

export interface ReadyInfo {
  /** Notes in the index once the initial sync is done. */
  notes: number;
  polling: boolean;
  initial: SyncSummary;
}

/** The watcher cannot go on (the vault folder is gone). The index is left as it was. */
export class WatchError extends Error {
  override name = 'WatchError';
}

/**
 * How often the vault folder's existence is checked (its removal may produce no event at all), that the
 * pid file still names this watcher (one small read), and that the index file is still the one it writes.
 */
const VAULT_CHECK_MS = 1000;
const MAX_RETRY_MS = 30_000;
/**
 * A note whose read failed for the moment (a cloud file still downloading: load-note.ts TRANSIENT) is read
 * again after `readRetryMs` (config.json, TSM_READ_RETRY_MS; 30 s), at most this many times (10 minutes),
 * then at its next event or rescan. Without it, such a note kept its old version under `tsm watch` until the
 * file changed again.
 */
const READ_RETRIES = 20;

export async function watchVault(cfg: TsmConfig, opts: WatchOptions): Promise<void> {
  if (opts.signal?.aborted) return;
  await new VaultWatch(cfg, opts).run();
}

/**
 * One `tsm watch`, in stages: start watching (events wait in the queue), the initial sync, open the
 * writer and say ready, then apply batches as the debouncer closes them, until the signal aborts; then
 * finish the batch in hand and close everything.
 */
class VaultWatch {
  private readonly notice: (message: string) => void;
  private readonly queue = new ChangeQueue();
  private readonly debouncer: Debouncer;
  private db: Database | null = null;
  /** Identity of the index file the connection writes to. */
  private dbFile: string | null = null;
  /**
   * Identity of the index's -wal file when the connection was opened (SQLite keeps it open while the
   * connection lives): one deleted under it (walGone) is written to no more by anyone else.
   */
  private walFile: string | null = null;
  /** A batch met the index damaged (SQLITE_CORRUPT, SQLITE_NOTADB): the next one rebuilds it. */
  private damaged = false;
  private accepting = false; // batches wait until the initial sync is done
  private stopping = false;
  private running: Promise<void> | null = null;
  private failures = 0;
  private fatal: Error | null = null;
  private fsWatcher: VaultFsWatcher | null = null;
  private catchUpTimer: NodeJS.Timeout | null = null;
  /** Notes whose read failed for the moment → the reads tried so far (READ_RETRIES). */
  private readonly unread = new Map<string, number>();
  private readTimer: NodeJS.Timeout | null = null;
  private stop!: () => void;
  private readonly stopped = new Promise<void>((resolve) => (this.stop = resolve));
  private readonly onAbort = () => this.stop();
  /**
   * The vault folder's identity at start: a folder moved away with another made in its place at once (a
   * restore, a fresh clone swapped in) passes a check by path, while every native watch stays on the old one.
   */
  private readonly vaultFolder: string | null;
  private readonly eventQueue: number;
  /** The semantic model is retrained in a worker thread when due, and stored between two batches. */
  private readonly trainer: BackgroundTrainer;
  /** With a model configured: the query-embedding socket, and section embedding after each batch. */
  private resident: ResidentEmbedder | null = null;
  private embedding: BackgroundEmbedding | null = null;

  constructor(
    private readonly cfg: TsmConfig,
    private readonly opts: WatchOptions,
  ) {
    this.notice = opts.onNotice ?? (() => {});
    this.vaultFolder = fileIdentity(cfg.vault);
    this.eventQueue = opts.eventQueue ?? kernelEventQueue();
    this.debouncer = new Debouncer(opts.debounceMs, Math.max(1000, opts.debounceMs * 5), () => this.drain());
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.trainer = new BackgroundTrainer(cfg.db, () => this.betweenBatches(() => this.semantic()), this.notice);
  }

  async run(): Promise<void> {
    const vaultTimer = setInterval(() => {
      if (this.failIfVaultGone()) return;
      this.keepPidFile();
      this.rebuildIfIndexGone();
      this.watchChangedPaths();
    }, VAULT_CHECK_MS);
    try {
      if (await this.startWatching()) await this.initialSyncAndServe();
    } finally {
      this.stopping = true;
      clearInterval(vaultTimer);
      if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
      if (this.readTimer) clearTimeout(this.readTimer);
      this.debouncer.cancel();
      this.opts.signal?.removeEventListener('abort', this.onAbort);
      await this.running; // finish the batch in hand
      await this.trainer.close();
      await this.embedding?.close(); // stops between two sections; what is committed stays
      await this.resident?.close();
      await this.fsWatcher?.close();
      this.db?.close();
    }
    if (this.fatal) throw this.fatal;
  }

  /** Stage 1: watch first, so nothing changed during the initial sync is missed (it waits in the queue). */
  private async startWatching(): Promise<boolean> {
    this.fsWatcher = await VaultFsWatcher.start({
      vault: this.cfg.vault,
      extensions: this.cfg.extensions,
      poll: Boolean(this.opts.poll),
      onEvent: (event, abs) => this.onEvent(event, abs),
      onFallback: (err) => this.notice(`${handlesAdvice(err, inotifyInstancesOut(err))}; falling back to polling (slower, more CPU)`),
      onResumed: () => {
        if (!this.accepting) return; // fell back during start-up: the initial sync and catch-up cover it
        this.queue.requestRescan('switched to polling');
        this.debouncer.poke();
        this.catchUpAfterPollingStarts();
      },
      onUnreadable: (abs) =>
        this.notice(
          `cannot watch ${vaultRelative(this.cfg.vault, abs) ?? abs} (permission denied): it stays out of the index until your user ` +
            'can read it (chmod u+r, and u+x for a folder), then it is watched and indexed again by itself',
        ),
      onError: (err) => this.notice(`watch error: ${err.message}`),
    });
    return !(this.failIfVaultGone() || this.opts.signal?.aborted);
  }

  /** Stage 2: the initial sync, the writer connection, ready; then batches until the signal aborts. */
  private async initialSyncAndServe(): Promise<void> {
    let initial: SyncSummary;
    let failed = false;
    try {
      initial = await syncVault(this.cfg, { onProgress: this.opts.onInitialProgress, backgroundRetrain: true });
    } catch (err) {
      // A full disk is for the moment: the error's own fix says a running watcher tries again, and a watcher
      // started as a service exited on it instead. It starts, and its batches retry (applyBatch's backoff).
      if (!diskFull(err)) throw err;
      this.notice(`the first sync failed (${(err as Error).message}); trying again in 1 s`);
      this.queue.requestRescan('the first sync failed');
      this.failures = 1;
      failed = true;
      initial = { added: 0, updated: 0, removed: 0, unchanged: 0, skipped: 0, warnings: 0, seconds: 0 };
    }
    if (this.failIfVaultGone() || this.opts.signal?.aborted) return;
    // On a disk full from the start the index cannot even be made: the retried batch opens it (applyBatch).
    let notes = 0;
    try {
      notes = new NoteReader(this.openIndex(), this.cfg.db).status().notes;
    } catch (err) {
      if (!(failed && diskFull(err))) throw err;
    }
    const polling = (this.fsWatcher as VaultFsWatcher).polling;
    this.opts.onReady?.({ notes, polling, initial });
    this.accepting = true;
    this.readAgainLater('all', initial.retry ?? []);
    this.betweenBatches(() => this.semantic());
    if (failed) this.debouncer.pokeAfter(1000);
    else if (this.queue.size > 0) this.debouncer.poke();
    await this.startResident();
    if (polling) this.catchUpAfterPollingStarts();
    await this.stopped;
  }

  /** Stage 3a: an event becomes a path to check or a rescan, and (re)starts the quiet time. */
  private onEvent(event: WatchEventName, abs: string): void {
    if (this.stopping) return;
    const rel = vaultRelative(this.cfg.vault, abs);
    if (event === 'unlinkDir' && this.failIfVaultGone()) return;
    if (rel === null) return;
    const meaning = classifyEvent(event, rel, this.cfg.extensions);
    if (meaning.kind === 'none') return;
    if (meaning.kind === 'note') this.queue.addPath(meaning.rel);
    else if (meaning.kind === 'attachment') this.queue.addAttachment(meaning.rel);
    else this.queue.requestRescan(meaning.reason);
    this.debouncer.poke();
  }

  /** Stage 3b: once the quiet time is over, batches are applied one at a time. */
  private drain(): void {
    if (!this.accepting || this.stopping || this.running) return;
    this.running = (async () => {
      // Events that arrive during a batch restart the quiet time; the debouncer calls drain again.
      while (!this.stopping && this.queue.size > 0 && !this.debouncer.pending) {
        if (this.failIfVaultGone()) return;
        this.rescanIfEventsDropped();
        await this.applyBatch(this.queue.take() as Batch);
      }
    })().finally(() => {
      this.running = null;
      if (!this.stopping && this.queue.size > 0 && !this.debouncer.pending) this.debouncer.poke();
    });
  }

  /**
   * inotify drops the events its queue cannot hold (16,384 by default) and Node gives no sign of it: 30,000
   * notes written at once into a folder of the vault, 28,546 were indexed and 1,454 never reported, until some
   * later change made the watcher look at the whole vault. A batch that comes after the kernel handed over
   * half that many events at once (in one turn of the event loop: fs-watcher.ts takeLargestBurst) is a rescan,
   * whatever its events named: the queue held them all, and may have held more (the loop was busy with a
   * batch of 20,000 notes while they came). A rescan stats every file of the vault (0.2 s on the handbook's
   * 4,560 notes), little beside such a batch.
   */
  private rescanIfEventsDropped(): void {
    const events = this.fsWatcher?.takeLargestBurst() ?? 0;
    if (events < this.eventQueue / 2) return;
    this.queue.requestRescan(`${events} file-system events at once, half or more of the ${this.eventQueue} the system queues: some may be lost`);
  }

  /** Stage 3c: one batch through the writer connection; a failure puts it back and retries with backoff. */
  private async applyBatch(batch: Batch): Promise<void> {
    const started = performance.now();
    let summary: SyncSummary;
    try {
      let writer = this.db ?? this.openIndex();
      if (fileIdentity(this.cfg.db) !== this.dbFile) {
        // The index was deleted or replaced under us: writing on would go to a file nobody reads.
        this.notice(`the index file ${this.cfg.db} was deleted or replaced; rebuilding it`);
        writer = this.openIndex();
        batch = { paths: [], rescanReasons: ['the index file was replaced'], attachments: [] };
        this.keepPidFile(); // `.tsm/` itself may have gone with it
      } else if (this.walGone()) {
        // What the deleted -wal holds is written into the index file (a checkpoint through this connection,
        // which still has it open), then the index is opened again with a -wal of its own, and the vault is
        // rescanned: a note whose rows were lost with the file is found changed and written again.
        this.notice(`the index's ${this.cfg.db}-wal was deleted; opening the index again`);
        checkpointWal(writer);
        writer = this.openIndex();
        batch = { paths: [], rescanReasons: ["the index's -wal file was deleted"], attachments: [] };
      } else if (this.damaged || overwrittenIndex(this.cfg.db)) {
        // The same file, no longer a usable database: every retry failed on it for good, while readers said
        // to rebuild it. Moved aside as `tsm index` does (db.ts moveCorruptAside: only tsm's own file; any
        // other is refused, naming the fix), then built again from the notes. Moved before the connection
        // closes: its close writes the -wal into the file, which is then tsm's copy aside, not the user's.
        this.notice(`the index file ${this.cfg.db} is no longer a usable database (overwritten or damaged); rebuilding it`);
        moveCorruptAside(this.cfg.db);
        this.closeIndex();
        this.damaged = false;
        writer = this.openIndex();
        batch = { paths: [], rescanReasons: ['the index file was damaged'], attachments: [] };
      }
      // A `tsm index --full` elsewhere holds the write lock for its whole rebuild: wait for it here, on a
      // timer, not inside SQLite's busy wait, which would stop this process's socket, file events and Ctrl-C
      // too. Stopped meanwhile, the batch is left: the next start's sync finds what it held.
      if (!(await writerFree(writer, () => this.stopping))) return;
      summary =
        batch.rescanReasons.length > 0
          ? await syncVault(this.cfg, { db: writer, backgroundRetrain: true })
          : await syncVault(this.cfg, { db: writer, paths: batch.paths, attachments: batch.attachments, backgroundRetrain: true });
    } catch (err) {
      if (err instanceof IndexError && err.code === 'version') {
        // Another tsm migrated or rebuilt the index under this watcher (db.ts assertSchema): no retry can ever
        // write to it. Retrying on would keep `watch.pid`, and with it the hooks' sync and a new `tsm watch`, away.
        this.fatal = new WatchError(`${err.message}; stopped watching`);
        this.stop();
        return;
      }
      // Damage met in the middle (a page overwritten): the retry rebuilds the index (above).
      if (err instanceof IndexError && err.code === 'corrupt') this.damaged = true;
      this.queue.putBack(batch);
      this.failures++;
      const delay = Math.min(MAX_RETRY_MS, 1000 * 2 ** (this.failures - 1));
      this.notice(`a batch failed (${(err as Error).message}); retrying in ${delay / 1000} s`);
      this.debouncer.pokeAfter(delay);
      return;
    }
    this.failures = 0;
    this.readAgainLater(batch.rescanReasons.length > 0 ? 'all' : batch.paths, summary.retry ?? []);
    this.opts.onBatch?.({ ...batch, summary, ms: performance.now() - started });
    if (await this.fsWatcher?.renewIfStale()) {
      this.queue.requestRescan('folders deleted and made again: watching them anew');
      this.debouncer.poke();
    }
    await this.semantic();
    if (summary.added + summary.updated > 0) this.embedding?.kick();
  }

  /**
   * Runs `task` where a batch would run, so the two never interleave: now when no batch is being applied,
   * else once it is done. Batches that came meanwhile go on after it.
   */
  private betweenBatches(task: () => Promise<void>): void {
    if (this.stopping) return;
    if (this.running) return void this.running.then(() => this.betweenBatches(task));
    this.running = task().finally(() => {
      this.running = null;
      if (!this.stopping && this.queue.size > 0 && !this.debouncer.pending) this.debouncer.poke();
    });
  }

  /**
   * With a model configured: load it (the runtime is imported here and nowhere on the per-process paths),
   * answer query vectors on the vault's socket, and embed what lacks vectors in the background, then after
   * every batch that wrote notes. Batches keep being applied meanwhile (the job yields between sections).
   * When another process (`tsm serve`) already answers for the vault, it also embeds: this one stays out,
   * and takes both over should that process stop (a try every CLAIM_EVERY_MS).
   */
  private async startResident(): Promise<void> {
    if (this.stopping) return;
    const { CLAIM_EVERY_MS, configuredModel, startResidentEmbedder } = await import('../embed/query-embedder.js');
    if (configuredModel(this.cfg) === null) return;
    const { VectorsInMemory } = await import('../index/vectors-in-memory.js');
    const resident = await startResidentEmbedder(this.cfg, this.notice, () => new VectorsInMemory(this.cfg.db, this.notice));
    if (!resident) return;
    if (this.stopping) return void (await resident.close());
    this.resident = resident;
    if (resident.standsDown) {
      this.notice('another process answers query vectors for this vault and embeds its sections; this watcher leaves both to it while it runs');
    }
    resident.whenServing(CLAIM_EVERY_MS, (server) => {
      if (this.stopping) return;
      // No server: the socket cannot be made (the notice before this one says why); the watcher embeds all the same.
      this.notice(`embedding model ${resident.embedder.spec.name} loaded; ${server ? `query vectors on ${server.path}` : 'no query vectors for `tsm search` until the socket can be made'}`);
      this.embedding = new BackgroundEmbedding(
        () => (this.stopping ? null : this.db),
        resident.embedder,
        this.notice,
        () => resident.vectorsStored(),
        () => void resident.standDown(),
      );
      this.embedding.kick();
    });
  }

  /**
   * Stores a retrained semantic model, if the worker has one ready, or starts a training when one is due;
   * between two batches. Storing takes the write lock: while another writer holds it (a `tsm index --full`,
   * for its whole rebuild), wait on a timer as a batch does, not inside SQLite's busy wait, which stopped the
   * socket, file events and Ctrl-C for up to 10 s and then lost the training ("database is locked").
   * Stopped meanwhile, the training is dropped: the next start trains again if it is still due.
   */
  private async semantic(): Promise<void> {
    if (!this.cfg.semantic) return;
    try {
      const db = this.db;
      if (!db || this.stopping) return;
      if (this.trainer.ready && !(await writerFree(db, () => this.stopping))) return;
      if (this.db === db && !this.stopping) this.trainer.check(db);
    } catch (err) {
      this.notice(`storing the retrained semantic model failed (${(err as Error).message})`);
    }
  }

  private closeIndex(): void {
    try {
      this.db?.close();
    } catch {
      // a connection on a damaged file: it is let go all the same
    }
    this.db = null; // should the next open fail, the next batch opens it again, not the closed connection
  }

  private openIndex(): Database {
    this.closeIndex();
    this.db = openWriter(this.cfg.db, { vault: this.cfg.vault }).db;
    this.dbFile = fileIdentity(this.cfg.db);
    this.walFile = fileIdentity(`${this.cfg.db}-wal`);
    return this.db;
  }

  /**
   * Whether the index's -wal file was deleted (or replaced) under this connection, which goes on writing to
   * the deleted one: every reader, which opens a new -wal beside the -shm that still counts the old one's
   * pages, failed with "disk I/O error" (`tsm search`, `tsm index`, the hooks), for as long as the watcher ran.
   */
  private walGone(): boolean {
    return this.db !== null && this.walFile !== null && fileIdentity(`${this.cfg.db}-wal`) !== this.walFile;
  }

  /**
   * The notes of `retry` are read again in `readRetryMs`; a note the sync read (`read`: its paths, or all of
   * them) and did not list there is read, and counts from zero next time.
   */
  private readAgainLater(read: string[] | 'all', retry: string[]): void {
    if (read === 'all') this.unread.clear();
    else for (const rel of read) if (!retry.includes(rel)) this.unread.delete(rel);
    for (const rel of retry) {
      const tries = (this.unread.get(rel) ?? 0) + 1;
      if (tries > READ_RETRIES) this.unread.delete(rel);
      else this.unread.set(rel, tries);
    }
    if (this.unread.size === 0 || this.readTimer !== null || this.stopping) return;
    this.readTimer = setTimeout(() => {
      this.readTimer = null;
      if (this.stopping) return;
      for (const rel of this.unread.keys()) this.queue.addPath(rel);
      this.debouncer.poke();
    }, this.cfg.readRetryMs);
    this.readTimer.unref();
  }

  // A poller notices changes against its first look at each file and folder, which it takes just
  // after chokidar says 'ready'; what changed in between is caught by one rescan once that is done.
  private catchUpAfterPollingStarts(): void {
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = setTimeout(() => {
      this.queue.requestRescan('polling started');
      this.debouncer.poke();
    }, 2 * POLL_INTERVAL_MS);
  }

  /**
   * A folder or note that could not be watched for want of permission and is readable now (fs-watcher.ts
   * readableAgain says why chokidar never looks again by itself), and a symlinked folder pointed elsewhere
   * (`ln -sfn /elsewhere/b vault/notes`) or replaced (fs-watcher.ts linkedFolders: chokidar follows a link
   * once): a fresh watcher, which watches them as they are now, then a rescan for what they hold and what
   * changed meanwhile (the old target's notes out of the index, the new one's in, as `tsm index` does). Found
   * within a second, natively and polling; costs a walk of the vault, paid only when such a path changes.
   */
  private watchChangedPaths(): void {
    if (!this.accepting || this.stopping || !this.fsWatcher) return;
    const reasons = [
      { paths: this.fsWatcher.readableAgain(), why: 'readable again' },
      { paths: this.fsWatcher.relinked(), why: 'symlinked folder changed' },
    ].filter((r) => r.paths.length > 0);
    if (reasons.length === 0) return;
    const said = reasons.map((r) => `${r.why}: ${this.someNames(r.paths)}; watching it anew`).join(', ');
    this.betweenBatches(async () => {
      if (!(await this.fsWatcher?.renew())) return;
      this.queue.requestRescan(said);
      this.debouncer.poke();
    });
  }

  /** Up to three vault paths for a notice, and how many more. */
  private someNames(paths: string[]): string {
    const rels = paths.map((abs) => vaultRelative(this.cfg.vault, abs) ?? abs);
    return rels.slice(0, 3).join(', ') + (rels.length > 3 ? ` and ${rels.length - 3} more` : '');
  }

  /**
   * `.tsm/` deleted under a running watcher takes `watch.pid` with it: without it, `tsm status` and
   * `tsm doctor` said no watcher ran, a second `tsm watch` started, and the hooks started syncs.
   */
  private keepPidFile(): void {
    const dir = this.opts.pidDir;
    if (dir === undefined || this.stopping) return;
    const was = restoreWatcherPid(dir);
    if (was !== null) this.notice(`${watcherPidFile(dir)} ${was}; written again`);
  }

  /**
   * The index file deleted, replaced, or overwritten in place with what is no database: rebuilt now
   * (applyBatch), not at the vault's next change (an overwritten one never, before: its retries failed for good). Until this connection lets go of them, the deleted file's -wal and -shm keep their names, and a
   * new index at the path shares them: every `tsm search`, `tsm index` and hook failed with "disk I/O error"
   * until a note changed, which in a quiet vault may be hours.
   */
  private rebuildIfIndexGone(): void {
    if (!this.accepting || this.stopping || this.running || this.debouncer.pending) return; // applyBatch checks it
    if (fileIdentity(this.cfg.db) === this.dbFile && !overwrittenIndex(this.cfg.db) && !this.walGone()) return;
    this.queue.requestRescan('the index file was replaced');
    this.debouncer.poke();
  }

  private failIfVaultGone(): boolean {
    if (this.fatal !== null) return true;
    const now = vaultFolder(this.cfg.vault);
    if (now === null) {
      // "The index is kept" was said of an index inside the vault too, which `rm -rf` had just deleted with it.
      const index = existsSync(this.cfg.db) ? `the index at ${this.cfg.db} is kept` : 'its index, inside it, went with it';
      this.fatal = new WatchError(`the vault folder ${this.cfg.vault} has disappeared; stopped watching (${index})`);
    } else if (now !== this.vaultFolder) {
      this.fatal = new WatchError(
        `the vault folder ${this.cfg.vault} was replaced by another folder; stopped watching: start \`tsm watch\` again`,
      );
    }
    if (this.fatal !== null) this.stop();
    return this.fatal !== null;
  }
}

/** A write of the index that failed for lack of room: for the moment, so the watcher tries again. */
function diskFull(err: unknown): boolean {
  return err instanceof IndexError && err.code === 'full';
}

/** The vault folder's identity (fileIdentity), or null when no folder is there. */
function vaultFolder(vault: string): string | null {
  try {
    return statSync(vault).isDirectory() ? fileIdentity(vault) : null;
  } catch {
    return null;
  }
}

