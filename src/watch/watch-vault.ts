// `tsm watch` as a function: an incremental sync, then every file-system change applied in batches
// through one long-lived writer connection, one batch at a time, until the signal aborts.
import { statSync } from 'node:fs';
import type { SyncSummary } from '../core/types.js';
import { openWriter, type Database } from '../index/db.js';
import { NoteReader } from '../index/note-reader.js';
import { BackgroundTrainer } from '../index/semantic/background.js';
import { syncVault } from '../index/sync.js';
import type { TsmConfig } from '../vault/config.js';
import { ChangeQueue, Debouncer, type Batch } from './change-queue.js';
import { classifyEvent, handlesAdvice, vaultRelative, type WatchEventName } from './classify.js';
import { POLL_INTERVAL_MS, VaultFsWatcher } from './fs-watcher.js';
import type { BatchReport } from './report.js';

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

/** How often the vault folder's existence is checked (its removal may produce no event at all). */
const VAULT_CHECK_MS = 1000;
const MAX_RETRY_MS = 30_000;

export async function watchVault(cfg: TsmConfig, opts: WatchOptions): Promise<void> {
  if (opts.signal?.aborted) return;
  const notice = opts.onNotice ?? (() => {});
  const queue = new ChangeQueue();
  const debouncer = new Debouncer(opts.debounceMs, Math.max(1000, opts.debounceMs * 5), () => void drain());
  let db: Database | null = null;
  let accepting = false; // batches wait until the initial sync is done
  let stopping = false;
  let running: Promise<void> | null = null;
  let failures = 0;
  let fatal: Error | null = null;

  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onAbort = () => stop();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const vaultGone = (): boolean => {
    try {
      return !statSync(cfg.vault).isDirectory();
    } catch {
      return true;
    }
  };
  const failIfVaultGone = (): boolean => {
    if (fatal === null && vaultGone()) {
      fatal = new WatchError(`the vault folder ${cfg.vault} has disappeared; stopped watching (the index is kept)`);
      stop();
    }
    return fatal !== null;
  };

  const onEvent = (event: WatchEventName, abs: string): void => {
    if (stopping) return;
    const rel = vaultRelative(cfg.vault, abs);
    if (event === 'unlinkDir' && failIfVaultGone()) return;
    if (rel === null) return;
    const meaning = classifyEvent(event, rel, cfg.extensions);
    if (meaning.kind === 'none') return;
    if (meaning.kind === 'note') queue.addPath(meaning.rel);
    else queue.requestRescan(meaning.reason);
    debouncer.poke();
  };

  let dbFile: string | null = null; // identity of the index file the connection writes to
  const openIndex = (): Database => {
    db?.close();
    db = openWriter(cfg.db).db;
    dbFile = fileIdentity(cfg.db);
    return db;
  };

  // The semantic model is retrained in a worker thread when due, and stored between two batches.
  const semantic = (): void => {
    try {
      if (db && !stopping) trainer.check(db);
    } catch (err) {
      notice(`storing the retrained semantic model failed (${(err as Error).message})`);
    }
  };
  const trainer = new BackgroundTrainer(cfg.db, () => (running ? void running.then(semantic) : semantic()), notice);

  const applyBatch = async (batch: Batch): Promise<void> => {
    const started = performance.now();
    let summary: SyncSummary;
    try {
      let writer = db ?? openIndex();
      if (fileIdentity(cfg.db) !== dbFile) {
        // The index was deleted or replaced under us: writing on would go to a file nobody reads.
        notice(`the index file ${cfg.db} was deleted or replaced; rebuilding it`);
        writer = openIndex();
        batch = { paths: [], rescanReasons: ['the index file was replaced'] };
      }
      summary =
        batch.rescanReasons.length > 0
          ? await syncVault(cfg, { db: writer, backgroundRetrain: true })
          : await syncVault(cfg, { db: writer, paths: batch.paths, backgroundRetrain: true });
    } catch (err) {
      queue.putBack(batch);
      failures++;
      const delay = Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1));
      notice(`a batch failed (${(err as Error).message}); retrying in ${delay / 1000} s`);
      debouncer.pokeAfter(delay);
      return;
    }
    failures = 0;
    opts.onBatch?.({ ...batch, summary, ms: performance.now() - started });
    semantic();
  };

  const drain = (): void => {
    if (!accepting || stopping || running) return;
    running = (async () => {
      // Events that arrive during a batch restart the quiet time; the debouncer calls drain again.
      while (!stopping && queue.size > 0 && !debouncer.pending) {
        if (failIfVaultGone()) return;
        await applyBatch(queue.take() as Batch);
      }
    })().finally(() => {
      running = null;
      if (!stopping && queue.size > 0 && !debouncer.pending) debouncer.poke();
    });
  };

  // A poller notices changes against its first look at each file and folder, which it takes just
  // after chokidar says 'ready'; what changed in between is caught by one rescan once that is done.
  let catchUpTimer: NodeJS.Timeout | null = null;
  const catchUpAfterPollingStarts = (): void => {
    if (catchUpTimer) clearTimeout(catchUpTimer);
    catchUpTimer = setTimeout(() => {
      queue.requestRescan('polling started');
      debouncer.poke();
    }, 2 * POLL_INTERVAL_MS);
  };

  let fsWatcher: VaultFsWatcher | null = null;
  const startAndWait = async (): Promise<void> => {
    fsWatcher = await VaultFsWatcher.start({
      vault: cfg.vault,
      extensions: cfg.extensions,
      poll: Boolean(opts.poll),
      onEvent,
      onFallback: (err) => notice(`${handlesAdvice(err)}; falling back to polling (slower, more CPU)`),
      onResumed: () => {
        if (!accepting) return; // fell back during start-up: the initial sync and catch-up cover it
        queue.requestRescan('switched to polling');
        debouncer.poke();
        catchUpAfterPollingStarts();
      },
      onError: (err) => notice(`watch error: ${err.message}`),
    });
    if (failIfVaultGone() || opts.signal?.aborted) return;

    // Watching starts first, so nothing changed during the initial sync is missed: it waits in the queue.
    const initial = await syncVault(cfg, { onProgress: opts.onInitialProgress, backgroundRetrain: true });
    if (failIfVaultGone() || opts.signal?.aborted) return;
    const writer = openIndex();
    opts.onReady?.({ notes: new NoteReader(writer, cfg.db).status().notes, polling: fsWatcher.polling, initial });
    accepting = true;
    semantic();
    if (queue.size > 0) debouncer.poke();
    if (fsWatcher.polling) catchUpAfterPollingStarts();
    await stopped;
  };

  const vaultTimer = setInterval(failIfVaultGone, VAULT_CHECK_MS);
  try {
    await startAndWait();
  } finally {
    stopping = true;
    clearInterval(vaultTimer);
    if (catchUpTimer) clearTimeout(catchUpTimer);
    debouncer.cancel();
    opts.signal?.removeEventListener('abort', onAbort);
    await running; // finish the batch in hand
    await trainer.close();
    await (fsWatcher as VaultFsWatcher | null)?.close();
    (db as Database | null)?.close();
  }
  if (fatal) throw fatal;
}

/** Device and inode of a file, or null when it does not exist: tells a replaced file from the same one. */
function fileIdentity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}
