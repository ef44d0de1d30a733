// SessionStart keeps the index in step with the vault without `tsm watch`: the hook starts a detached
// `tsm hook SessionStart` worker (src/hooks/detach.ts) that runs an incremental sync, quick when nothing
// changed, and returns at once. So a vault named by TSM_VAULT gets its index on first use, and keeps it
// fresh. One sync at a time per vault (a lock holding the worker's pid); none while a watcher runs. A
// prompt during a first build finds no index (or a partial one) and gets nothing: it never waits.
import { join } from 'node:path';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { isLockHeld, LockTimeoutError, withFileLock } from '../vault/file-lock.js';

export const SYNC_LOCK = 'sync.lock';
/** Older than this, a sync lock's holder is taken to be gone even if its pid lives (a first build of a large vault takes minutes). */
const SYNC_LOCK_STALE_MS = 6 * 60 * 60 * 1000;

function lockPath(cfg: TsmConfig): string {
  return join(tsmDir(cfg), SYNC_LOCK);
}

/** Whether a SessionStart should start a sync: not while a watcher or another sync keeps the index. */
export function syncWanted(cfg: TsmConfig): boolean {
  return runningWatcher(tsmDir(cfg)) === null && !isLockHeld(lockPath(cfg), SYNC_LOCK_STALE_MS);
}

/** The worker's side: the sync, under the lock; a worker that finds the lock taken does nothing. */
export async function runBackgroundSync(cfg: TsmConfig, log: (message: string) => void): Promise<void> {
  try {
    await withFileLock(lockPath(cfg), { timeoutMs: 0, staleMs: SYNC_LOCK_STALE_MS }, async () => {
      const { syncVault } = await import('../index/sync.js');
      const s = await syncVault(cfg);
      if (s.added + s.updated + s.removed > 0) {
        log(`background index: ${s.added} added, ${s.updated} updated, ${s.removed} removed in ${s.seconds.toFixed(2)} s`);
      }
    });
  } catch (err) {
    if (!(err instanceof LockTimeoutError)) throw err; // another session's sync is running: it does the job
  }
}
