// `.tsm/watch.pid`: tells `tsm status` (and a second `tsm watch`) whether a watcher runs for this vault.
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function watcherPidFile(tsmDir: string): string {
  return join(tsmDir, 'watch.pid');
}

/** The pid of a live watcher, or null (a stale file from a killed watcher counts as none). */
export function runningWatcher(tsmDir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(watcherPidFile(tsmDir), 'utf8'), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export function writeWatcherPid(tsmDir: string): void {
  const file = watcherPidFile(tsmDir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${process.pid}\n`);
}

export function removeWatcherPid(tsmDir: string): void {
  try {
    if (Number.parseInt(readFileSync(watcherPidFile(tsmDir), 'utf8'), 10) === process.pid) rmSync(watcherPidFile(tsmDir));
  } catch {
    // already gone
  }
}
