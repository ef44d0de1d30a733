// A lock file, so two hook processes never ingest the same transcript at once (Stop and a detached
// SessionEnd can overlap; the later one must not be overwritten by the earlier one's older view). Its claim
// (tryLockFile) also keeps `.tsm/watch.pid` to one watcher (watcher-pid.ts).
import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { TsmError } from '../core/errors.js';
import { isNotRegular, notPlainFileError, readRegularFile } from './file-kind.js';
import { makeVaultFolder } from './folders.js';
import { holderRuns, lockPid } from './process-start.js';

export class LockTimeoutError extends TsmError {
  override name = 'LockTimeoutError';
}

export interface LockOptions {
  /** The vault the lock's folder is made in (folders.ts: never the vault itself). */
  vault: string;
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** A lock older than this (ms) is left over from a crash and is taken over. */
  staleMs?: number;
}

const POLL_MS = 25;
const DEFAULT_STALE_MS = 120_000;

/** Runs `fn` holding `<path>` (created exclusively, holding our pid); always releases it. */
export async function withFileLock<T>(path: string, opts: LockOptions, fn: () => Promise<T> | T): Promise<T> {
  makeVaultFolder(opts.vault, dirname(path));
  const end = Date.now() + opts.timeoutMs;
  while (!tryAcquire(path, opts.staleMs ?? DEFAULT_STALE_MS)) {
    if (Date.now() >= end) throw new LockTimeoutError(`${path} is held by another tsm process`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}

function tryAcquire(path: string, staleMs: number): boolean {
  return tryLockFile(path, { staleMs });
}

/** Whether the process `pid` still holds a lock it took at `takenAtMs` (epoch ms: the file's mtime). */
export type HolderRule = (pid: number, takenAtMs: number) => boolean;

export interface ClaimRules {
  /** A lock older than this (ms) is left over from a crash and is taken over (default 120 s). */
  staleMs?: number;
  /** Who still holds it (default holderRuns: its pid lives, and started before the lock was taken). */
  holds?: HolderRule;
  /** What the file holds (default the bare pid, as older tsm wrote and read it): the pid, read by lockPid. */
  text?: string;
}

/**
 * One try at `path`: made exclusively (O_EXCL) holding this process's pid (true), or left to the process that
 * holds it (false). A stale one (isStale, by `rules`) is taken over first, one process at a time (takeOver).
 */
export function tryLockFile(path: string, rules: ClaimRules = {}): boolean {
  const staleMs = rules.staleMs ?? DEFAULT_STALE_MS;
  const holds = rules.holds ?? holderRuns;
  const text = rules.text ?? String(process.pid);
  if (create(path, text)) return true;
  if (!isStale(path, staleMs, holds)) return false;
  takeOver(path, staleMs, holds);
  return create(path, text);
}

/** Creates `path` exclusively, holding `text` (our pid); false when it exists. */
function create(path: string, text = String(process.pid)): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
  try {
    writeSync(fd, text);
  } catch (err) {
    // A full disk: an empty lock left behind held off every other process for PIDLESS_MS.
    closeSync(fd);
    rmSync(path, { force: true });
    throw err;
  }
  closeSync(fd);
  return true;
}

/**
 * Removes a stale lock, one waiter at a time: two waiters that judged it stale at once each removed it, the
 * later removing the lock the earlier had just taken, and both held it (test/vault/file-lock-race.test.ts).
 * The waiter holding `<path>.takeover` (a lock of the same kind) judges the lock again and removes it only
 * if still stale; the others try again later. That guard is held for a stat and a remove: one left by a
 * process killed in between is stale by the same rules, and is removed without a guard of its own (two
 * waiters racing there need that kill within those microseconds first).
 */
function takeOver(path: string, staleMs: number, holds: HolderRule): void {
  const guard = `${path}.takeover`;
  if (!create(guard)) {
    if (isStale(guard, staleMs, holderRuns)) rmSync(guard, { force: true });
    return;
  }
  try {
    if (isStale(path, staleMs, holds)) rmSync(path, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/** True when `path` is a lock some live tsm process holds (a lock left by a crash does not count). */
export function isLockHeld(path: string, staleMs = DEFAULT_STALE_MS): boolean {
  try {
    statSync(path);
  } catch {
    return false;
  }
  return !isStale(path, staleMs, holderRuns);
}

/**
 * How long a lock may hold no pid: its holder writes the pid right after creating the file, so an empty (or
 * garbled) lock older than this was left by a process that died in between, or whose write failed (a full
 * disk). Such a lock was taken for held until staleMs (120 s): every Stop of those two minutes waited its
 * whole lock timeout.
 */
const PIDLESS_MS = 2_000;

/**
 * Stale: its process is gone (or its pid is another process's now, where /proc tells: Linux), it
 * never got a pid, or it is older than any ingest takes. Where a reused pid cannot be told from its holder,
 * such a lock stays until staleMs, and a waiter with a deadline (the Stop hook) gives up at its deadline.
 */
function isStale(path: string, staleMs: number, holds: HolderRule): boolean {
  let taken: number;
  let text: string;
  try {
    taken = statSync(path).mtimeMs;
    // Read as a note is (file-kind.ts): a FIFO here blocked the read, and the Stop hook with it, for good.
    text = readRegularFile(path);
  } catch (err) {
    // Not a lock tsm made, and never one it can take: waiting for it to go would wait the whole timeout, for nothing.
    if (isNotRegular(err)) throw notPlainFileError(path, 'a lock');
    return false; // gone since (released): nothing to take over
  }
  const age = Date.now() - taken;
  if (age > staleMs) return true;
  const pid = lockPid(text);
  if (pid === null) return age > PIDLESS_MS; // being written right now, unless it is old
  // The lock's time is when its holder wrote it: a process with its pid that started later is not the holder.
  return !holds(pid, taken);
}
