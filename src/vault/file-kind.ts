// What kind of thing is at a path, asked before opening it. Opening a FIFO blocks the whole process
// until some other process opens its other end (a JS timer cannot fire meanwhile), and a device or a
// socket is never a note, a config or an index. Everything tsm opens on a fast path asks here first.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { TsmError } from '../core/errors.js';
import { decodeNoteBytes } from '../text/decode.js';

export type FileKind = 'absent' | 'file' | 'directory' | 'other';

/** The kind at `path`, following symlinks (`lstat: true` looks at the link itself: a link is 'other'). */
export function fileKind(path: string, opts: { lstat?: boolean } = {}): FileKind {
  let st;
  try {
    st = opts.lstat ? lstatSync(path) : statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'other';
  }
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

/** Device and inode of a file, or null when it does not exist: tells a replaced file from the same one. */
export function fileIdentity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * Opens `path` for reading only if it is a regular file, and returns the descriptor. The open does not
 * block (O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; a regular file reads as it
 * always does) and the check is made on the open descriptor, so a note replaced by a FIFO or a device
 * after it was indexed, or between a check and the read, can never hang the process. Throws EISDIR for
 * a folder and ENOTREGULAR for anything else that is not a regular file.
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (st.isFile()) return fd;
    const dir = st.isDirectory();
    throw Object.assign(new Error(dir ? 'is a directory' : NOT_REGULAR), { code: dir ? 'EISDIR' : 'ENOTREGULAR' });
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

export const NOT_REGULAR = 'not a regular file (a pipe, a socket or a device)';

/** Whether an error from openRegularFile (or a read through it) says something other than a plain file is there, a folder included. */
export function isNotRegular(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOTREGULAR' || code === 'EISDIR';
}

/**
 * The error for a file tsm keeps for itself (`what`: "this session's ingest state") found to be a folder, a
 * pipe, a socket or a device: the reader is told what is there and what fixes it. tsm does not remove it:
 * it did not make it.
 */
export function notPlainFileError(path: string, what: string): TsmError {
  return new TsmError(`${path} is not a plain file (a folder, a pipe, a socket or a device), and tsm keeps ${what} there: move it aside`);
}

/** A regular file's whole text (UTF-8, or UTF-16 with a BOM, as notes are read), opened as openRegularFile opens it. */
export function readRegularFile(path: string): string {
  const fd = openRegularFile(path);
  try {
    return decodeNoteBytes(readFileSync(fd)).text;
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's text as UTF-8 (a config, a settings or a pid file: read as written, a BOM left for their
 * parsers), opened as openRegularFile opens it, so a FIFO put in its place can never block a hook or a command.
 */
export function readUtf8RegularFile(path: string): string {
  const fd = openRegularFile(path);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
