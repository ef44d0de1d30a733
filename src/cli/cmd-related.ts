// tsm related <note>: outgoing links and backlinks.
import { openReader } from '../index/db.js';
import { NoteReader } from '../index/note-reader.js';
import { configFrom, printJson } from './args.js';
import { UserError } from './run.js';

export function run(argv: Record<string, unknown>): void {
  const cfg = configFrom(argv);
  const db = openReader(cfg.db);
  try {
    const reader = new NoteReader(db, cfg.db);
    const ref = String(argv.note ?? '');
    const note = reader.findNote(ref);
    if (!note) throw new UserError(`no indexed note matches "${ref}"`);
    const outgoing = reader.outgoingLinks(note.id);
    const backlinks = reader.backlinks(note.id);
    if (argv.json) {
      printJson({ path: note.path, title: note.title, outgoing, backlinks });
      return;
    }
    const out = [`${note.path}  (${note.title})`, '', `outgoing (${outgoing.length})`];
    for (const l of outgoing) {
      const where = l.line ? `:${l.line}` : ' (frontmatter)';
      out.push(`  ${l.targetPath ?? `${l.target}  [unresolved]`}${l.heading ? `#${l.heading}` : ''}  ${l.kind}${where}`);
    }
    out.push('', `backlinks (${backlinks.length})`);
    for (const l of backlinks) out.push(`  ${l.sourcePath}${l.line ? `:${l.line}` : ''}  ${l.kind}`);
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    db.close();
  }
}
