// Reading one vault file for the parser: size and binary checks before parsing, a content hash for
// change detection, and every filesystem failure mapped to `gone` or `skipped` instead of thrown.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import type { ParsedNote, VaultFile } from '../core/types.js';
import { NOT_REGULAR, openRegularFile } from '../vault/file-kind.js';
import type { ParseOptions } from './options.js';
import { parseNote } from './parse-note.js';
import { BINARY_REASON, decodeNoteBytes, encodingOf } from '../text/decode.js';

export type LoadResult =
  | { kind: 'note'; note: ParsedNote; hash: string }
  /** The bytes are the ones the index already holds (file.knownHash): touched, not changed. */
  | { kind: 'unchanged'; hash: string }
  /** `retry`: the read failed for a reason of the moment (TRANSIENT), not of the file: read it again next time. */
  | { kind: 'skipped'; reason: string; hash: string | null; retry?: true }
  | { kind: 'gone' };

/** Content hash of a file's bytes (sha1, hex). */
export function hashBytes(buf: Uint8Array): string {
  return createHash('sha1').update(buf).digest('hex');
}

/** Bytes searched for NUL to tell a binary file from text. */
const BINARY_PROBE = 8192;

export function loadNote(file: VaultFile, opts: ParseOptions): LoadResult {
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    const read = readFileLimited(file.absPath, opts.maxFileBytes);
    if (read.kind !== 'bytes') return read;
    bytes = read.bytes;
    mtimeMs = read.mtimeMs;
  } catch (err) {
    return failure(err);
  }
  const hash = hashBytes(bytes);
  if (hash === file.knownHash) return { kind: 'unchanged', hash };
  const encoding = encodingOf(bytes);
  // UTF-16 text is half NUL bytes: only its byte order mark tells it from a binary file.
  if (encoding === 'utf-8' && bytes.subarray(0, BINARY_PROBE).indexOf(0) !== -1) {
    return { kind: 'skipped', reason: BINARY_REASON, hash };
  }
  const { text, valid } = decodeNoteBytes(bytes);
  const note = parseNote({ path: file.path, content: text, mtimeMs }, opts);
  if (!valid) note.warnings.unshift(`invalid ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()}: undecodable bytes replaced with U+FFFD`);
  return { kind: 'note', note, hash };
}

type ReadResult =
  | { kind: 'bytes'; bytes: Buffer; mtimeMs: number }
  | { kind: 'skipped'; reason: string; hash: null };

/** The whole file, unless its size (checked before reading, and again after) is over the limit. */
function readFileLimited(absPath: string, maxBytes: number): ReadResult {
  const fd = openRegularFile(absPath);
  try {
    const st = fstatSync(fd);
    if (st.size > maxBytes) return tooBig(st.size, maxBytes);
    // The file may grow between stat and read: read in steps and stop past the limit.
    let buf = Buffer.allocUnsafe(Math.max(st.size, 1));
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > maxBytes) return tooBig(length, maxBytes);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) return tooBig(length, maxBytes);
    return { kind: 'bytes', bytes: buf.subarray(0, length), mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function tooBig(size: number, maxBytes: number): ReadResult {
  return { kind: 'skipped', reason: `file too large (${size} bytes > ${maxBytes})`, hash: null };
}

function failure(err: unknown): LoadResult {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
  const reasons: Record<string, string> = {
    EISDIR: 'is a directory',
    ENOTREGULAR: NOT_REGULAR,
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ELOOP: 'too many symbolic links',
    EMFILE: 'too many open files',
  };
  const reason = (code && reasons[code]) ?? `unreadable: ${err instanceof Error ? err.message : String(err)}`;
  return code && TRANSIENT.has(code) ? { kind: 'skipped', reason, hash: null, retry: true } : { kind: 'skipped', reason, hash: null };
}

/**
 * Read errors that say nothing of the file, only of the moment: a cloud file being downloaded (iCloud,
 * Dropbox, OneDrive online-only files fail with EIO, ETIMEDOUT or EDEADLK until they are on the disk, and
 * their stat need not change when they are), a busy or interrupted read, too many open files. Recorded as a
 * skip by the file's stat, such a note left the index until its stat changed, possibly for good.
 */
const TRANSIENT = new Set(['EIO', 'ETIMEDOUT', 'EDEADLK', 'EAGAIN', 'EBUSY', 'EINTR', 'ECANCELED', 'EMFILE', 'ENFILE', 'ENOMEM']);
