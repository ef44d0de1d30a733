// tsm doctor's unresolved links, as a reader can act on them. A site's notes (Hugo, Docusaurus) link their
// pictures by the site's absolute path (`/images/…/x.png`), and those files are in the site's static folder,
// which a vault of its pages does not hold: on the handbook 1,414 such links, every line of doctor's 50. Each
// missing top folder of ten or more such links is one line; the other links are listed as before, each link
// once (two links to one target on one line were two equal lines).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkRecord } from '../core/types.js';
import { basenameKey, pageKeyOfPath, resolveLink, type NoteLookup } from '../index/resolve-link.js';
import { namesFileNotNote } from '../text/file-not-note.js';
import type { IgnoredNote } from '../vault/ignored-notes.js';

/** Unresolved links read to tell a site's missing static folder, or ignored notes, from the rest. */
export const ALL_LINKS = 100_000;

/** Links to files under one missing folder that make a line of their own. */
export const MIN_FOLDER_LINKS = 10;

export interface MissingFolder {
  /** The target's first folder, as written: `/images/`. */
  folder: string;
  links: number;
  /** The first of them, in doctor's order (the notes changed last first). */
  first: LinkRecord;
}

/** Links to notes one ignore rule leaves out of the index (ignoredNotes): one line of doctor's. */
export interface IgnoredTargets {
  rule: IgnoredNote['rule'];
  /** What the rule ignores: a note (`private.md`) or a folder (`drafts/`). */
  ignored: string;
  links: number;
  /** The first of them, in doctor's order, and the note it names. */
  first: LinkRecord;
  note: string;
}

export interface UnresolvedForDoctor {
  folders: MissingFolder[];
  ignored: IgnoredTargets[];
  /** The other links, each (note, line, target) once, in the order given. */
  links: LinkRecord[];
}

/**
 * `links` (unresolved, the notes changed last first) grouped for doctor. `ignoredNotes`, read only when some
 * link names no file tsm skipped, gives the notes the ignore rules leave out (vault/ignored-notes.ts).
 */
export function unresolvedForDoctor(
  links: LinkRecord[],
  vault: string,
  extensions: readonly string[],
  ignoredNotes: () => IgnoredNote[] = () => [],
): UnresolvedForDoctor {
  // A link to a note the ignore rules leave out names a note that is there (Obsidian resolves it): the user
  // left it out, so the link is no broken one, and "create that note" was the wrong fix. Grouped by the rule
  // (an ignored folder may hold many linked notes): nothing to fix unless the user wants them searched.
  const toIgnored = new Map<string, IgnoredTargets>();
  const plain = links.some((l) => l.skipped === null) ? ignoredIn(ignoredNotes(), extensions) : null;
  links = links.filter((l) => {
    const note = l.skipped === null && plain !== null ? plain(l) : null;
    if (note === null) return true;
    const group = toIgnored.get(note.ignored);
    if (group) group.links++;
    else toIgnored.set(note.ignored, { rule: note.rule, ignored: note.ignored, links: 1, first: l, note: note.path });
    return false;
  });
  const byFolder = new Map<string, LinkRecord[]>();
  const exists = new Map<string, boolean>();
  for (const l of links) {
    const folder = siteFolder(l, extensions);
    if (folder === null) continue;
    if (!exists.has(folder)) exists.set(folder, existsSync(join(vault, folder)));
    if (exists.get(folder)) continue;
    const list = byFolder.get(folder) ?? [];
    list.push(l);
    byFolder.set(folder, list);
  }
  const grouped = new Set<LinkRecord>();
  const folders: MissingFolder[] = [];
  for (const [folder, list] of byFolder) {
    if (list.length < MIN_FOLDER_LINKS) continue;
    for (const l of list) grouped.add(l);
    folders.push({ folder: `/${folder}/`, links: list.length, first: list[0] });
  }
  const seen = new Set<string>();
  const rest = links.filter((l) => {
    if (grouped.has(l)) return false;
    const key = `${l.sourcePath}\u0000${l.line}\u0000${l.target}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { folders, ignored: [...toIgnored.values()], links: rest };
}

/**
 * How many of `links` (unresolved) name a note the ignore rules leave out: `tsm status` counts them beside the
 * links to skipped files, and points to doctor, which names them (unresolvedForDoctor).
 */
export function linksToIgnoredNotes(links: LinkRecord[], ignoredNotes: () => IgnoredNote[], extensions: readonly string[]): number {
  const plain = links.filter((l) => l.skipped === null);
  const named = plain.length ? ignoredIn(ignoredNotes(), extensions) : null;
  return named === null ? 0 : plain.filter((l) => named(l) !== null).length;
}

/**
 * The ignored note a link would name, were those notes indexed: link resolution (resolve-link.ts) over them
 * alone, by path and by file name (their aliases are unknown: the notes are not read). Null when none.
 */
function ignoredIn(notes: IgnoredNote[], extensions: readonly string[]): ((l: LinkRecord) => IgnoredNote | null) | null {
  if (notes.length === 0) return null;
  const byPath = new Map(notes.map((n) => [n.path, n]));
  const lower = new Map(notes.map((n) => [n.path.toLowerCase(), n.path]));
  const group = (key: (path: string) => string | null) => {
    const map = new Map<string, string[]>();
    for (const n of notes) {
      const k = key(n.path);
      if (k !== null) map.set(k, [...(map.get(k) ?? []), n.path]);
    }
    return map;
  };
  const byBase = group((p) => basenameKey(p, extensions));
  const byPage = group((p) => pageKeyOfPath(p, extensions));
  const lookup: NoteLookup = {
    hasPath: (p) => byPath.has(p),
    byLowerPath: (p) => lower.get(p),
    byBasename: (k) => byBase.get(k) ?? [],
    byPageName: (k) => byPage.get(k) ?? [],
    byAlias: () => [],
    extensions,
  };
  return (l) => {
    const path = resolveLink(l.kind, l.target, l.sourcePath, lookup);
    return path === null ? null : (byPath.get(path) ?? null);
  };
}

/** The first folder of a site-absolute link to a file that is no note (`/images/a/x.png` → `images`), else null. */
function siteFolder(l: LinkRecord, extensions: readonly string[]): string | null {
  if (l.skipped !== null || !l.target.startsWith('/') || !namesFileNotNote(l.target, extensions)) return null;
  const end = l.target.indexOf('/', 1);
  return end > 1 ? l.target.slice(1, end) : null;
}
