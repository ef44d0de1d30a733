// Finds the note files of a vault: the walk, the always-skipped folders, .gitignore/.tsmignore, symlinks.
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { IndexWarning, VaultFile } from '../core/types.js';

/** Folders never indexed, wherever they are. */
export const ALWAYS_SKIPPED = new Set(['.git', '.tsm', 'node_modules', '.obsidian', '.trash']);

export interface ScanOptions {
  extensions: string[];
}

export interface ScanResult {
  files: VaultFile[];
  warnings: IndexWarning[];
}

interface Matcher {
  /** Vault-relative folder the rules apply below ('' for the root). */
  base: string;
  rules: Ignore;
}

export function scanVault(vault: string, opts: ScanOptions): ScanResult {
  const files: VaultFile[] = [];
  const warnings: IndexWarning[] = [];
  const visited = new Set<string>();
  const rootMatchers: Matcher[] = [];
  const rootTsmIgnore = readRules(join(vault, '.tsmignore'));
  if (rootTsmIgnore) rootMatchers.push({ base: '', rules: rootTsmIgnore });

  // Symlinked folders are walked after every real one, so a folder reachable both ways is indexed
  // under its real path.
  const deferred: [string, string, Matcher[]][] = [];
  const walk = (absDir: string, relDir: string, matchers: Matcher[]): void => {
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
    visited.add(real);

    let entries: Dirent[];
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch (err) {
      warnings.push({ path: relDir || '.', message: `cannot read folder: ${(err as NodeJS.ErrnoException).code ?? err}` });
      return;
    }
    const gitignore = readRules(join(absDir, '.gitignore'));
    const here = gitignore ? [...matchers, { base: relDir, rules: gitignore }] : matchers;

    for (const entry of entries) {
      const name = entry.name.normalize('NFC');
      const abs = join(absDir, entry.name);
      const rel = relDir ? `${relDir}/${name}` : name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let stats: Stats | undefined;
      if (entry.isSymbolicLink()) {
        try {
          stats = statSync(abs);
        } catch {
          warnings.push({ path: rel, message: 'broken symlink: skipped' });
          continue;
        }
        isDir = stats.isDirectory();
        isFile = stats.isFile();
      }
      if (isDir) {
        if (ALWAYS_SKIPPED.has(name) || isIgnored(here, rel, true)) continue;
        if (entry.isSymbolicLink()) deferred.push([abs, rel, here]);
        else walk(abs, rel, here);
      } else if (isFile && hasExtension(name, opts.extensions) && !isIgnored(here, rel, false)) {
        try {
          stats ??= statSync(abs);
        } catch {
          continue; // deleted between readdir and stat
        }
        files.push({ path: rel, absPath: abs, size: stats.size, mtimeMs: Math.floor(stats.mtimeMs) });
      }
    }
  };

  walk(vault, '', rootMatchers);
  while (deferred.length) walk(...(deferred.shift() as [string, string, Matcher[]]));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, warnings };
}

function hasExtension(name: string, extensions: string[]): boolean {
  const lower = name.toLowerCase();
  return extensions.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

function readRules(path: string): Ignore | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  return ignore({ allowRelativePaths: true }).add(text);
}

function isIgnored(matchers: Matcher[], rel: string, isDir: boolean): boolean {
  for (const m of matchers) {
    if (m.base && !rel.startsWith(m.base + '/')) continue;
    const sub = m.base ? rel.slice(m.base.length + 1) : rel;
    if (m.rules.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/**
 * Decides for single paths (the watcher, `--files-from-stdin`) what a full scan would decide:
 * extension, always-skipped folders, .tsmignore and every .gitignore on the way down.
 */
export function createPathFilter(vault: string, opts: ScanOptions): (rel: string) => boolean {
  const cache = new Map<string, Ignore | null>();
  const rulesAt = (relDir: string, file: string): Ignore | null => {
    const key = `${relDir}\0${file}`;
    if (!cache.has(key)) cache.set(key, readRules(join(vault, relDir, file)));
    return cache.get(key) ?? null;
  };
  return (rel: string) => {
    const parts = rel.split('/');
    if (!hasExtension(parts[parts.length - 1], opts.extensions)) return false;
    if (parts.slice(0, -1).some((p) => ALWAYS_SKIPPED.has(p))) return false;
    const matchers: Matcher[] = [];
    const tsm = rulesAt('', '.tsmignore');
    if (tsm) matchers.push({ base: '', rules: tsm });
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const git = rulesAt(dir, '.gitignore');
      if (git) matchers.push({ base: dir, rules: git });
      const sub = parts.slice(0, i + 1).join('/');
      if (isIgnored(matchers, sub, i < parts.length - 1)) return false;
    }
    return true;
  };
}
