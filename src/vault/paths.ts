// The one home of the vault's path rules: what a vault-relative path is, which file names are notes,
// which folders are never entered, how an NFC path is found on disk, and which symlinks lead to notes.
// The scanner, the watcher, `--files-from-stdin` and the MCP tools all decide through these.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { TsmError } from '../core/errors.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { noteExtensionOf } from '../text/file-not-note.js';

/** Folders never indexed nor watched, wherever they are (besides every folder whose name starts with '.'). */
export const ALWAYS_SKIPPED = new Set(['.git', '.tsm', 'node_modules', '.obsidian', '.trash']);

/**
 * Logseq's copies of a graph's pages, which Logseq itself never reads as pages: `logseq/bak/` (the file as it
 * was before a write that conflicted, named by its time: indexed, a copy of a page was a daily note of that
 * day, and its aliases named two notes) and `logseq/version-files/` (its file sync's base and incoming versions).
 */
const LOGSEQ_COPIES = new Set(['bak', 'version-files']);

/**
 * A folder tsm never enters (`parent`: the name of the folder holding it). Dot-folders (`.github/`, `.venv/`,
 * any `.name/`) are hidden, as Obsidian hides them; node_modules is never notes; nor are Logseq's copies.
 */
export function isSkippedFolder(name: string, parent?: string): boolean {
  return name.startsWith('.') || ALWAYS_SKIPPED.has(name) || (parent === 'logseq' && LOGSEQ_COPIES.has(name));
}

/** True when one of `folders` (a path's folder names, from the vault root down) is never entered. */
export function inSkippedFolder(folders: string[]): boolean {
  return folders.some((name, i) => isSkippedFolder(name, folders[i - 1]));
}

/**
 * A file an editor leaves beside the one it edits: a backup (`note.md~`, vim's and Emacs's), an Emacs
 * auto-save (`#note.md#`), or any hidden file (vim's swap `.note.md.swp`, Emacs's lock `.#note.md`, a
 * `.note.md.tmp-123` written before a rename), which Obsidian does not list either. None is an attachment:
 * `a.md~` was one, so `[[a.md~]]` resolved, and a watcher's batch checked each save's backup.
 */
export function isEditorLeftover(name: string): boolean {
  return name.startsWith('.') || name.endsWith('~') || (name.length > 1 && name.startsWith('#') && name.endsWith('#'));
}

/**
 * True when a file is a note by its name: it ends in one of the note extensions, is more than the extension,
 * and is not hidden. A name starting with `.` is no note, as Obsidian does not list it and ripgrep skips it:
 * macOS's `._note.md` (AppleDouble, binary: the Finder writes one beside every file on an exFAT or network
 * drive) was indexed as a note, and Emacs's lock `.#note.md` (a dangling symlink while the note is edited)
 * was a broken-symlink warning in doctor.
 */
export function isNoteName(name: string, extensions: readonly string[]): boolean {
  return !name.startsWith('.') && noteExtensionOf(name, extensions) !== null;
}

/** A name or path without its note extension (`notes/x.md` → `notes/x`); any other name as it is. */
export function withoutNoteExtension(name: string, extensions: readonly string[]): string {
  const ext = noteExtensionOf(name, extensions);
  return ext === null ? name : name.slice(0, -ext.length);
}

/**
 * A path a user or a model typed (`tsm related`'s note, `--path`, `path:`, an MCP `path`) as a
 * vault-relative, `/`-separated, NFC path ('' for the vault itself): relative paths are read from the vault
 * root, absolute ones must lie inside the vault, and the index's NFC form is used whatever form was typed
 * (macOS tab completion types NFD). A trailing slash is kept: "daily/" is a prefix that "daily-old/" is not.
 * Throws an explained error (the CLI reports it as a usage error, MCP as a tool error).
 */
export function typedVaultPath(vault: string, input: string, param = 'path'): string {
  const given = input.trim();
  if (given === '') throw new TsmError(`${param} must not be empty`);
  if (given.includes('\0')) throw new TsmError(`${param} must not contain NUL characters`);
  const abs = resolve(vault, given);
  const root = isInside(vault, abs) ? resolve(vault) : realRootHolding(vault, given, abs);
  if (root === null) {
    throw new TsmError(`${param} is outside the vault: ${given} (give a path relative to the vault root, like the paths search returns)`);
  }
  const rel = vaultRelative(root, abs) ?? ''; // null: the vault itself
  return rel !== '' && /[\\/]$/.test(given) ? `${rel}/` : rel;
}

/**
 * The vault's real folder when the vault was named through a symlink (`--vault ~/notes` leading to another
 * disk; macOS's `/tmp` and `/var`, which are `/private/…`) and the absolute path `given` lies in that real
 * folder: the same file, named as `realpath` or a tool that resolves links names it. Such a path was "outside
 * the vault". Null otherwise: a relative path stays read from the vault as named (`../` never leaves by it).
 */
function realRootHolding(vault: string, given: string, abs: string): string | null {
  if (!isAbsolute(given)) return null;
  let real: string;
  try {
    real = realpathSync(vault);
  } catch {
    return null;
  }
  return real !== resolve(vault) && isInside(real, abs) ? real : null;
}

/**
 * Vault-relative, `/`-separated, NFC; null when `abs` is not below the vault (or is the vault itself).
 * Only the platform's separator separates: on Linux and macOS `a\b.md` is one file name.
 */
export function vaultRelative(vault: string, abs: string): string | null {
  const rel = relative(vault, abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return (sep === '/' ? rel : rel.split(sep).join('/')).normalize('NFC');
}

/** Joins a vault-relative ('/'-separated) path to the vault, as the platform writes paths. */
export function joinVault(vault: string, rel: string): string {
  return join(vault, ...rel.split('/'));
}

/**
 * The file on disk that the (NFC) vault-relative path `rel` names, or null. The index keeps NFC paths
 * while the disk keeps whatever form the file was created with (macOS-style NFD names such as プ or ガ
 * written on Linux): a segment not found as written is looked up by its NFC form in its folder.
 */
export function findOnDisk(vault: string, rel: string): string | null {
  const direct = joinVault(vault, rel);
  if (existsNoFollow(direct)) return direct;
  let dir = vault;
  for (const part of rel.split('/')) {
    const exact = join(dir, part);
    if (existsNoFollow(exact)) {
      dir = exact;
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return null;
    }
    const match = names.find((n) => n.normalize('NFC') === part);
    if (match === undefined) return null;
    dir = join(dir, match);
  }
  return dir;
}

/** Something is at `abs` (a symlink counts as itself, wherever it points). */
export function existsNoFollow(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file whose name is not valid UTF-8 (`b\xff.md`, from an old Latin-1 disk or an archive): Node reads the
 * name with U+FFFD in place of the bad bytes, and the path it makes of that names nothing on disk, so the file
 * cannot be opened, nor indexed. Said so by the scan and by `--files-from-stdin` alike; the latter called it a
 * "broken symlink" (its lstat failed too).
 */
export const NAME_NOT_UTF8 = 'the file name is not valid UTF-8, so it cannot be read';

/** Whether `abs`, a path made from a folder listing, is such a name (a real U+FFFD in a name is there on disk). */
export function nameNotUtf8(abs: string): boolean {
  return abs.includes('\uFFFD') && !existsNoFollow(abs);
}

/**
 * Why a symlink whose target cannot be read is skipped: a loop (`a.md → b.md → a.md`, ELOOP) is no broken
 * link, and "point the symlink at an existing note" was the wrong fix for it.
 */
export function unfollowedSymlink(err: unknown): string {
  return (err as NodeJS.ErrnoException | null)?.code === 'ELOOP' ? 'symlink loop: skipped' : 'broken symlink: skipped';
}

/**
 * The symlink policy, for indexing and serving alike. A symlinked folder is followed (the user put it in
 * the vault: a real use), and what lies below it counts as inside. A symlinked *file* is a note only when
 * it leads to a file with a note extension inside the vault or inside a symlinked folder on its own path
 * (so `passwd.md -> /etc/passwd` or `x.md -> ~/secret.md` is never read). Returns null when `abs` may be
 * read as a note, else the reason it may not.
 */
export function symlinkRefusal(vault: string, abs: string, extensions: string[]): string | null {
  let real: string;
  try {
    if (!lstatSync(abs).isSymbolicLink()) return null;
    real = realpathSync(abs);
    if (!statSync(real).isFile()) return null; // a folder: followed (the walk guards against loops)
  } catch (err) {
    return unfollowedSymlink(err);
  }
  if (!isNoteName(basename(real), extensions)) return 'symlink to a file that is not a note: skipped';
  return leadsInside(vault, abs, real) ? null : 'symlink to a file outside the vault: skipped';
}

/**
 * True when `real` (the real path of `abs`, a path below the vault) lies inside the vault's real folder
 * or inside one of the symlinked folders on the way to `abs`: where the symlink policy lets a note be.
 */
export function leadsInside(vault: string, abs: string, real: string): boolean {
  return allowedRoots(vault, dirname(abs)).some((root) => isInside(root, real));
}

/** The real folders a file in `absDir` may lead into: the vault's, and each symlinked folder's on the way. */
function allowedRoots(vault: string, absDir: string): string[] {
  const roots: string[] = [];
  try {
    roots.push(realpathSync(vault));
  } catch {
    return roots;
  }
  for (let dir = absDir; dir.length > vault.length && dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      if (lstatSync(dir).isSymbolicLink()) roots.push(realpathSync(dir));
    } catch {
      // vanished: nothing more is allowed through it
    }
  }
  return roots;
}

/**
 * True when a folder between the vault and `absDir` (inclusive) is a symlink. Without one the path is a real
 * folder of the vault, which the scan's first pass always walks under that path (src/vault/scan.ts).
 */
export function symlinkedFolderOnWay(vault: string, absDir: string): boolean {
  for (let dir = absDir; dir.length > vault.length && dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      if (lstatSync(dir).isSymbolicLink()) return true;
    } catch {
      return false; // vanished: the file below is gone too
    }
  }
  return false;
}

/**
 * The root of the git work tree holding `dir`: the nearest folder at or above it with a `.git` entry (a
 * folder, or the file of a worktree or submodule), or null. `git diff --name-only` prints paths from there,
 * wherever it runs.
 */
export function gitWorkTreeRoot(dir: string): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsNoFollow(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

/** True when `child` is `parent` or lies below it (after resolving `..`). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(resolve(parent), resolve(child));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * `path` made absolute, symlinks resolved; as given (made absolute) when nothing is there yet. One file
 * reached through a linked folder is one file: Claude Code's project key, a symlinked settings file written
 * where it leads, a transcript's ingest state and lock.
 */
export function realPathOr(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}
