// tsm related <note>: outgoing links and backlinks.
import { NoteReader } from '../index/note-reader.js';
import { withIndexReader } from '../index/open-reader.js';
import { tsmDir } from '../vault/config.js';
import { configFrom, printJson, typedVaultPath } from './args.js';
import { UsageError, UserError } from './run.js';
import { writeOut } from './stdio.js';
import { oneLine } from '../text/controls.js';

export function run(argv: Record<string, unknown>): void {
  const cfg = configFrom(argv);
  // Checked against its range by numberOption (src/cli/options.ts).
  const limit = (argv.limit as number | undefined) ?? Infinity;
  const ref = typedVaultPath(cfg.vault, String(argv.note ?? ''), 'the note');
  if (ref === '' || ref.endsWith('/')) throw new UsageError(`"${oneLine(String(argv.note))}" names a folder, not a note: give a note's vault path or name`);
  const found = withIndexReader(cfg.db, (db) => {
    const reader = new NoteReader(db, cfg.db);
    const note = reader.findNote(ref, cfg.extensions);
    return note ? { note, outgoing: reader.outgoingLinks(note.id, cfg.extensions), backlinks: reader.backlinks(note.id) } : null;
  }, { tsmDir: tsmDir(cfg), vault: cfg.vault });
  if (!found) {
    throw new UserError(`no indexed note matches "${oneLine(ref)}": give its vault path, file name, title or alias (\`tsm search\` finds it by its words)`);
  }
  const { note } = found;
  const outgoing = found.outgoing.slice(0, limit);
  const backlinks = found.backlinks.slice(0, limit);
  if (argv.json) {
    printJson({ path: note.path, title: note.title, outgoing, backlinks });
    return;
  }
  // Paths, titles, link targets come from the notes: shown as search shows them (src/text/controls.ts).
  const out = [`${oneLine(note.path)}  (${oneLine(note.title)})`, '', `outgoing (${shownOf(outgoing.length, found.outgoing.length)})`];
  for (const l of outgoing) {
    const where = l.line ? `:${l.line}` : ' (frontmatter)';
    const heading = l.heading ? `#${oneLine(l.heading)}` : '';
    const to =
      l.targetPath !== null
        ? `${oneLine(l.targetPath)}${heading}`
        : l.attachmentPath !== null
          ? `${oneLine(l.attachmentPath)}${heading}  [attachment]`
          : l.skipped !== null
            ? `${oneLine(l.skipped.path)}${heading}  [skipped: ${oneLine(l.skipped.reason)}]`
            : `${oneLine(l.target)}${heading}  [unresolved]`;
    out.push(`  ${to}  ${l.kind}${where}`);
  }
  out.push('', `backlinks (${shownOf(backlinks.length, found.backlinks.length)})`);
  for (const l of backlinks) out.push(`  ${oneLine(l.sourcePath)}${l.line ? `:${l.line}` : ''}  ${l.kind}`);
  writeOut(out.join('\n') + '\n');
}

/** "3" when the whole list is shown, "3 of 12" when -n cut it. */
function shownOf(shown: number, all: number): string {
  return shown === all ? String(all) : `${shown} of ${all}`;
}
