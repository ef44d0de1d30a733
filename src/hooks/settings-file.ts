// How tsm reads and writes Claude Code's JSON files (settings, .mcp.json, ~/.claude.json): never clobbering
// (a file that is not valid JSON is a ConfigError and is left as it is), atomically, keeping the file's mode
// and the way it is written, and never replacing what it must not (a link to nothing, a read-only file).
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isNoWrite, machineShortOf } from '../core/machine-limits.js';
import { ConfigError } from '../vault/config.js';
import { tryLockFile } from '../vault/file-lock.js';
import { fileKind, readUtf8RegularFile } from '../vault/file-kind.js';
import { realPathOr } from '../vault/paths.js';
import { isRecord, type Json } from './claude-settings.js';

export interface JsonFile {
  data: Json;
  exists: boolean;
  /** The text as read (null: no file), to write it back the same way and to tell whether it changed since. */
  text: string | null;
}

export function readJsonObject(path: string): JsonFile {
  if (!existsSync(path)) return { data: {}, exists: false, text: null };
  let text: string;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked `tsm doctor` and `tsm init --claude` for good.
    text = readUtf8RegularFile(path);
  } catch (err) {
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return { data: {}, exists: true, text };
  let data: unknown;
  try {
    // Plain JSON, no comments: Claude Code refuses a settings file holding one ("Invalid or malformed JSON").
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON (${(err as Error).message}); it was left as it is: correct it, then run \`tsm init --claude\` again`);
  }
  if (!isRecord(data)) throw new ConfigError(`${path} must hold a JSON object; it was left as it is`);
  return { data, exists: true, text };
}

export function readJsonOrNull(path: string): Json | null {
  try {
    return readJsonObject(path).data;
  } catch {
    return null;
  }
}

/**
 * Throws a ConfigError for a file tsm must not replace, before anything is written:
 * - a link to nothing on its way (the file, or its `.claude` folder, linked into a dotfiles repository not
 *   cloned yet): the rename put a plain file in the link's place, and the dotfiles never got the wiring;
 * - a file that is read-only (its owner's way of keeping tools off it): a rename into its folder needs no
 *   write permission on the file, so it was replaced all the same;
 * - a file with hard links (a dotfiles copy linked in): the rename gave this name a new file, and the other
 *   names kept the old one, parted for good.
 */
export function assertReplaceable(linkPath: string): void {
  for (let p = resolve(linkPath); dirname(p) !== p; p = dirname(p)) {
    let isLink: boolean;
    try {
      isLink = lstatSync(p).isSymbolicLink();
    } catch {
      continue; // not there yet: made by the write
    }
    if (isLink && !existsSync(p)) {
      // (A link in a loop too: existsSync follows it and finds nothing.)
      const target = resolve(dirname(p), readlinkSync(p));
      const make = p === resolve(linkPath) ? `create ${target} (\`{}\` will do)` : `create the folder ${target}`;
      throw new ConfigError(`${p} is a link to ${target}, which does not exist: tsm leaves the link as it is; ${make} or remove the link, then run \`tsm init --claude\` again`);
    }
    break;
  }
  const path = realPathOr(linkPath);
  if (fileKind(path) !== 'file') return;
  const st = statSync(path);
  if (st.nlink > 1) {
    throw new ConfigError(
      `${linkPath} has ${st.nlink} names (hard links), and a new file in its place would part it from the others: tsm leaves it as it is; make it a symlink (\`ln -sf\`) or a single file, then run \`tsm init --claude\` again`,
    );
  }
  let writable = (st.mode & 0o222) !== 0; // root may write anywhere: the mode bits still say what the owner wants
  try {
    accessSync(path, constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable) {
    throw new ConfigError(`${linkPath} is read-only: tsm leaves it as it is; make it writable (\`chmod u+w ${linkPath}\`) and run \`tsm init --claude\` again`);
  }
}

/**
 * Reads `linkPath`, lets `merge` change its data, and writes it back when `merge` says it changed: under a
 * lock beside the file, so two tsm never write it at once, and again from the start when the file changed
 * between the read and the rename (Claude Code writes ~/.claude.json while it runs). Measured: 8
 * `tsm init --claude` at once in 8 projects each said "added", and Claude Code's config held 4 of them.
 * `merge` must be idempotent; what it returns for the data written is returned.
 */
export function updateJson<T extends { changed: boolean }>(linkPath: string, merge: (data: Json) => T): T {
  const path = realPathOr(linkPath);
  const lock = join(dirname(path), `.${basename(path)}.tsm-lock`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    waitForLock(lock, path);
  } catch (err) {
    throw err instanceof ConfigError ? err : writeError(path, err);
  }
  try {
    for (let attempt = 1; ; attempt++) {
      const file = readJsonObject(linkPath);
      const result = merge(file.data);
      if (!result.changed || writeJson(linkPath, file.data, file.text)) return result;
      if (attempt === 5) throw new ConfigError(`${path} kept changing while tsm wrote it (Claude Code writing it?): run \`tsm init --claude\` again`);
    }
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Sleeps the thread (init is a one-off command with nothing else to do meanwhile). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function waitForLock(lock: string, path: string): void {
  // A lock left by a killed tsm is taken over once its pid is gone (file-lock.ts); a live holder writes two
  // small files, in milliseconds.
  const end = Date.now() + 10_000;
  while (!tryLockFile(lock, { staleMs: 60_000 })) {
    if (Date.now() > end) throw new ConfigError(`${path} is being written by another tsm (${lock} is held): wait for it, then run \`tsm init --claude\` again`);
    pause(10 + Math.random() * 20);
  }
}

/**
 * Writes `data` in place of `linkPath` atomically (Claude Code may read the file at any moment), keeping its
 * mode (Claude Code's own config is private, 0600, and must stay so) and the way `before` (its text as read,
 * null: none) is written. Returns false, writing nothing, when the file no longer holds `before`. A symlinked
 * file (a dotfile manager's) is written where it leads: a rename over the link itself made it a plain file,
 * and the file it pointed to never changed.
 */
function writeJson(linkPath: string, data: Json, before: string | null): boolean {
  const path = realPathOr(linkPath);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    if (basename(linkPath) === '.claude.json') mode = 0o600;
  }
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, formatJson(data, before), { mode });
    chmodSync(temp, mode);
    if (currentText(path) !== before) {
      rmSync(temp, { force: true });
      return false;
    }
    renameSync(temp, path);
    return true;
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Where the temp file could not be made, removing it fails too (a home this user may not enter:
      // EACCES on its lstat); that error hid the one that says why, and went out as a stack trace.
    }
    throw err instanceof ConfigError ? err : writeError(path, err);
  }
}

function currentText(path: string): string | null {
  return existsSync(path) ? readUtf8RegularFile(path) : null;
}

function writeError(path: string, err: unknown): ConfigError {
  const cause = machineShortOf(err) ?? (err as Error).message;
  const fix = isNoWrite(err) ? ': make it and its folder writable for you' : '';
  return new ConfigError(`cannot write ${path}: ${cause}${fix}`);
}

/**
 * `data` as JSON written the way `before` was: its indent (a tab, 4 spaces), line ends (CRLF), byte order
 * mark and final newline (or none), so a rewrite changes only the lines tsm adds. A committed settings.json
 * written with CRLF and 4 spaces came back LF and 2 spaces: a diff of every line. A new file, or one on a
 * single line (no indent to keep), gets 2 spaces, LF and a final newline.
 */
export function formatJson(data: Json, before: string | null): string {
  const body = (before ?? '').replace(/^\uFEFF/, '');
  const oneLine = !body.includes('\n');
  const indent = oneLine ? '  ' : (/^([ \t]+)\S/m.exec(body)?.[1] ?? '  ');
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = body.trim() === '' || /\n$/.test(body);
  const bom = (before ?? '').startsWith('\uFEFF') ? '\uFEFF' : '';
  return `${bom}${JSON.stringify(data, null, indent).replace(/\n/g, eol)}${finalNewline ? eol : ''}`;
}
