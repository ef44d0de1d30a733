// File helpers for ingest: atomic writes and byte-exact reads of a growing file.

import { accessSync, closeSync, constants, existsSync, fstatSync, linkSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
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
  const temp = writeTempBeside(vault, path, content);
  try {
    between();
    renameSync(temp, path);
  } catch (err) {
    removeTemp(temp);
    throw err;
  }
}

/** `content` in a new temp file beside `path` (its folder made inside `vault` if missing); none left on failure. */
function writeTempBeside(vault: string, path: string, content: string): string {
  makeVaultFolder(vault, dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content);
  } catch (err) {
    removeTemp(temp);
    throw err;
  }
  return temp;
}

/**
 * Removes a temp file if it is there. After a failed write, the write's own error is the one to tell: a
 * clean-up that fails too (the folder gone read-only, an I/O error) leaves a hidden `.tmp` file behind rather
 * than taking that error's place.
 */
function removeTemp(temp: string): void {
  try {
    rmSync(temp, { force: true });
  } catch {
    /* left behind */
  }
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A session note its user changed (or a file that appeared where a new note goes) between tsm's check of it
 * and its write: nothing was written over it. Thrown from the ingest state's write (writeFileAtomic's
 * `between`), so the state stays as it was, and the next ingest finds the note edited (ingest.ts).
 */
export class NoteChangedError extends TsmError {
  override name = 'NoteChangedError';
}

/**
 * Writes a session note like writeFileAtomic, or says why it cannot and what fixes it. A note the user made
 * read-only is not replaced: the rename would replace it all the same, as the folder allows it. The error
 * (from a hook: a hook.log line; from `tsm ingest-session`: its one stderr line) leaves the ingest state as
 * it was, so the first ingest after the fix writes the whole note.
 *
 * `was` is what tsm found at `path` when it planned the write: the sha256 of the note it last wrote there, or
 * null for no file. The note is checked again just before it is replaced (replaceIfStill), and a new one is
 * made so that it can replace nothing (createOnly), else NoteChangedError. Checked only when the write was
 * planned, a user's edit made meanwhile was overwritten: rendering a 700 KB note and writing the state took
 * tens of ms, and 4 of 12 edits made 0–150 ms after `tsm ingest-session` took its lock (those 20–70 ms in)
 * were lost (test/sessions/edit-race.e2e.test.ts).
 */
export function writeNoteFile(vault: string, path: string, content: string, opts: NoteWriteOptions): void {
  const staged = stageNoteFile(vault, path, content, opts);
  try {
    staged.place();
  } finally {
    staged.discard();
  }
}

export interface NoteWriteOptions {
  newSession: boolean;
  was: string | null;
}

/** A session note's new content in its temp file beside it (stageNoteFile), not in place yet. */
export interface StagedNote {
  /** Puts it in place, as writeNoteFile does: only over the note as tsm found it (`was`), else NoteChangedError. */
  place(): void;
  /** Removes the temp file if it was never put in place. */
  discard(): void;
}

/**
 * writeNoteFile in two steps: the content is written to its temp file now, and put in place by `place`. An
 * ingest that writes several notes stages all of them before it places any, so a disk with no room for one
 * fails before any is placed. Placed one by one as written, a note closed at its size was in place when its
 * continuation found the disk full; the state, not saved, still had that note's older hash, and the next
 * ingest took it for one its user had edited and wrote its prompts again in new continuations
 * (test/sessions/notes-disk-full.test.ts).
 */
export function stageNoteFile(vault: string, path: string, content: string, opts: NoteWriteOptions): StagedNote {
  const failed = (err: unknown) => unwritableNote(err, path, opts.newSession) ?? err;
  let temp: string;
  try {
    if (existsSync(path)) accessSync(path, constants.W_OK);
    temp = writeTempBeside(vault, path, content);
  } catch (err) {
    throw failed(err);
  }
  return {
    place: () => {
      try {
        if (opts.was === null) createOnly(temp, path);
        else replaceIfStill(temp, path, opts.was);
      } catch (err) {
        removeTemp(temp);
        throw failed(err);
      }
    },
    discard: () => removeTemp(temp),
  };
}

/**
 * Removes a note tsm wrote (renamed when its session's start moved) if it still holds `was`; else it is the
 * user's now, and stays (NoteChangedError). The window left is between the check and the unlink.
 */
export function removeNoteIf(path: string, was: string): void {
  checkNoteHolds(path, was);
  rmSync(path, { force: true });
}

/** Throws NoteChangedError unless the note at `path` holds `was` (the sha256 of what tsm wrote there). */
export function checkNoteHolds(path: string, was: string): void {
  if (!holds(path, was)) throw changed(path);
}

const changed = (path: string) => new NoteChangedError(`the session note ${path} changed while tsm was writing it: it is left as it is`);

/**
 * A hard link of the written temp file at `path`: atomic, and it fails (EEXIST) when anything is there, so a
 * file that appeared since the check is never replaced. Where the file system has no hard links (FAT, exFAT,
 * some network shares) the check is made again just before the rename, which leaves the moment between them.
 */
function createOnly(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw changed(path);
    if (existsSync(path)) throw changed(path);
    renameSync(temp, path);
    return;
  }
  rmSync(temp, { force: true });
}

/**
 * Replaces the note at `path` if it still holds `was`: its content is hashed, then the file's identity (inode,
 * size, mtime to the nanosecond) is taken again right before the rename, so an edit landing while it was
 * hashed is seen too. What is left: the few microseconds between that stat and the rename, and an edit
 * of the same size in the same mtime tick (a few ms on ext4) as the read.
 */
function replaceIfStill(temp: string, path: string, was: string): void {
  const read = readWithStat(path);
  if (read === null || sha256(read.data) !== was) throw changed(path);
  const now = statOrNull(path);
  if (now === null || !sameFile(now, read.stat)) throw changed(path);
  renameSync(temp, path);
}

function holds(path: string, was: string): boolean {
  const read = readWithStat(path);
  return read !== null && sha256(read.data) === was;
}

function readWithStat(path: string): { data: Buffer; stat: BigIntStats } | null {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (err) {
    if (isNotRegular(err)) throw notPlainFileError(path, 'a session note');
    return null;
  }
  try {
    return { stat: fstatSync(fd, { bigint: true }), data: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

function statOrNull(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return null;
  }
}

const sameFile = (a: BigIntStats, b: BigIntStats) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

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
