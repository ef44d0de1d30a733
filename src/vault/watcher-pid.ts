// `.tsm/watch.pid`: tells `tsm status`, `tsm doctor`, the hooks' background sync and a second `tsm watch`
// whether a watcher runs for this vault. Claimed as a lock is (file-lock.ts tryLockFile), so that of two
// `tsm watch` started at once exactly one runs.
import { closeSync, fstatSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tryLockFile } from './file-lock.js';
import { fileKind, notPlainFileError, openRegularFile } from './file-kind.js';
import { makeVaultFolder } from './folders.js';
import { holderRuns, lockPid } from './process-start.js';

export function watcherPidFile(tsmDir: string): string {
  return join(tsmDir, 'watch.pid');
}

/**
 * The pid of a live watcher, or null: a stale file from a killed watcher counts as none, and so, where the
 * OS tells (Linux: /proc), does one whose pid now belongs to another program or to a `tsm watch` started
 * after the file was written (reused after a `kill -9` or a reboot: watcherRuns). Before, such a file stopped
 * `tsm watch` from starting until removed by hand.
 */
export function runningWatcher(tsmDir: string): number | null {
  const rec = recorded(tsmDir);
  return rec !== null && watcherRuns(rec.pid, rec.takenAtMs) ? rec.pid : null;
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
 * What one claim of the pid file came to: this process is on record ('claimed': it wrote the file now),
 * another live watcher is (its pid; this process's own when the file named it already), or another tsm is
 * writing the file or taking a stale one over this moment ('busy': try again shortly).
 */
export type WatcherClaim = 'claimed' | 'busy' | number;

/**
 * One try at recording this process as the vault's watcher. Before, `tsm watch` asked runningWatcher, then
 * wrote the file over whatever was there: two started at the same instant both found none (or both the same
 * stale one), both wrote, and both watched and indexed the vault (2 of 20 rounds here). Now the file is made
 * with O_EXCL, and a stale one (its pid dead, or another program's now: watcherRuns) is removed under a
 * guard and judged once more there, so of two racing over it one takes it and the other finds that one on
 * record. Never makes the vault's folder itself (src/vault/folders.ts). Throws when the file cannot be made
 * (a read-only `.tsm/`; a full disk, whose failed write takes the file with it: an empty pid file named no
 * watcher while one ran), or when something other than a plain file has its name (not tsm's to remove).
 */
export function claimWatcherPid(tsmDir: string): WatcherClaim {
  makeVaultFolder(dirname(tsmDir), tsmDir);
  const file = watcherPidFile(tsmDir);
  const kind = fileKind(file);
  if (kind === 'other' || kind === 'directory') throw notPlainFileError(file, "the running watcher's pid");
  // A watcher runs for days: its file is never stale by age, only once its pid no longer runs `tsm watch`
  // (an empty one, left by a process killed between its open and its write, after 2 s: file-lock.ts PIDLESS_MS).
  if (tryLockFile(file, { staleMs: Infinity, holds: watcherRuns, text: `${process.pid}\n` })) return 'claimed';
  return runningWatcher(tsmDir) ?? 'busy';
}

/** How long `tsm watch` waits while another tsm writes the pid file or takes it over (that takes milliseconds). */
const CLAIM_WAIT_MS = 5_000;
const CLAIM_RETRY_MS = 25;

/**
 * Makes this process the vault's watcher on record: null when it is now, or when no pid file can be made
 * (then `tsm watch` goes without, as before: watch-vault.ts keepPidFile writes it once it can); the pid of
 * the live watcher on record otherwise; 'busy' when the file stayed in another tsm's hands past CLAIM_WAIT_MS.
 */
export async function claimWatcher(tsmDir: string): Promise<number | null | 'busy'> {
  for (const end = Date.now() + CLAIM_WAIT_MS; ; ) {
    let claim: WatcherClaim;
    try {
      claim = claimWatcherPid(tsmDir);
    } catch {
      return otherRunningWatcher(tsmDir);
    }
    if (claim !== 'busy') return claim === 'claimed' || claim === process.pid ? null : claim;
    if (Date.now() >= end) return 'busy';
    await new Promise((resolve) => setTimeout(resolve, CLAIM_RETRY_MS));
  }
}

/**
 * A running watcher's check that it is still on record (`.tsm/` deleted under it, which it rebuilds):
 * claims the file again unless it holds this process's pid or another live watcher's. When it wrote, what
 * the file was before, for the watcher's notice: `was gone`, `held "…", not a pid`, or `named pid N` (a file another program wrote
 * over it: "was gone" said of a file that was there misled); null when it wrote nothing (its own file, a
 * vault that is gone, a folder it may not write, or another tsm taking the file this moment).
 */
export function restoreWatcherPid(tsmDir: string): string | null {
  const found = readPidFile(tsmDir);
  if (found?.pid === process.pid) {
    keepOwnFileDated(tsmDir, found.takenAtMs);
    return null;
  }
  try {
    if (claimWatcherPid(tsmDir) !== 'claimed') return null;
  } catch {
    return null;
  }
  if (found === null) return 'was gone';
  if (found.pid !== null) return `named pid ${found.pid}, no running watcher`;
  // A file of text that is no pid was said to be "gone" too, though it was there.
  const text = found.text.trim();
  return text === '' ? 'was empty, no pid' : `held ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}, not a pid`;
}

/**
 * The watcher's own file is dated again when its time reads as earlier than this process's start: the
 * clock was stepped forward since it was written (a board without a real-time clock, set by NTP after
 * booting), and by that time watcherRuns took this watcher for a later process with a reused pid. Checked
 * each second (watch-vault.ts keepPidFile), so a second `tsm watch` or `tsm status` misjudges it for at
 * most that second after such a step.
 */
function keepOwnFileDated(tsmDir: string, takenAtMs: number): void {
  if (holderRuns(process.pid, takenAtMs)) return;
  try {
    const now = new Date();
    utimesSync(watcherPidFile(tsmDir), now, now);
  } catch {
    // gone or not ours to touch this moment: the next check claims it again
  }
}

/** Removes the pid file, only if it is this process's (another watcher may have started since). */
export function removeWatcherPid(tsmDir: string): void {
  try {
    if (recorded(tsmDir)?.pid === process.pid) rmSync(watcherPidFile(tsmDir));
  } catch {
    // already gone
  }
}

/** The pid the file names and when it was written (its mtime, from the same open file), or null. */
function recorded(tsmDir: string): { pid: number; takenAtMs: number } | null {
  const found = readPidFile(tsmDir);
  return found === null || found.pid === null ? null : { pid: found.pid, takenAtMs: found.takenAtMs };
}

/** What the file holds: its text, the pid it names (null: none) and its mtime; null when it is no plain file to read. */
function readPidFile(tsmDir: string): { text: string; pid: number | null; takenAtMs: number } | null {
  let fd: number;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked the read forever, and with it `tsm status`,
    // `tsm doctor`, `tsm watch` and the SessionStart hook (past Claude Code's hook timeout).
    fd = openRegularFile(watcherPidFile(tsmDir));
  } catch {
    return null;
  }
  try {
    // Read by the claim's rule (lockPid), so that what the claim takes for stale is what names no watcher here.
    const text = readFileSync(fd, 'utf8');
    return { text, pid: lockPid(text), takenAtMs: fstatSync(fd).mtimeMs };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether `pid` may be the watcher that wrote the file at `takenAtMs`: it lives and, where /proc tells,
 * started no later (holderRuns, the locks' rule) and runs `tsm watch` (runsTsmWatch). Both checks: after a
 * reboot the pid may be another program's, or another vault's `tsm watch` (its command line alone passed:
 * this vault then refused to start its watcher, and `tsm status` named the other one).
 */
function watcherRuns(pid: number, takenAtMs: number): boolean {
  return holderRuns(pid, takenAtMs) && runsTsmWatch(pid) !== false;
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
