// tsm related <note>: outgoing links and backlinks.
import { NoteReader } from '../index/note-reader.js';
import { withIgnored } from '../index/ignored-links.js';
import { withIndexReader } from '../index/open-reader.js';
import { tsmDir } from '../vault/config.js';
import { configFrom, printJson, typedVaultPath } from './args.js';
import { UsageError, UserError } from './run.js';
import { writeOut } from './stdio.js';
import { oneLine } from '../text/controls.js';
import { backlinkGroups, backlinkRow, outgoingGroups, outgoingRow, type LinkGroup } from '../format/related.js';
import type { LinkRecord } from '../core/types.js';
import { typedLinkTarget } from '../parse/links.js';

export function run(argv: Record<string, unknown>): void {
  const cfg = configFrom(argv);
  // Checked against its range by numberOption (src/cli/options.ts).
  const limit = (argv.limit as number | undefined) ?? Infinity;
  const ref = typedVaultPath(cfg.vault, String(argv.note ?? ''), 'the note');
  if (ref === '' || ref.endsWith('/')) throw new UsageError(`"${oneLine(String(argv.note))}" names a folder, not a note: give a note's vault path or name`);
  const linked = linkedName(cfg.vault, String(argv.note ?? ''));
  const found = withIndexReader(cfg.db, (db) => {
    const reader = new NoteReader(db, cfg.db);
    const note = reader.findNote(ref, cfg.extensions) ?? (linked === null ? null : reader.findNote(linked, cfg.extensions));
    return note ? { note, outgoing: reader.outgoingLinks(note.id, cfg.extensions), backlinks: reader.backlinks(note.id) } : null;
  }, { tsmDir: tsmDir(cfg), vault: cfg.vault });
  if (!found) {
    throw new UserError(`no indexed note matches "${oneLine(ref)}": give its vault path, file name, title or alias (\`tsm search\` finds it by its words)`);
  }
  const { note } = found;
  // A link to a note or attachment the ignore rules leave out (`[ignored by .gitignore: drafts/]`), told from
  // one to nothing by a walk of the vault, made only when a link names no note, attachment nor skipped file:
  // on the Obsidian Hub with half its notes ignored (3,535), ~0.15–0.2 s → ~0.2–0.25 s (load 4–5).
  withIgnored(found.outgoing, cfg.vault, cfg.extensions);
  // -n counts the notes (and files) linked, not the links: each is one row, with all its lines.
  const allOut = outgoingGroups(found.outgoing);
  const allBack = backlinkGroups(found.backlinks);
  const outgoing = allOut.slice(0, limit);
  const backlinks = allBack.slice(0, limit);
  if (argv.json) {
    // Every link a record, in the order it always had (one per link, by line; backlinks by path): -n keeps
    // those of the first N notes.
    printJson({ path: note.path, title: note.title, outgoing: linksOf(found.outgoing, outgoing), backlinks: linksOf(found.backlinks, backlinks) });
    return;
  }
  // Paths, titles, link targets come from the notes: shown as search shows them (src/text/controls.ts).
  const out = [`${oneLine(note.path)}  (${oneLine(note.title)})`, '', `outgoing (${shownOf(outgoing.length, allOut.length)})`];
  for (const g of outgoing) out.push(`  ${outgoingRow(g)}`);
  out.push('', `backlinks (${shownOf(backlinks.length, allBack.length)})`);
  for (const g of backlinks) out.push(`  ${backlinkRow(g)}`);
  writeOut(out.join('\n') + '\n');
}

/**
 * The note a typed wikilink names (parse/links.ts typedLinkTarget), as a vault path. Such names were "no
 * indexed note matches".
 */
function linkedName(vault: string, typed: string): string | null {
  const target = typedLinkTarget(typed);
  return target === null ? null : typedVaultPath(vault, target, 'the note');
}

/** The links of `shown` rows, in the order of `all`. */
function linksOf(all: LinkRecord[], shown: LinkGroup[]): LinkRecord[] {
  const keep = new Set(shown.flat());
  return all.filter((l) => keep.has(l));
}

/** "3" when the whole list is shown, "3 of 12" when -n cut it. */
function shownOf(shown: number, all: number): string {
  return shown === all ? String(all) : `${shown} of ${all}`;
}
