// SessionStart keeps the index in step with the vault without `tsm watch`: the hook starts a detached
// `tsm hook SessionStart` worker (src/hooks/detach.ts) that runs an incremental sync, quick when nothing
// changed, and returns at once. So a vault named by TSM_VAULT gets its index on first use, and keeps it
// fresh. One sync at a time per vault (a lock holding the worker's pid); none while a watcher runs. On
// first use SessionStart itself waits for that build, within its own deadline (awaitFirstBuild), so the
// session's first prompt finds an index: Claude Code 2.0.x sends the first prompt ~100 ms after
// SessionStart returns, sooner than a build of even a small vault. A prompt during a first build still
// finds no index (or a partial one) and gets nothing: a prompt never waits.
import { join } from 'node:path';
import type { SyncSummary } from '../core/types.js';
import { fileKind } from '../vault/file-kind.js';
import type { Deadline } from './deadline.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { isLockHeld, LockTimeoutError, withFileLock } from '../vault/file-lock.js';

export const SYNC_LOCK = 'sync.lock';
/**
 * The worker's report of what it indexed: the one hook.log line that is no problem (`tsm doctor` leaves it
 * out of the hook problems: without `tsm watch`, most sessions write one). Matched whole, so a problem whose
 * message quotes those words is still one.
 */
const syncReport = (s: SyncSummary) => `background index: ${s.added} added, ${s.updated} updated, ${s.removed} removed in ${s.seconds.toFixed(2)} s`;
const SYNC_REPORT_LINE = /^\S+ \S+(?: session=\S+)?: background index: \d+ added, \d+ updated, \d+ removed in \d+\.\d\d s$/;

/** Whether a hook.log line is the background sync's report of what it indexed, not a problem. */
export function isSyncReport(line: string): boolean {
  return SYNC_REPORT_LINE.test(line.trimEnd());
}

/** Older than this, a sync lock's holder is taken to be gone even if its pid lives (a first build of a large vault takes minutes). */
const SYNC_LOCK_STALE_MS = 6 * 60 * 60 * 1000;

function lockPath(cfg: TsmConfig): string {
  return join(tsmDir(cfg), SYNC_LOCK);
}

/** Whether a SessionStart should start a sync: not while a watcher or another sync keeps the index. */
export function syncWanted(cfg: TsmConfig): boolean {
  return runningWatcher(tsmDir(cfg)) === null && !isLockHeld(lockPath(cfg), SYNC_LOCK_STALE_MS);
}

/** Whether a live background sync of the vault holds the lock (a first build, when there is no index yet). */
export function syncLockHeld(cfg: TsmConfig): boolean {
  return isLockHeld(lockPath(cfg), SYNC_LOCK_STALE_MS);
}

/** The worker's side: the sync, under the lock; a worker that finds the lock taken does nothing. */
export async function runBackgroundSync(cfg: TsmConfig, log: (message: string) => void): Promise<void> {
  try {
    await withFileLock(lockPath(cfg), { vault: cfg.vault, timeoutMs: 0, staleMs: SYNC_LOCK_STALE_MS }, async () => {
      const { syncVault } = await import('../index/sync.js');
      // Nobody asked for this sync: an index a newer tsm wrote is left to it (the worker logs why).
      const s = await syncVault(cfg, { keepNewer: true });
      if (s.added + s.updated + s.removed > 0) {
        log(syncReport(s));
      }
    });
  } catch (err) {
    if (!(err instanceof LockTimeoutError)) throw err; // another session's sync is running: it does the job
  }
}

/**
 * SessionStart on a vault without an index, after starting the background build: waits until the index
 * exists and no sync holds the lock, or the deadline passes (the build then goes on in the background).
 * True when the build is done.
 */
export async function awaitFirstBuild(cfg: TsmConfig, deadline: Deadline, pollMs = 25): Promise<boolean> {
  for (;;) {
    if (fileKind(cfg.db) === 'file' && !isLockHeld(lockPath(cfg), SYNC_LOCK_STALE_MS)) return true;
    if (deadline.remaining() <= pollMs) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
