// `.tsm/watch.pid`: tells `tsm status`, `tsm doctor`, the hooks' background sync and a second `tsm watch`
// whether a watcher runs for this vault.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileKind, notPlainFileError, readUtf8RegularFile } from './file-kind.js';
import { makeVaultFolder } from './folders.js';
import { holderRuns } from './process-start.js';

export function watcherPidFile(tsmDir: string): string {
  return join(tsmDir, 'watch.pid');
}

/**
 * The pid of a live watcher, or null: a stale file from a killed watcher counts as none, and so, where the
 * OS shows command lines (Linux), does one whose pid now belongs to another program (reused after a
 * `kill -9` or a reboot): before, such a file stopped `tsm watch` from starting until removed by hand.
 */
export function runningWatcher(tsmDir: string): number | null {
  const pid = recordedPid(tsmDir);
  if (pid === null || !holderRuns(pid, null)) return null;
  return runsTsmWatch(pid) === false ? null : pid;
}

/** The running watcher of the vault when it is another process than this one (this one may be the watcher). */
export function otherRunningWatcher(tsmDir: string): number | null {
  const pid = runningWatcher(tsmDir);
  return pid !== null && pid !== process.pid ? pid : null;
}

/** How to clear a pid file that may be stale (its pid reused by a program this OS does not let tsm tell apart). */
export function stalePidAdvice(tsmDir: string): string {
  return `if none runs (its pid reused after a crash or a reboot), remove ${watcherPidFile(tsmDir)}`;
}

/**
 * Records this process as the vault's watcher. Never makes the vault's folder itself (src/vault/folders.ts).
 * A write that fails (a full disk: ENOSPC) takes its file with it: the open had already emptied it, and an
 * empty pid file left behind named no watcher while one ran.
 */
export function writeWatcherPid(tsmDir: string): void {
  makeVaultFolder(dirname(tsmDir), tsmDir);
  const file = watcherPidFile(tsmDir);
  // Opening a FIFO to write waits for a reader that never comes: the watcher hung before its first sync.
  if (fileKind(file) === 'other') throw notPlainFileError(file, "the running watcher's pid");
  try {
    writeFileSync(file, `${process.pid}\n`);
  } catch (err) {
    try {
      rmSync(file, { force: true });
    } catch {
      // a folder it may not write: no file was made there either
    }
    throw err;
  }
}

/**
 * A running watcher's check that it is still on record (`.tsm/` deleted under it, which it rebuilds):
 * writes its pid again unless the file holds it or another live watcher's. True when it wrote; a vault that
 * is gone, or a folder it may not write, is left alone.
 */
export function restoreWatcherPid(tsmDir: string): boolean {
  if (recordedPid(tsmDir) === process.pid || runningWatcher(tsmDir) !== null) return false;
  try {
    writeWatcherPid(tsmDir);
    return true;
  } catch {
    return false;
  }
}

/** Removes the pid file, only if it is this process's (another watcher may have started since). */
export function removeWatcherPid(tsmDir: string): void {
  try {
    if (recordedPid(tsmDir) === process.pid) rmSync(watcherPidFile(tsmDir));
  } catch {
    // already gone
  }
}

function recordedPid(tsmDir: string): number | null {
  let pid: number;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked the read forever, and with it `tsm status`,
    // `tsm doctor`, `tsm watch` and the SessionStart hook (past Claude Code's hook timeout).
    pid = Number.parseInt(readUtf8RegularFile(watcherPidFile(tsmDir)), 10);
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Whether `pid` runs `tsm watch`, by its command line (`node …/bin/tsm watch …`, `node …/dist/tsm.cjs
 * watch`); null where the OS does not show it (no /proc: macOS, Windows; /proc hidden or not mounted), and
 * the caller then goes by the pid alone.
 */
function runsTsmWatch(pid: number): boolean | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
  const args = raw.split('\0');
  return args.includes('watch') && args.some((a) => /(^|[\\/])tsm(\.cjs)?$/.test(a));
}
