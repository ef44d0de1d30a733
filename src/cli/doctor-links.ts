// tsm doctor's unresolved links, as a reader can act on them. A site's notes (Hugo, Docusaurus) link their
// pictures by the site's absolute path (`/images/…/x.png`), and those files are in the site's static folder,
// which a vault of its pages does not hold: on the handbook 1,414 such links, every line of doctor's 50. Each
// missing top folder of ten or more such links is one line; the other links are listed as before, each link
// once (two links to one target on one line were two equal lines).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { IgnoredFile, LinkRecord } from '../core/types.js';
import { namesFileNotNote } from '../text/file-not-note.js';
import { isNoteName } from '../vault/paths.js';

/** Unresolved links read to tell a site's missing static folder, or ignored files, from the rest. */
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

/** Links to notes and attachments one ignore rule leaves out of the index (LinkRecord.ignored): one line of doctor's. */
export interface IgnoredTargets {
  by: IgnoredFile['by'];
  /** What the rule ignores: a file (`private.md`) or a folder (`drafts/`). */
  rule: string;
  links: number;
  /** The first of them, in doctor's order, and the file it names. */
  first: LinkRecord;
  file: string;
  /** How many of them name a note, and how many an attachment (`drafts/pic.png`). */
  toNotes: number;
  toAttachments: number;
}

export interface UnresolvedForDoctor {
  folders: MissingFolder[];
  ignored: IgnoredTargets[];
  /** The other links, each (note, line, target) once, in the order given. */
  links: LinkRecord[];
}

/**
 * `links` (unresolved, the notes changed last first, with `ignored` filled in: index/ignored-links.ts)
 * grouped for doctor.
 */
export function unresolvedForDoctor(links: LinkRecord[], vault: string, extensions: readonly string[]): UnresolvedForDoctor {
  // A link to a note (or attachment) the ignore rules leave out names a file that is there (Obsidian resolves
  // it): the user left it out, so the link is no broken one, and "create that note" (or "add that file") was
  // the wrong fix. Grouped by the rule (an ignored folder may hold many linked notes): nothing to fix unless
  // the user wants them searched.
  const toIgnored = new Map<string, IgnoredTargets>();
  links = links.filter((l) => {
    const file = l.ignored;
    if (file === null) return true;
    const group = toIgnored.get(file.rule) ?? { by: file.by, rule: file.rule, links: 0, first: l, file: file.path, toNotes: 0, toAttachments: 0 };
    group.links++;
    if (isNoteName(file.path, extensions)) group.toNotes++;
    else group.toAttachments++;
    toIgnored.set(file.rule, group);
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

/** The first folder of a site-absolute link to a file that is no note (`/images/a/x.png` → `images`), else null. */
function siteFolder(l: LinkRecord, extensions: readonly string[]): string | null {
  if (l.skipped !== null || !l.target.startsWith('/') || !namesFileNotNote(l.target, extensions)) return null;
  const end = l.target.indexOf('/', 1);
  return end > 1 ? l.target.slice(1, end) : null;
}
