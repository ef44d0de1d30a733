// Neural vectors kept across `tsm index --full`. The rebuild empties the index, and deleting the sections
// deletes their section_vectors rows with them (ON DELETE CASCADE); re-embedding a vault of the handbook's
// size takes one to two hours with a real model. So, in the transaction that empties the index, every vector
// is copied aside under the key of what was embedded — sha256 of the section's heading path, a line break
// and its text, the very input the embedding job reads (SECTION_TEXT_SQL) — and its model row; once the
// rebuild has written the sections again, each section without a vector whose input has the same key under
// the current model gets that vector back. Section ids change (new note ids), inputs do not: a section
// whose input changed, or that is gone, gets nothing, and the next embedding job embeds what is missing.
//
// Where the vectors wait: a regular table, `carried_vectors`, not a TEMP one. A `--full` now commits once,
// at its end (sync.ts), so a killed one leaves the old index with its vectors as they were; but an older tsm's
// rebuild commits in many transactions (the one that empties the index, one per batch of notes, then
// `finish`), and removed notes set theirs aside too (stashNote, below). A TEMP table would die with
// a killed process and the vectors with it (what happened to all of them before this); the regular table is
// filled in the same transaction that empties the index (so there is always either the old index with its
// vectors, or the emptied one with them set aside, never neither), survives a kill, and the next sync that
// scans the whole vault gives them back and drops it, in one transaction. It costs writing the vectors once
// more through the WAL. It is made only when there are vectors and is gone after that sync, so it is not
// part of the schema (no version bump): an index without it is the usual state, and nothing reads it
// but this file. Its model column refers to embedding_models with ON DELETE CASCADE: an embedding job of
// another model run in between (which deletes the old model, vectors.ts useModel) takes them with it.
// Not covered: another writer's whole-vault sync during an older tsm's rebuild (this tsm's writers wait for
// the end of its `--full`) gives the vectors back and drops the table before that rebuild has rewritten every
// note; the sections it writes after that are embedded again (never given a wrong vector).
//
// The same rule keeps vectors across an edit (`NoteVectors`, below): the note writer rewrites all of a
// note's sections when the note changes, and the cascade took every one of their vectors, so one changed
// paragraph had the embedding job embed the whole note again (~50–100 ms a 512-token window with a real
// model, on every save under `tsm watch`). Inside the write of the note, before its old sections go, its
// vectors are held in memory by the same key, and the sections written in their place get back those of
// their exact input under the same model. A note without vectors costs one lookup of its section id range
// in section_vectors (a rowid range: no rows, no key computed); a `--full` rebuild or a new note costs
// nothing here (no old sections: the rebuild's vectors wait in carried_vectors instead).
//
// And across a move or rename (a removal and an addition): the removed note's vectors are set aside in
// carried_vectors (`stashNote`), and the added note's sections of the same input get them back at the end of
// the sync (`carryBackTo` for a partial one, which keeps the rest; `carryBack` for a whole scan, which drops it).
import { hash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Database } from './db.js';
import { MAX_SECTIONS_PER_NOTE, sectionId } from './section-ids.js';
import { SemanticStore } from './semantic/store.js';
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
  carriedTable(db);
  return db
    .prepare(
      `INSERT OR IGNORE INTO ${TABLE} (key, model, vec)
       SELECT ${KEY_SQL}, v.model, v.vec FROM section_vectors v JOIN sections s ON s.id = v.id`,
    )
    .run().changes;
}

/**
 * The table where vectors wait. (key, model) first: the lookup of carryBack. Equal inputs under one model
 * have equal vectors: one is kept. A table left by a killed rebuild (or by removals, stashNote) is added to,
 * not replaced: its vectors are still what they were.
 */
function carriedTable(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
    key BLOB NOT NULL,
    model INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
    vec BLOB NOT NULL,
    PRIMARY KEY (key, model)
  )`);
}

/**
 * Sets a removed note's vectors aside by their input's key, as a rebuild sets all of them aside (call it
 * before the note's sections go, in the same transaction). A renamed or moved note is a removal and an
 * addition: its sections come back under another note id with the same input, and get their vectors back
 * (carryBackTo in the same sync, or carryBack at the next one that scans the whole vault) instead of being
 * embedded again. A note without vectors costs one rowid range lookup. Returns how many were set aside.
 */
export function stashNote(db: Database, noteId: number): number {
  const [first, last] = range(noteId);
  if (db.prepare('SELECT 1 FROM section_vectors WHERE id BETWEEN ? AND ? LIMIT 1').get(first, last) === undefined) return 0;
  useKeyFunction(db);
  carriedTable(db);
  return db
    .prepare(
      `INSERT OR IGNORE INTO ${TABLE} (key, model, vec)
       SELECT ${KEY_SQL}, v.model, v.vec FROM section_vectors v CROSS JOIN sections s ON s.id = v.id WHERE v.id BETWEEN ? AND ?`,
    )
    .run(first, last).changes;
}

/**
 * carryBack for the notes one partial sync wrote (a watcher's batch): their sections without a vector get
 * the one set aside for their exact input under the current model. The table stays: what is not claimed may
 * be of a note a later batch writes, and the next sync that scans the whole vault drops it. Returns how many.
 */
export function carryBackTo(db: Database, noteIds: Iterable<number>): number {
  if (!hasCarriedVectors(db)) return 0;
  useKeyFunction(db);
  const give = db.prepare(
    `INSERT INTO section_vectors (id, model, vec)
     SELECT s.id, c.model, c.vec FROM sections s CROSS JOIN ${TABLE} c
     WHERE s.id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM section_vectors v WHERE v.id = s.id)
       AND c.key = ${KEY_SQL} AND c.model = (SELECT max(id) FROM embedding_models)`,
  );
  let n = 0;
  for (const id of noteIds) n += give.run(...range(id)).changes;
  return n;
}

/** Whether vectors set aside by a rebuild (or by removed notes) wait to be given back. */
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

/** A note's vectors while its sections are rewritten, by the input's key (hex). */
export interface HeldVectors {
  /** Neural vectors, all of one model (null: none). */
  neural: { model: number; byKey: Map<string, Buffer> } | null;
  /** The semantic model's (semantic_sections), each with the sequence number that made it (null: none). */
  semantic: Map<string, { seq: number; vec: Buffer }> | null;
}

interface NoteVectorStatements {
  held: Statement;
  keys: Statement;
  insert: Statement;
  heldSemantic: Statement;
  keysSemantic: Statement;
  insertSemantic: Statement;
}

/**
 * Keeps a note's vectors across the rewrite of its sections (an edit): `hold` before the old sections are
 * deleted, `giveBack` once the new ones are written, in the same write transaction. Statements are
 * prepared on first use, per connection (one instance per NoteWriter).
 *
 * The semantic model's section vectors (semantic/store.ts) are kept by the same rule, with the sequence
 * number that made them, so a section the rewrite left as it was is what it was before: not embedded again,
 * not counted toward a retrain (refresh.ts retrainDue), and re-embedded after a training exactly when it would
 * have been had it stayed (replaceModel and storeTrained go by that number). A note an older tsm read is
 * rewritten whole after an upgrade: on the handbook not one of 58,459 sections changed, yet every vector was
 * dropped, all were embedded again and the model retrained (9 s of a 32 s sync).
 */
export class NoteVectors {
  private s: NoteVectorStatements | null = null;

  constructor(private readonly db: Database) {}

  /**
   * The vectors of note `noteId`'s sections (neural: under the current model, the newest embedding_models
   * row, as carryBack), by their input's key; null when it has none (one range lookup on each table's rowid
   * for a note without vectors, nothing hashed).
   */
  hold(noteId: number): HeldVectors | null {
    const s = this.statements();
    const rows = s.held.raw().all(...range(noteId)) as [Buffer, number, Buffer][];
    const semanticRows = s.heldSemantic.raw().all(...range(noteId)) as [Buffer, number, Buffer][];
    if (rows.length === 0 && semanticRows.length === 0) return null;
    const neural = rows.length === 0 ? null : { model: rows[0][1], byKey: new Map(rows.map(([key, , vec]) => [key.toString('hex'), vec])) };
    const semantic = semanticRows.length === 0 ? null : new Map(semanticRows.map(([key, seq, vec]) => [key.toString('hex'), { seq, vec }]));
    return { neural, semantic };
  }

  /**
   * Gives each section of note `noteId` now written, that has no vector, the held vector of its exact input
   * (same key): a neural one under the model it was made by, a semantic one with its sequence number (and
   * the note's own vector is made again from its sections'). Returns how many sections got a neural one.
   */
  giveBack(noteId: number, held: HeldVectors | null): number {
    if (held === null) return 0;
    const s = this.statements();
    let n = 0;
    if (held.neural !== null) {
      for (const [id, key] of s.keys.raw().all(...range(noteId)) as [number, Buffer][]) {
        const vec = held.neural.byKey.get(key.toString('hex'));
        if (vec !== undefined) n += s.insert.run(id, held.neural.model, vec).changes;
      }
    }
    if (held.semantic !== null) {
      for (const [id, key] of s.keysSemantic.raw().all(...range(noteId)) as [number, Buffer][]) {
        const v = held.semantic.get(key.toString('hex'));
        if (v !== undefined) s.insertSemantic.run(id, v.seq, v.vec);
      }
      // Of the sections it has now: those not given one back get theirs, and it again, when the sync embeds them.
      new SemanticStore(this.db).refreshNoteVectors([noteId]);
    }
    return n;
  }

  private statements(): NoteVectorStatements {
    if (this.s) return this.s;
    useKeyFunction(this.db);
    this.s = {
      // section_vectors first (CROSS JOIN): its rowid range is the lookup; a note without vectors reads no row.
      held: this.db.prepare(
        `SELECT ${KEY_SQL}, v.model, v.vec FROM section_vectors v CROSS JOIN sections s ON s.id = v.id
         WHERE v.id BETWEEN ? AND ? AND v.model = (SELECT max(id) FROM embedding_models)`,
      ),
      keys: this.db.prepare(
        `SELECT s.id, ${KEY_SQL} FROM sections s
         WHERE s.id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM section_vectors v WHERE v.id = s.id)`,
      ),
      insert: this.db.prepare('INSERT OR IGNORE INTO section_vectors (id, model, vec) VALUES (?, ?, ?)'),
      heldSemantic: this.db.prepare(
        `SELECT ${KEY_SQL}, v.seq, v.vec FROM semantic_sections v CROSS JOIN sections s ON s.id = v.id WHERE v.id BETWEEN ? AND ?`,
      ),
      keysSemantic: this.db.prepare(
        `SELECT s.id, ${KEY_SQL} FROM sections s
         WHERE s.id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM semantic_sections v WHERE v.id = s.id)`,
      ),
      insertSemantic: this.db.prepare('INSERT OR IGNORE INTO semantic_sections (id, seq, vec) VALUES (?, ?, ?)'),
    };
    return this.s;
  }
}

/** The section ids note `noteId` can hold (section-ids.ts), first and last. */
function range(noteId: number): [number, number] {
  return [sectionId(noteId, 0), sectionId(noteId, MAX_SECTIONS_PER_NOTE - 1)];
}
