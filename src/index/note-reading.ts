// Which version of the reading (src/parse/version.ts) wrote each note's rows, so that a sync of the whole vault
// reads again, once, the notes an older reading wrote (note-writer.ts fileStatesOf). Kept per note, with the
// note's indexed_at as this tsm wrote it: an older tsm writes notes without touching this table, and its
// writes must still be found. A whole-index mark (meta parse_version, before this) said "read by this tsm"
// after this tsm's sync, and what an older `tsm watch` or `--full` wrote next (checked on the Obsidian Hub:
// 154 rows read as the older tsm read them, after both had run) stayed so until the files changed; a newer
// tsm's mark was taken for an older one's: every note read again and the mark lowered, at each turn of two
// versions used by turns. Here an older tsm's rewrite gives the note another indexed_at (its insert: no
// record; its `--full`: new note ids), and a record of a newer reading is left alone.
//
// Not part of the schema (no version bump, as carried_vectors in vector-carry.ts): an older tsm of the same
// schema would rebuild an index of a newer schema version, dropping its vectors. Its rows go with their
// notes (ON DELETE CASCADE), with an older tsm's deletes too. ~25 bytes a note.
import { PARSE_VERSION } from '../parse/version.js';
import { writeTransaction, type Database } from './db.js';

const TABLE = 'note_reading';

function hasTable(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE) !== undefined;
}

/** Makes the table if the index has none (a writer's connection; an older tsm's index, or a fresh one). */
export function ensureReadingTable(db: Database): void {
  if (hasTable(db)) return;
  writeTransaction(db, () =>
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      note_id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
      version INTEGER NOT NULL,
      indexed_at TEXT NOT NULL
    )`),
  );
}

/** Records that this tsm's reading wrote note `id` at `indexedAt` (its notes.indexed_at), in the note's transaction. */
export function readingStatement(db: Database): (id: number, indexedAt: string) => void {
  const stmt = db.prepare(`INSERT OR REPLACE INTO ${TABLE} (note_id, version, indexed_at) VALUES (?, ${PARSE_VERSION}, ?)`);
  return (id, indexedAt) => void stmt.run(id, indexedAt);
}

/**
 * For a `SELECT … FROM notes n` (fileStatesOf): the join and a column `older_reading`, true for a note an
 * older reading wrote (no record, an older version, or another indexed_at than recorded: rewritten since by
 * a tsm that keeps no record). A newer version's record is not older: an older tsm leaves such a note as it is.
 */
export function olderReadingSql(db: Database): { join: string; column: string } {
  if (!hasTable(db)) return { join: '', column: '1 AS older_reading' };
  return {
    join: `LEFT JOIN ${TABLE} r ON r.note_id = n.id`,
    column: `(r.note_id IS NULL OR r.indexed_at IS NOT n.indexed_at OR r.version < ${PARSE_VERSION}) AS older_reading`,
  };
}

/**
 * The share of the index's notes an older reading wrote (0 for an index without notes): a sync of the whole
 * vault reads them again (fileStatesOf), all of them after an upgrade of tsm. Asked before the index is
 * brought to this tsm's schema (sync.ts), so it reads only what every schema with notes has: the notes' ids
 * and indexed_at.
 */
export function shareReadByOlder(db: Database): number {
  const current = hasTable(db)
    ? `(SELECT count(*) FROM notes n JOIN ${TABLE} r ON r.note_id = n.id WHERE r.indexed_at IS n.indexed_at AND r.version >= ${PARSE_VERSION})`
    : '0';
  const { notes, older } = db.prepare(`SELECT count(*) AS notes, count(*) - ${current} AS older FROM notes`).get() as { notes: number; older: number };
  return notes === 0 ? 0 : older / notes;
}

/**
 * Links are resolved by rules of the reading too (a name several notes share: Obsidian's pick since version 1),
 * and an older tsm re-resolves links at its syncs without a record: on the Hub, after an old `tsm watch` had
 * added and removed a few notes, 7 links of notes it never wrote pointed where its rules said. Each sync of
 * this tsm records the version beside the `last_sync` it writes (meta LINKS_RESOLVED); another `last_sync`
 * (an older tsm synced since), no record, or an older version: links may have been resolved by older rules,
 * and the next sync of the whole vault resolves every link again (0.24 s on the Hub's 22,569 links; a sync with nothing to do: 0.08 s).
 */
const LINKS_RESOLVED = 'links_resolved';

/**
 * The rules that resolve a link without changing what is read from a note (resolve-link.ts), counted apart
 * from PARSE_VERSION, whose change reads every note again: a change here only resolves every link again, once,
 * at the next sync of the whole vault. Recorded beside LINKS_RESOLVED (meta LINK_RULES); none recorded is 0.
 * Bump it with any change to how a link as read finds its note or attachment.
 *
 * 1: 2026-11-28 (`[[./y]]` and `![[./y.md]]` name y.md in the linking note's folder, no longer the root's: an
 * index resolved before kept the root's until the link's note was edited or `tsm index --full`).
 * 2: 2026-11-29 (a link with folders names only a note whose path ends with them: `[[wrong/Deep]]` named sub/Folder/Deep.md).
 * 3: 2026-11-29 (a wikilink names no folder's page: `[[docs]]` named docs/README.md; a markdown link still does).
 * 4: 2026-11-29 (a wikilink's `./x` or `../x` names the file there or none: `[[./Target]]` from other/ named the root's Target.md).
 */
export const LINK_RULES = 4;
const LINK_RULES_KEY = 'link_rules';

/** Whether links may have been resolved by older rules since this tsm's last sync (call it in the sync's write transaction). */
export function linksResolvedByOlder(db: Database): boolean {
  const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const record = meta.get(LINKS_RESOLVED) as string | undefined;
  const lastSync = meta.get('last_sync') as string | undefined;
  if (record === undefined || lastSync === undefined) return true;
  const [version, at] = [Number(record.slice(0, record.indexOf(' '))), record.slice(record.indexOf(' ') + 1)];
  const rules = Number(meta.get(LINK_RULES_KEY) ?? 0);
  return at !== lastSync || !(version >= PARSE_VERSION) || !(rules >= LINK_RULES);
}

/** Records that links are as this tsm's rules resolve them, as of the sync that writes `lastSync`. */
export function recordLinksResolved(db: Database, lastSync: string): void {
  const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  set.run(LINKS_RESOLVED, `${PARSE_VERSION} ${lastSync}`);
  set.run(LINK_RULES_KEY, String(LINK_RULES));
}
