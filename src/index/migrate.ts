// Schema changes that can be made exactly from what the index already holds, in place, instead of the
// rebuild another version gets (db.ts openWriter). A rebuild reads the whole vault again and drops every
// stored vector: with a real embedding model that is hours of embedding for a large vault. A migration is
// listed here only when its result is the very index a full build of the new version would write (the
// same rows, so the same bm25() statistics), never a guess.
import type { Database } from 'better-sqlite3';
import { NOTE_FTS_COLUMNS, NOTES_RANK_SQL, SECTION_FTS_COLUMNS, SEMANTIC_NOTES_SQL } from './schema.js';
import { ftsRows, noteFtsRow } from './fts-rows.js';
import { SemanticStore } from './semantic/store.js';
import { CjkDocFrequencies } from './cjk-df.js';

/**
 * One step: `schema`, the change to the tables themselves (always made); `rows`, the rows written again from
 * what the index holds, left out when the caller empties the index and writes every row from the vault in
 * the same transaction (a rebuild: migrate's `rows: false`), where they would be thrown away unread.
 */
interface Step {
  schema?: (db: Database) => void;
  rows?: (db: Database) => void;
}

/** Version → the step that brings an index of that version to the next. */
const STEPS: Record<number, Step> = {
  // 12: a note's row holds its frontmatter description beside its headings (fts-rows.ts noteFtsRow).
  11: { rows: writeNoteRowsAgain },
  // 13: a vector per note, made from its sections' vectors (semantic/note-vectors.ts), as a build makes it.
  12: { schema: (db) => db.exec(SEMANTIC_NOTES_SQL), rows: (db) => new SemanticStore(db).refreshNoteVectors() },
  // 14: the text is analysed with C++, C# and F# spelled as words (normalize.ts searchText), and a section's
  // head holds at most HEAD_NAMES of the note's aliases and tags (fts-rows.ts): every full-text row again.
  13: { rows: writeFtsRowsAgain },
  // 15: a variation selector after a CJK character is dropped from the text analysed (normalize.ts
  // dropCjkSelectors), so 葛󠄀飾 is cut as 葛飾: every full-text row again. Rows of the old cut left in place
  // would be deleted (contentless tables) with other values than they were written with, and FTS5 then
  // reports the index damaged.
  14: { rows: writeFtsRowsAgain },
  // 16: the fields ranking reads of a note, in an index of their own (schema.ts NOTES_RANK_SQL), built from
  // the rows as a build builds it.
  15: { schema: (db) => db.exec(NOTES_RANK_SQL) },
};

/** Whether an index of `from` can be brought to `to` by the steps above. */
export function canMigrate(from: number, to: number): boolean {
  for (let v = from; v < to; v++) if (!STEPS[v]) return false;
  return from < to;
}

/**
 * Runs the steps from `from` to `to`; the caller holds the write transaction and sets the version. With
 * `rows: false` only the tables change: the caller empties every row (NoteWriter.clearAll, which deletes the
 * full-text rows with FTS5's 'delete-all', never row by row) and writes them all again before it commits.
 */
export function migrate(db: Database, from: number, to: number, opts: { rows?: boolean } = {}): void {
  // Each rewrite once, after every table is changed: a rewrite writes the rows as this tsm writes them, so a
  // second one gives the same rows. From 11 or 13, every full-text row was written twice (14 and 15) and the
  // note rows three times: 11 → 15 in place took 15 s of CPU on the handbook, now 8–9.
  const rewrites = new Set<(db: Database) => void>();
  for (let v = from; v < to; v++) {
    STEPS[v].schema?.(db);
    const rows = STEPS[v].rows;
    if (rows) rewrites.add(rows);
  }
  if (rewrites.has(writeFtsRowsAgain)) rewrites.delete(writeNoteRowsAgain); // written with the rest
  if (opts.rows !== false) for (const rewrite of rewrites) rewrite(db);
}

/**
 * Every note's row of notes_fts written again from the notes and sections tables: the title, aliases,
 * tags, frontmatter and headings the row is made of are all stored there, as writeNote stored them.
 */
function writeNoteRowsAgain(db: Database): void {
  db.exec("INSERT INTO notes_fts (notes_fts) VALUES ('delete-all')");
  const insert = db.prepare(`INSERT INTO notes_fts (rowid, ${NOTE_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
  const headings = db.prepare('SELECT heading FROM sections WHERE note_id = ? ORDER BY ord');
  const notes = db.prepare('SELECT id, path, title, aliases, tags, frontmatter FROM notes ORDER BY id').all() as {
    id: number;
    path: string;
    title: string;
    aliases: string;
    tags: string;
    frontmatter: string;
  }[];
  for (const n of notes) {
    const sections = headings.all(n.id) as { heading: string }[];
    const row = noteFtsRow(n.path, n.title, JSON.parse(n.aliases) as string[], JSON.parse(n.tags) as string[], sections, JSON.parse(n.frontmatter) as Record<string, unknown>);
    insert.run(n.id, row.name.words, row.headings.words, row.name.cjk, row.headings.cjk);
  }
}

/**
 * Every full-text row written again from the notes and sections tables, as writeNote writes them, after a
 * change to how text is analysed (analyze.ts), and cjk_df counted again from them, as a build's end counts it:
 * the CJK columns are cut as before, but a head no longer holds a note's aliases and tags past HEAD_NAMES.
 */
function writeFtsRowsAgain(db: Database): void {
  db.exec("INSERT INTO sections_fts (sections_fts) VALUES ('delete-all')");
  const insert = db.prepare(`INSERT INTO sections_fts (rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
  const sectionsOf = db.prepare('SELECT id, heading_path AS headingPath, text FROM sections WHERE note_id = ? ORDER BY ord');
  for (const n of db.prepare('SELECT id, path, aliases, tags FROM notes ORDER BY id').all() as { id: number; path: string; aliases: string; tags: string }[]) {
    const sections = sectionsOf.all(n.id) as { id: number; headingPath: string; text: string }[];
    for (const row of ftsRows(n.path, JSON.parse(n.aliases) as string[], JSON.parse(n.tags) as string[], sections)) {
      insert.run(sections[row.ord].id, row.head.words, row.body.words, row.head.cjk, row.body.cjk);
    }
  }
  writeNoteRowsAgain(db);
  db.exec("INSERT INTO sections_fts (sections_fts) VALUES ('optimize'); INSERT INTO notes_fts (notes_fts) VALUES ('optimize')");
  new CjkDocFrequencies(db).refill();
}
