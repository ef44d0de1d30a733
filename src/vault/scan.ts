// Finds the note files of a vault: the walk, the always-skipped folders, .gitignore/.tsmignore, symlinks.
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { IndexWarning, VaultFile } from '../core/types.js';
import { NOT_REGULAR } from './file-kind.js';
import { folderRules, isIgnored, NO_RULES, type IgnoreRules } from './ignore-rules.js';
import { isNoteName, NAME_NOT_UTF8, nameNotUtf8, inSkippedFolder, isEditorLeftover, isSkippedFolder, symlinkRefusal, unfollowedSymlink } from './paths.js';

export { ALWAYS_SKIPPED } from './paths.js';

export interface ScanOptions {
  extensions: string[];
  /** Walk the folders only (no file is listed or stat'ed): which path each folder is entered under. */
  foldersOnly?: boolean;
}

export interface ScanResult {
  files: VaultFile[];
  /** Vault-relative paths of files that are not notes but links may name (`image.png`, `board.canvas`). */
  attachments: string[];
  warnings: IndexWarning[];
  /**
   * Real path of every folder walked → the vault-relative path it was walked under ('' for the root): a
   * folder reachable by several paths (a symlink to a folder of the vault, a loop) is walked under one.
   */
  folders: Map<string, string>;
}

export function scanVault(vault: string, opts: ScanOptions): ScanResult {
  const files: VaultFile[] = [];
  const attachments: string[] = [];
  const warnings: IndexWarning[] = [];
  const visited = new Map<string, string>();
  const unread = (rel: string, reason: string): void => {
    warnings.push({ path: rel, message: `cannot be read (${reason}): its ignore rules are not applied` });
  };

  // Symlinked folders are walked after every real one, so a folder reachable both ways is indexed
  // under its real path.
  const deferred: [string, string, IgnoreRules][] = [];
  const walk = (absDir: string, relDir: string, rules: IgnoreRules): void => {
    let real: string;
    try {
      real = realpathSync(absDir);
    } catch {
      return; // vanished while scanning: nothing to index
    }
    if (visited.has(real)) {
      warnings.push({ path: relDir || '.', message: 'symlink loop or repeated folder: followed once, skipped here' });
      return;
    }
    visited.set(real, relDir);

    let entries: Dirent[];
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch (err) {
      warnings.push({ path: relDir || '.', message: `cannot read folder: ${folderError(err)}` });
      return;
    }
    const here = folderRules(rules, absDir, relDir, entries, unread);

    const twins = normalizationTwins(entries);
    for (const entry of entries) {
      const name = entry.name.normalize('NFC');
      const abs = join(absDir, entry.name);
      const rel = relDir ? `${relDir}/${name}` : name;
      const twin = twins?.get(entry.name);
      if (twin !== undefined) {
        warnings.push({
          path: `${rel} (${name === entry.name ? 'NFC' : 'not NFC'})`,
          message: `its name differs from "${twin}" only in Unicode normalization (NFC/NFD), so both would be one path: skipped; rename one of them`,
        });
        continue;
      }
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let stats: Stats | undefined;
      if (entry.isSymbolicLink()) {
        try {
          stats = statSync(abs);
        } catch (err) {
          warnings.push({ path: rel, message: unfollowedSymlink(err) });
          continue;
        }
        isDir = stats.isDirectory();
        isFile = stats.isFile();
      }
      if (isDir) {
        if (isSkippedFolder(name, relDir.slice(relDir.lastIndexOf('/') + 1)) || isIgnored(here, rel, true)) continue;
        if (entry.isSymbolicLink()) deferred.push([abs, rel, here]);
        else walk(abs, rel, here);
      } else if (opts.foldersOnly) {
        continue;
      } else if (isFile && !isNoteName(name, opts.extensions)) {
        // Names only (no stat, no read): enough to tell a link to an attachment from a broken one.
        if (isAttachmentName(name, opts.extensions) && !isIgnored(here, rel, false)) attachments.push(rel);
      } else if (isFile && !isIgnored(here, rel, false)) {
        if (entry.isSymbolicLink()) {
          const refusal = symlinkRefusal(vault, abs, opts.extensions);
          if (refusal) {
            warnings.push({ path: rel, message: refusal });
            continue;
          }
        }
        try {
          stats ??= statSync(abs);
        } catch {
          // Deleted between readdir and stat, or a name that is not valid UTF-8 (Node cannot name it).
          if (nameNotUtf8(abs)) warnings.push({ path: rel, message: `${NAME_NOT_UTF8}: skipped; rename it` });
          continue;
        }
        files.push({
          path: rel,
          absPath: abs,
          size: stats.size,
          mtimeMs: Math.floor(stats.mtimeMs),
          ctimeMs: Math.floor(stats.ctimeMs),
        });
      } else if (!isFile && isNoteName(name, opts.extensions) && !isIgnored(here, rel, false)) {
        // A FIFO, socket or device named like a note (or a symlink to one) is never read (opening a FIFO
        // blocks): said, as any other note tsm skips is, instead of vanishing from the index unexplained.
        warnings.push({ path: rel, message: `skipped: ${NOT_REGULAR}` });
      }
    }
  };

  walk(vault, '', NO_RULES);
  while (deferred.length) walk(...(deferred.shift() as [string, string, IgnoreRules]));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  attachments.sort();
  return { files, attachments, warnings, folders: visited };
}

/**
 * Entries of one folder whose names differ only in normalization form (NFC `プ` and NFD `フ+゜`): one
 * vault path cannot name both. The NFC-named one (else the first by code units) is kept; each other
 * maps to the name kept. Null when there are none (the usual case: one pass, no allocation per entry).
 */
function normalizationTwins(entries: Dirent[]): Map<string, string> | null {
  // Only a name that is not NFC can be the twin of another; ASCII is always NFC (one test, no allocation).
  // The name it collides with may be anything, NFC Latin-1 (`café`, whose é is U+00E9) or ASCII (`K`,
  // the NFC form of the Kelvin sign U+212A): it is looked up among all the entries.
  let byNfc: Map<string, string[]> | null = null;
  for (const e of entries) {
    if (!/[^\u0000-\u007f]/.test(e.name)) continue;
    const nfc = e.name.normalize('NFC');
    if (nfc === e.name) continue;
    byNfc ??= new Map();
    const list = byNfc.get(nfc);
    if (list) list.push(e.name);
    else byNfc.set(nfc, [e.name]);
  }
  if (!byNfc) return null;
  const names = new Set(entries.map((e) => e.name));
  let twins: Map<string, string> | null = null;
  for (const [nfc, notNfc] of byNfc) {
    const all = names.has(nfc) ? [nfc, ...notNfc] : notNfc;
    if (all.length < 2) continue;
    const keep = names.has(nfc) ? nfc : [...all].sort()[0];
    twins ??= new Map();
    for (const n of all) if (n !== keep) twins.set(n, keep);
  }
  return twins;
}

/** Why a folder cannot be read, in words (the code kept for the rest: ENOTDIR, EIO…). */
function folderError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String(err);
}

/**
 * A file a link may name that is no note: one with an extension (`image.png`, `board.canvas`), and not an
 * editor's leftover (`a.md~`, `#a.md#`, `.a.md.swp`). The full scan, `--files-from-stdin` and the watcher
 * (createPathFilter, createAttachmentLookup, src/watch/classify.ts) all ask here.
 */
export function isAttachmentName(name: string, extensions: readonly string[]): boolean {
  return name.lastIndexOf('.') > 0 && !isEditorLeftover(name) && !isNoteName(name, extensions);
}

/**
 * Decides for single paths (the watcher, `--files-from-stdin`) what a full scan would decide:
 * extension, always-skipped folders, every .gitignore and .tsmignore on the way down. `attachments`: whether
 * the path would be listed as an attachment, rather than as a note.
 */
export function createPathFilter(vault: string, opts: ScanOptions & { attachments?: boolean }): (rel: string) => boolean {
  // The rules of each folder asked about, built from its parent's as the walk builds them.
  const cache = new Map<string, IgnoreRules>();
  const rulesIn = (relDir: string, parent: IgnoreRules | null): IgnoreRules => {
    let rules = cache.get(relDir);
    if (!rules) {
      rules = folderRules(parent ?? NO_RULES, join(vault, relDir), relDir);
      cache.set(relDir, rules);
    }
    return rules;
  };
  return (rel: string) => {
    const parts = rel.split('/');
    const name = parts[parts.length - 1];
    if (!(opts.attachments ? isAttachmentName(name, opts.extensions) : isNoteName(name, opts.extensions))) return false;
    if (inSkippedFolder(parts.slice(0, -1))) return false;
    let rules = rulesIn('', null);
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) rules = rulesIn(parts.slice(0, i).join('/'), rules);
      if (isIgnored(rules, parts.slice(0, i + 1).join('/'), i < parts.length - 1)) return false;
    }
    return true;
  };
}
