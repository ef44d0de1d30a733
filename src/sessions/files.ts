// File helpers for ingest: atomic writes and byte-exact reads of a growing file.

import { accessSync, closeSync, constants, existsSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TsmError } from '../core/errors.js';
import { isNoWrite, machineShortOf } from '../core/machine-limits.js';
import { isNotRegular, notPlainFileError, openRegularFile } from '../vault/file-kind.js';
import { makeVaultFolder } from '../vault/folders.js';

/**
 * Writes via a temp file in the same folder and a rename, so readers never see half a file; the folder is
 * made inside `vault` if missing, never the vault itself (src/vault/folders.ts). `between` runs after the
 * temp file is written and before the rename, and an error in it leaves `path` as it was: the ingest state
 * takes effect only once the note it records is written, and a disk too full for the state fails before
 * the note is touched. (Written after the note, a state that found no room left tsm's own note recorded
 * with its older hash, taken by the next ingest for one its user had edited: frozen, and a `-2` note.)
 */
export function writeFileAtomic(vault: string, path: string, content: string, between: () => void = () => {}): void {
  makeVaultFolder(vault, dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content);
    between();
    renameSync(temp, path);
  } catch (err) {
    // The write's own error is the one to tell: a clean-up that fails too (the folder gone read-only, an I/O
    // error) leaves a hidden `.tmp` file behind rather than taking that error's place.
    try {
      rmSync(temp, { force: true });
    } catch {
      /* left behind */
    }
    throw err;
  }
}

/**
 * Writes a session note like writeFileAtomic, or says why it cannot and what fixes it. A note the user made
 * read-only is not replaced: the rename would replace it all the same, as the folder allows it. The error
 * (from a hook: a hook.log line; from `tsm ingest-session`: its one stderr line) leaves the ingest state as
 * it was, so the first ingest after the fix writes the whole note.
 */
export function writeNoteFile(vault: string, path: string, content: string, opts: { newSession: boolean }): void {
  try {
    if (existsSync(path)) accessSync(path, constants.W_OK);
    writeFileAtomic(vault, path, content);
  } catch (err) {
    throw unwritableNote(err, path, opts.newSession) ?? err;
  }
}

const NOTHING_LOST = 'nothing is lost: the next ingest writes the whole note';

/** A full disk (or quota) met writing the session's note or its ingest state, as one line with the fix; else null. */
export function noRoomFor(err: unknown, path: string): TsmError | null {
  const short = machineShortOf(err);
  return short === null ? null : new TsmError(`cannot write ${path}: ${short}; ${NOTHING_LOST}`);
}

function unwritableNote(err: unknown, path: string, newSession: boolean): TsmError | null {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (!isNoWrite(err)) return noRoomFor(err, `the session note ${path}`);
  // A session already written stays in its folder whatever sessionsDir says (ingest.ts notesOf): only a new one can go elsewhere.
  const elsewhere = newSession ? ' (or set sessionsDir, TSM_SESSIONS_DIR, to a folder you can write)' : '';
  const later = `${elsewhere}; ${NOTHING_LOST}`;
  const folder = nearestFolder(dirname(path));
  const folderCode = writeAccess(folder);
  const [what, fix] =
    folderCode === 'EROFS'
      ? [`${folder} is on a read-only file system`, 'remount it writable']
      : folderCode !== null
        ? [`the folder ${folder} is not writable for this user`, `make it writable (chmod u+w ${folder}, or chown it)`]
        : [`the note is read-only`, `make it writable (chmod u+w ${path})`];
  return new TsmError(`cannot write the session note ${path}: ${what} (${code}): ${fix}${later}`);
}

/** `dir`, or its nearest ancestor that exists (the folder a missing sessions folder would be made in). */
function nearestFolder(dir: string): string {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** null when this process may write in `path`, else the error code that says why not. */
function writeAccess(path: string): string | null {
  try {
    accessSync(path, constants.W_OK);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/**
 * The file's text, or null when it does not exist or cannot be read. Every file ingest reads (its state, the
 * session's notes, a lock) is opened as notes are (file-kind.ts openRegularFile): a FIFO there blocked the
 * open, and with it the Stop hook past Claude Code's kill and a detached SessionEnd worker for good. Anything
 * there that is not a plain file is an error naming it, `what` being what tsm keeps at that path: taken for
 * no file, the state or note tsm writes would replace it (a rename), and it is not tsm's.
 */
export function readTextOrNull(path: string, what = 'a session file'): string | null {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (err) {
    if (isNotRegular(err)) throw notPlainFileError(path, what);
    return null;
  }
  try {
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Bytes [start, end) of a file (fewer if it is shorter); a FIFO or device there throws (openRegularFile), never blocks. */
export function readRange(path: string, start: number, end: number): Buffer {
  const length = Math.max(0, end - start);
  const buffer = Buffer.alloc(length);
  if (length === 0) return buffer;
  const fd = openRegularFile(path);
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Newline bytes in the file's first `end` bytes, read 1 MiB at a time (a transcript may hold hundreds of MB). */
export function countNewlines(path: string, end: number): number {
  const chunk = Buffer.alloc(Math.min(end, 1 << 20));
  let newlines = 0;
  const fd = openRegularFile(path);
  try {
    for (let at = 0; at < end; ) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, end - at), at);
      if (n === 0) break;
      const bytes = chunk.subarray(0, n);
      for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, nl + 1)) newlines++;
      at += n;
    }
    return newlines;
  } finally {
    closeSync(fd);
  }
}

export interface SplitBytes {
  /** Complete lines (each ended by `\n` in the file), decoded as UTF-8. */
  lines: string[];
  /** Bytes covered by `lines`, newlines included. */
  consumed: number;
  /** Text after the last newline: a line still being written, or a final line without newline. */
  rest: string;
}

/** Splits on newline bytes before decoding, so a multi-byte character is never cut in two. */
export function splitLines(bytes: Buffer): SplitBytes {
  const lines: string[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a, start); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.toString('utf8', start, nl));
    start = nl + 1;
  }
  return { lines, consumed: start, rest: bytes.toString('utf8', start) };
}
