// Whether a build of the whole index is under way: a first build, or one stopped before its end (this tsm's
// `tsm index --full` writes in one transaction, so no reader ever sees its mark; an older tsm's, beside
// it, commits as it goes). Such a build writes its full-text rows with FTS5's incremental merging off and
// turns it back on as its last step (note-writer.ts, beginBulkLoad / finishBulkLoad), so "merging is off"
// is the mark, kept in the index itself: a reader sees it without any lock, and a build killed on the way
// leaves it until the next sync of the whole vault finishes the build (note-writer.ts, mayEndBulkLoad).
// Until then the index holds only the notes written so far, and a search of it may miss any note.
import type { Database } from 'better-sqlite3';

/** The full-text tables a build loads in bulk. */
export const FTS_TABLES = ['sections_fts', 'notes_fts'] as const;

/** True while (or after a stopped) build of the whole index: the notes are not all in it. */
export function buildUnfinished(db: Database): boolean {
  // One statement for both tables: every search asks (the prompt hook's path included).
  const sql = FTS_TABLES.map((t) => `SELECT 1 FROM ${t}_config WHERE k = 'automerge' AND v = 0`).join(' UNION ALL ');
  return db.prepare(`SELECT EXISTS (${sql})`).pluck().get() === 1;
}

/**
 * Marks a build of the whole index as begun: merging off. A new index gets the mark with its schema, in the
 * same transaction (db.ts createSchema), so a run killed after making the file and before its build began
 * (seen in the kill tests: the next run took the empty index for a built one, synced it note by note and
 * never merged or turned merging back on) leaves an index that says it is unfinished, and is finished.
 */
export function markBuildUnfinished(db: Database): void {
  for (const t of FTS_TABLES) db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`).run();
}

/** What a search of such an index says, on every surface. */
export const INCOMPLETE_INDEX_NOTE =
  'the index is being built (a first build is under way, or one was stopped): results may miss notes until it ends (run `tsm index` if none is running)';
