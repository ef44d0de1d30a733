// The machine ran short: a full disk, a used-up quota, too many open files. Not tsm's bug and not the
// user's notes: one wording for each, with its fix, for every file tsm writes or opens outside SQLite (the
// index's own full disk is SQLITE_FULL: src/index/db.ts).
import { isExplained } from './errors.js';

const SHORT: Record<string, string> = {
  ENOSPC: 'the disk is full: free some space',
  EDQUOT: 'your disk quota is used up: free some space',
  // Node's own module loader opens tsm's code files at once: below about 48 (measured: 40 failed, 48 ran)
  // `tsm index` died with a stack trace while loading itself.
  EMFILE: 'too many open files for one process (`ulimit -n`): raise the limit (`ulimit -n 4096`)',
  ENFILE: 'the system has too many open files: close some programs, or raise its limit (fs.file-max)',
};

/** What an error of the machine running short means and what fixes it, or null for any other error. */
export function machineShortOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(SHORT, code) ? `${SHORT[code]} (${code})` : null;
}

/**
 * The message of an error the reader can act on, or null for a bug: tsm's own errors (their message), and
 * the machine running short wherever it is met (its cause and fix, then the error as Node wrote it: which
 * file). Before, such an error met where tsm did not expect it went out as a stack trace (`tsm status` under
 * `ulimit -n 40`, from Node's module loader) or to hook.log as a bug.
 */
export function readableMessage(err: unknown): string | null {
  if (isExplained(err)) return err.message;
  const short = machineShortOf(err);
  // Node's message repeats the code: `EMFILE: too many open files, open '…/chunk-….js'`.
  return short === null ? null : `${short}: ${(err as Error).message.replace(/^E[A-Z]+: /, '')}`;
}

const NO_WRITE = new Set(['EACCES', 'EPERM', 'EROFS']);

/** True for an error that says this user may not write there (permissions, a read-only file system). */
export function isNoWrite(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NO_WRITE.has(code);
}
