// Resolves a link as written to a vault note: exact path, then unique basename (the source's own folder,
// else the shortest path, when several share it), as Obsidian does; then alias, which Obsidian does not (a
// bare `[[alias]]` is unresolved there) but which names the note all the same. Markdown links also try
// Hugo-style folder pages (`x/` → `x/_index.md`, `x/index.md`, `x/README.md`) and site-absolute paths.
// A note is a file of the vault's note extensions ("extensions" in config.json; src/vault/paths.ts decides,
// for the scanner as for links): this hard-coded .md and .markdown, so `[[page]]` missed page.mdx in a vault
// of .mdx notes, and `[[x]]` named the attachment x.markdown in a vault of .md notes.
import { posix } from 'node:path';
import type { LinkKind } from '../core/types.js';
import { normalize } from '../text/normalize.js';
import { pageName } from '../text/page-name.js';
import { withoutNoteExtension } from '../vault/paths.js';
import { noteExtensionOf } from '../text/file-not-note.js';

export interface NoteLookup {
  /** Exact vault path → true. */
  hasPath(path: string): boolean;
  /** Lower-case basename (no extension) → vault paths. */
  byBasename(key: string): string[];
  /** pageKeyOfPath → vault paths, for the notes that have one. */
  byPageName(key: string): string[];
  /** Normalised alias → vault paths. */
  byAlias(alias: string): string[];
  /** Lower-case path → actual vault path (for case-insensitive matches). */
  byLowerPath(lower: string): string | undefined;
  /** The vault's note extensions (TsmConfig.extensions). */
  extensions: readonly string[];
}

/** Folder pages, each name tried with every note extension. */
const FOLDER_PAGES = ['_index', 'index', 'README', 'readme'];

/** Lower-case last path segment without its note extension: the key links are re-resolved by. */
export function targetKey(target: string, extensions: readonly string[]): string {
  const last = target.replace(/\/+$/, '').split('/').pop() ?? '';
  return normalize(withoutNoteExtension(last, extensions));
}

export function basenameKey(path: string, extensions: readonly string[]): string {
  return targetKey(path, extensions);
}

/** The key a name is looked up by among the notes' aliases (stored normalised: note-writer.ts). */
export function aliasKey(name: string, extensions: readonly string[]): string {
  return normalize(withoutNoteExtension(name, extensions));
}

/**
 * The key a note is found by as the Logseq page its file name stands for (pageName: `Project___Apollo.md`
 * is `project/apollo`, `What%3F.md` is `what?`), or null when that is its file name as written (basenameKey
 * finds it).
 */
export function pageKeyOfPath(path: string, extensions: readonly string[]): string | null {
  const key = normalize(pageName(withoutNoteExtension(posix.basename(path), extensions)));
  return key === basenameKey(path, extensions) ? null : key;
}

export function resolveLink(kind: LinkKind, target: string, sourcePath: string, notes: NoteLookup): string | null {
  const t = target.trim();
  if (t === '') return sourcePath; // [[#heading]]: a link into the note itself
  if (kind === 'markdown') return resolvePathLink(t, sourcePath, notes, false, true) ?? resolveName(t, sourcePath, notes);
  if (FROM_HERE.test(t)) return fromHere(t, sourcePath, notes);
  return resolvePathLink(t, sourcePath, notes, true, false) ?? resolveName(t, sourcePath, notes);
}

/**
 * A wikilink's `./x` or `../x` is the file at that path from the linking note's folder, or none, as Obsidian
 * reads it (`[[./Target]]` from other/ is unresolved there beside the root's Target.md). tsm fell back to
 * the root's x and then to any note named x, so a relative link left broken by a move was never reported.
 * (A markdown link's stays lenient: a site's relative links are written for its pages' URLs.)
 */
function fromHere(t: string, sourcePath: string, notes: NoteLookup): string | null {
  const dir = posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath);
  const path = clean(posix.join(dir, t));
  return path === null ? null : tryPath(path, notes, false);
}

/** `./x`, `../x`: a path from the linking note's folder, in any syntax (`![[./x.png]]` as `![](./x.png)`). */
const FROM_HERE = /^\.\.?\//;

/**
 * `folderPages`: a path may name a folder's page (`x/` → x/_index.md, x/index.md, x/README.md), as a site's
 * markdown link does (Hugo, GitHub). A wikilink never: Obsidian reads `[[docs]]` as a note named docs, and
 * without one the link is unresolved (a click creates docs.md); tsm linked docs/README.md, and doctor was silent.
 */
function resolvePathLink(t: string, sourcePath: string, notes: NoteLookup, vaultRootFirst: boolean, folderPages: boolean): string | null {
  const dir = posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath);
  const candidates: (string | null)[] = [];
  // (posix.normalize reads `./y.png` as `y.png`: tried from the root first, the root's y.png won.)
  if (FROM_HERE.test(t)) vaultRootFirst = false;
  if (t.startsWith('/')) {
    // Site-absolute: /handbook/x/y/ — try the whole path, then drop leading segments.
    const parts = t.split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) candidates.push(parts.slice(i).join('/'));
  } else {
    if (vaultRootFirst) candidates.push(clean(t));
    candidates.push(clean(posix.join(dir, t)));
    // Hugo pretty URLs: a page a/b.md lives at /a/b/, so ../x from it means a/x.
    const pageDir = withoutNoteExtension(sourcePath, notes.extensions);
    candidates.push(clean(posix.join(pageDir, t)));
    if (!vaultRootFirst) candidates.push(clean(t));
  }
  for (const c of candidates) {
    if (c === null) continue;
    const hit = tryPath(c, notes, folderPages);
    if (hit) return hit;
  }
  return null;
}

function clean(p: string): string | null {
  const n = posix.normalize(p);
  if (n === '..' || n.startsWith('../')) return null; // outside the vault
  return n === '.' ? '' : n;
}

function tryPath(p: string, notes: NoteLookup, folderPages: boolean): string | null {
  const base = p.replace(/\/+$/, '');
  const exts = notes.extensions;
  const pages = folderPages ? FOLDER_PAGES.flatMap((f) => exts.map((e) => (base ? `${base}/${f}${e}` : `${f}${e}`))) : [];
  const tries = noteExtensionOf(base, exts) !== null ? [base] : [...exts.map((e) => `${base}${e}`), base, ...pages];
  for (const c of tries) {
    if (notes.hasPath(c)) return c;
    const ci = notes.byLowerPath(c.toLowerCase());
    if (ci) return ci;
  }
  return null;
}

function resolveName(t: string, sourcePath: string, notes: NoteLookup): string | null {
  const paged = namedPage(t, sourcePath, notes);
  if (paged) return paged;
  const key = targetKey(t, notes.extensions);
  if (key) {
    const sameName = endingLike(notes.byBasename(key), t, notes.extensions);
    if (sameName.length === 1) return sameName[0];
    if (sameName.length > 1) return nearest(sameName, sourcePath, t, notes.extensions);
  }
  const aliased = notes.byAlias(aliasKey(t, notes.extensions));
  if (aliased.length >= 1) return nearest(aliased, sourcePath, t, notes.extensions);
  return null;
}

/**
 * The notes of a name that a link naming folders too can mean: those whose path ends with the folders and the
 * name it writes, whole folder names, as Obsidian resolves `[[b/Note]]` (a/b/Note.md, never c/Note.md: with
 * none, the link is unresolved there). Any note of the name did: in the GitLab handbook, `[x](infrastructure/index.md)`
 * in a design document (whose folder holds infrastructure/_index.md) linked sales/club/index.md, the President's
 * Club, and `/handbook/engineering/infrastructure/performance-indicators/` Support's page; doctor named neither.
 * A path from elsewhere (`../`, `./`, a site's `/handbook/…`) has folders of the linking note's or of the site
 * (resolvePathLink tried them, dropping leading ones): there the longest end of it, the name and at least its
 * folder, that a note's path ends with (a page moved within its section is still found).
 */
function endingLike(paths: string[], t: string, extensions: readonly string[]): string[] {
  const from = t.match(/^(?:\.{0,2}\/)+/)?.[0] ?? '';
  const written = withoutNoteExtension(t.slice(from.length).replace(/\/+$/, ''), extensions);
  if (written.indexOf('/') === -1) return paths;
  const keys = paths.map((p) => `/${normalize(withoutNoteExtension(p, extensions))}`);
  const parts = normalize(written).split('/');
  for (let drop = 0; drop <= (from === '' ? 0 : parts.length - 2); drop++) {
    const want = `/${parts.slice(drop).join('/')}`;
    const ending = paths.filter((_, i) => keys[i].endsWith(want));
    if (ending.length > 0) return ending;
  }
  return [];
}

/**
 * `[[Project/Apollo]]` no path matched, `[[What?]]`: Logseq's page of that name, whose file name stands for
 * it (pageKeyOfPath: `Project___Apollo.md`, `Project%2FApollo.md`, `What%3F.md`). Before the note named
 * `Apollo`, which the link's last segment would otherwise find.
 */
function namedPage(t: string, sourcePath: string, notes: NoteLookup): string | null {
  const name = withoutNoteExtension(t, notes.extensions).replace(/^\/+|\/+$/g, '');
  const paths = notes.byPageName(normalize(name));
  return paths.length ? nearest(paths, sourcePath, t, notes.extensions) : null;
}

/**
 * Among notes sharing a name, the one Obsidian picks (1.13.7's getFirstLinkpathDest, observed and published in
 * pvliesdonk/markdown-vault-mcp#1380): of those whose path ends like the link (whole folder names), the one
 * in the source's own folder, else the shortest path. A shared ancestor folder counts for nothing: from
 * `zzzz/deep/x.md`, `[[Note]]` is `b/Note.md`, not `zzzz/Note.md`. (An exact vault path won before this.)
 */
function nearest(paths: string[], sourcePath: string, t: string, extensions: readonly string[]): string {
  const want = `/${withoutNoteExtension(t, extensions).toLowerCase()}`;
  const suffixed = paths.filter((p) => `/${withoutNoteExtension(p, extensions).toLowerCase()}`.endsWith(want));
  const pool = suffixed.length ? suffixed : paths;
  const dir = posix.dirname(sourcePath);
  const own = pool.filter((p) => posix.dirname(p) === dir);
  return [...(own.length ? own : pool)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
}

/**
 * The attachment a link names among `paths`, the files of its name (its target key): by the rule that picks
 * a note (resolveLink), so a markdown link's path is read from the note's folder first, `./` and `../` walk
 * from there, then the folders the link names, the note's own folder, the shortest.
 */
export function resolveAttachment(kind: LinkKind, target: string, sourcePath: string, paths: string[]): string | null {
  // (An empty target is the note itself to resolveLink: no attachment.)
  if (paths.length === 0 || target.trim() === '') return null;
  const lower = new Map(paths.map((p) => [p.toLowerCase(), p]));
  const lookup: NoteLookup = {
    hasPath: (p) => lower.get(p.toLowerCase()) === p,
    byBasename: () => paths,
    byPageName: () => [],
    byAlias: () => [],
    byLowerPath: (p) => lower.get(p),
    // Attachments have no note extension to drop: `x.png` is tried as written.
    extensions: [],
  };
  return resolveLink(kind, target, sourcePath, lookup);
}
