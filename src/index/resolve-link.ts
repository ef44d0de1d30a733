// Resolves a link as written to a vault note: exact path, then unique basename (the source's own folder,
// else the shortest path, when several share it), as Obsidian does; then alias, which Obsidian does not (a
// bare `[[alias]]` is unresolved there) but which names the note all the same. Markdown links also try
// Hugo-style folder pages (`x/` → `x/_index.md`, `x/index.md`, `x/README.md`) and site-absolute paths.
import { posix } from 'node:path';
import type { LinkKind } from '../core/types.js';
import { normalize } from '../text/normalize.js';

export interface NoteLookup {
  /** Exact vault path → true. */
  hasPath(path: string): boolean;
  /** Lower-case basename (no extension) → vault paths. */
  byBasename(key: string): string[];
  /** Normalised alias → vault paths. */
  byAlias(alias: string): string[];
  /** Lower-case path → actual vault path (for case-insensitive matches). */
  byLowerPath(lower: string): string | undefined;
}

const NOTE_EXT = /\.(md|markdown)$/i;
const FOLDER_PAGES = ['_index.md', 'index.md', 'README.md', 'readme.md'];

/** Lower-case last path segment without extension: the key links are re-resolved by. */
export function targetKey(target: string): string {
  const last = target.replace(/\/+$/, '').split('/').pop() ?? '';
  return normalize(last.replace(NOTE_EXT, ''));
}

export function basenameKey(path: string): string {
  return targetKey(path);
}

/** The key a name is looked up by among the notes' aliases (stored normalised: note-writer.ts). */
export function aliasKey(name: string): string {
  return normalize(name.replace(NOTE_EXT, ''));
}

export function resolveLink(kind: LinkKind, target: string, sourcePath: string, notes: NoteLookup): string | null {
  const t = target.trim();
  if (t === '') return sourcePath; // [[#heading]]: a link into the note itself
  if (kind === 'markdown') return resolvePathLink(t, sourcePath, notes) ?? resolveName(t, sourcePath, notes);
  return resolvePathLink(t, sourcePath, notes, true) ?? resolveName(t, sourcePath, notes);
}

function resolvePathLink(t: string, sourcePath: string, notes: NoteLookup, vaultRootFirst = false): string | null {
  const dir = posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath);
  const candidates: (string | null)[] = [];
  if (t.startsWith('/')) {
    // Site-absolute: /handbook/x/y/ — try the whole path, then drop leading segments.
    const parts = t.split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) candidates.push(parts.slice(i).join('/'));
  } else {
    if (vaultRootFirst) candidates.push(clean(t));
    candidates.push(clean(posix.join(dir, t)));
    // Hugo pretty URLs: a page a/b.md lives at /a/b/, so ../x from it means a/x.
    const pageDir = sourcePath.replace(NOTE_EXT, '');
    candidates.push(clean(posix.join(pageDir, t)));
    if (!vaultRootFirst) candidates.push(clean(t));
  }
  for (const c of candidates) {
    if (c === null) continue;
    const hit = tryPath(c, notes);
    if (hit) return hit;
  }
  return null;
}

function clean(p: string): string | null {
  const n = posix.normalize(p);
  if (n === '..' || n.startsWith('../')) return null; // outside the vault
  return n === '.' ? '' : n;
}

function tryPath(p: string, notes: NoteLookup): string | null {
  const base = p.replace(/\/+$/, '');
  const tries = NOTE_EXT.test(base) ? [base] : [`${base}.md`, base, ...FOLDER_PAGES.map((f) => (base ? `${base}/${f}` : f))];
  for (const c of tries) {
    if (notes.hasPath(c)) return c;
    const ci = notes.byLowerPath(c.toLowerCase());
    if (ci) return ci;
  }
  return null;
}

function resolveName(t: string, sourcePath: string, notes: NoteLookup): string | null {
  const key = targetKey(t);
  if (key) {
    const sameName = notes.byBasename(key);
    if (sameName.length === 1) return sameName[0];
    if (sameName.length > 1) return nearest(sameName, sourcePath, t);
  }
  const aliased = notes.byAlias(aliasKey(t));
  if (aliased.length >= 1) return nearest(aliased, sourcePath, t);
  return null;
}

/**
 * Among notes sharing a name, the one Obsidian picks (1.13.7's getFirstLinkpathDest, observed and published in
 * pvliesdonk/markdown-vault-mcp#1380): of those whose path ends like the link (whole folder names), the one
 * in the source's own folder, else the shortest path. A shared ancestor folder counts for nothing: from
 * `zzzz/deep/x.md`, `[[Note]]` is `b/Note.md`, not `zzzz/Note.md`. (An exact vault path won before this.)
 */
function nearest(paths: string[], sourcePath: string, t: string): string {
  const want = `/${t.replace(NOTE_EXT, '').toLowerCase()}`;
  const suffixed = paths.filter((p) => `/${p.replace(NOTE_EXT, '').toLowerCase()}`.endsWith(want));
  const pool = suffixed.length ? suffixed : paths;
  const dir = posix.dirname(sourcePath);
  const own = pool.filter((p) => posix.dirname(p) === dir);
  return [...(own.length ? own : pool)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
}
