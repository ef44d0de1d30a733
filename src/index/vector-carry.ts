// Neural vectors kept across `tsm index --full`. The rebuild empties the index, and deleting the sections
// deletes their section_vectors rows with them (ON DELETE CASCADE); re-embedding a vault of the handbook's
// size takes one to two hours with a real model. So, in the transaction that empties the index, every vector
// is copied aside under the key of what was embedded — sha256 of the section's heading path, a line break
// and its text, the very input the embedding job reads (SECTION_TEXT_SQL) — and its model row; once the
// rebuild has written the sections again, each section without a vector whose input has the same key under
// the current model gets that vector back. Section ids change (new note ids), inputs do not: a section
// whose input changed, or that is gone, gets nothing, and the next embedding job embeds what is missing.
//
// Where the vectors wait: a regular table, `carried_vectors`, not a TEMP one. The rebuild commits in many
// transactions (the one that empties the index, one per batch of notes, then `finish`), like the bulk load
// whose unfinished merge the next sync completes (note-writer.ts beginBulkLoad). A TEMP table would die with
// a killed process and the vectors with it (what happened to all of them before this); the regular table is
// filled in the same transaction that empties the index (so there is always either the old index with its
// vectors, or the emptied one with them set aside, never neither), survives a kill, and the next sync that
// scans the whole vault gives them back and drops it, in one transaction. It costs writing the vectors once
// more through the WAL. It is made only when there are vectors and is gone after that sync, so it is not
// part of the schema (no version bump): an index without it is the usual state, and nothing reads it
// but this file. Its model column refers to embedding_models with ON DELETE CASCADE: an embedding job of
// another model run in between (which deletes the old model, vectors.ts useModel) takes them with it.
// Not covered: another writer's whole-vault sync (a second `--full`, a watcher's rescan) during a rebuild
// gives the vectors back and drops the table before this rebuild has rewritten every note; the sections it
// writes after that are embedded again (never given a wrong vector).
import { hash } from 'node:crypto';
import type { Database } from './db.js';
import { SECTION_TEXT_SQL } from './vectors.js';

const TABLE = 'carried_vectors';
/** The SQL function that keys a section's embedded input (registered per connection, below). */
const KEY_FN = 'tsm_embed_key';
const KEY_SQL = `${KEY_FN}(${SECTION_TEXT_SQL})`;

const registered = new WeakSet<Database>();

/** sha256 of the embedded input, as a 32-byte blob; computed inside SQLite's statements, a row at a time. */
function useKeyFunction(db: Database): void {
  if (registered.has(db)) return;
  db.function(KEY_FN, { deterministic: true }, (text: unknown) => hash('sha256', String(text), 'buffer'));
  registered.add(db);
}

/**
 * Sets every section vector aside by its input's key and model (call it in the transaction that empties the
 * index, before the sections go). Nothing to do, and no table made, when there are no vectors. Returns how
 * many distinct inputs were set aside.
 */
export function stashVectors(db: Database): number {
  if (db.prepare('SELECT 1 FROM section_vectors LIMIT 1').get() === undefined) return 0;
  useKeyFunction(db);
  // (key, model) first: the lookup of carryBack. Equal inputs under one model have equal vectors: one is kept.
  // A table left by a killed rebuild is added to, not replaced: its vectors are still what they were.
  db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
    key BLOB NOT NULL,
    model INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
    vec BLOB NOT NULL,
    PRIMARY KEY (key, model)
  )`);
  return db
    .prepare(
      `INSERT OR IGNORE INTO ${TABLE} (key, model, vec)
       SELECT ${KEY_SQL}, v.model, v.vec FROM section_vectors v JOIN sections s ON s.id = v.id`,
    )
    .run().changes;
}

/** Whether vectors set aside by a rebuild wait to be given back. */
export function hasCarriedVectors(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE) !== undefined;
}

/**
 * Gives each section without a vector the one set aside for its exact input under the current model (the
 * newest embedding_models row; useModel keeps only one), then drops the table: call it in one write
 * transaction, once every note of the vault is written (a sync that scanned the whole vault), so what was
 * not claimed is of no section. Returns how many sections got a vector back.
 */
export function carryBack(db: Database): number {
  if (!hasCarriedVectors(db)) return 0;
  useKeyFunction(db);
  // CROSS JOIN keeps sections the outer loop (each one's key computed once, then one index lookup); a
  // section that already has a vector (an embedding job ran meanwhile) is passed over before it is hashed.
  const n = db
    .prepare(
      `INSERT INTO section_vectors (id, model, vec)
       SELECT s.id, c.model, c.vec FROM sections s CROSS JOIN ${TABLE} c
       WHERE NOT EXISTS (SELECT 1 FROM section_vectors v WHERE v.id = s.id)
         AND c.key = ${KEY_SQL} AND c.model = (SELECT max(id) FROM embedding_models)`,
    )
    .run().changes;
  db.exec(`DROP TABLE ${TABLE}`);
  return n;
}
