// File helpers for ingest: atomic writes and byte-exact reads of a growing file.

import { closeSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { makeVaultFolder } from '../vault/folders.js';

/**
 * Writes via a temp file in the same folder and a rename, so readers never see half a file; the folder is
 * made inside `vault` if missing, never the vault itself (src/vault/folders.ts).
 */
export function writeFileAtomic(vault: string, path: string, content: string): void {
  makeVaultFolder(vault, dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** The file's text, or null when it does not exist or cannot be read. */
export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Bytes [start, end) of a file (fewer if it is shorter). */
export function readRange(path: string, start: number, end: number): Buffer {
  const length = Math.max(0, end - start);
  const buffer = Buffer.alloc(length);
  if (length === 0) return buffer;
  const fd = openSync(path, 'r');
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
