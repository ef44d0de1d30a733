// Removing a test's temporary folder while a detached tsm (SessionStart's background `tsm index`, SessionEnd's
// ingest) may still write into it.
import { rmSync } from 'node:fs';

/**
 * A run's folder goes, even while a detached process still writes into it. rmSync's own retries only retry
 * the rmdir of a folder, never the removal of what was written into it meanwhile: one file the detached
 * process wrote after its folder was emptied failed every retry (ENOTEMPTY), so the whole removal is tried
 * again, for up to 30 s. (session-start-order failed so in CI: its SessionStart's background sync wrote into
 * `.tsm/` during the removal.)
 */
export function removeTree(root: string): void {
  for (let waited = 0; ; waited += 250) {
    try {
      rmSync(root, { recursive: true, force: true });
      return;
    } catch (err) {
      if (!['ENOTEMPTY', 'EBUSY'].includes((err as NodeJS.ErrnoException).code ?? '') || waited >= 30_000) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}
