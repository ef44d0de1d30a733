// The SQL of the semantic model: word vectors, section vectors and the model's state (meta 'semantic_model').
import type { Database } from 'better-sqlite3';
import { noteOfSection } from '../section-ids.js';
import { noteVector, type SectionVectorRow } from './note-vectors.js';
import type { SectionText, Trained } from './types.js';

/** Bump when the words, the training or the vectors change: a model of another version is retrained. */
export const SEMANTIC_VERSION = 3;
/** Notes whose vectors are made again at a time when every note's are (refreshNoteVectors). */
const NOTE_CHUNK = 500;
const META_KEY = 'semantic_model';

export interface SemanticState {
  version: number;
  /** 'trained': vectors exist; 'too-small': the vault had too few sections to learn from. */
  kind: 'trained' | 'too-small';
  dims: number;
  words: number;
  /** Sections the model learned from (or found, when too small). */
  sections: number;
  trainedAt: string;
  /** Sections given vectors by incremental syncs since (new or changed). */
  embeddedSince: number;
  /** The last incremental embedding's sequence number (semantic_sections.seq). */
  seq: number;
}

export class SemanticStore {
  constructor(private readonly db: Database) {}

  state(): SemanticState | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as { value: string } | undefined;
    if (!row) return null;
    try {
      const s = JSON.parse(row.value) as SemanticState;
      return s.version === SEMANTIC_VERSION ? s : null;
    } catch {
      return null;
    }
  }

  setState(s: SemanticState): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META_KEY, JSON.stringify(s));
  }

  sectionCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM sections').get() as { n: number }).n;
  }

  /** Sections of the index, and how many have no vector row yet (added while the model was off, or none trained). */
  sectionCounts(): { sections: number; unembedded: number } {
    const sections = this.sectionCount();
    // A row goes with its section (ON DELETE CASCADE), so rows never outnumber sections. count(*) reads no
    // vector: 0.16 ms over 60,000 rows, against 4 ms for counting the non-empty ones (vectorsHeld).
    const rows = (this.db.prepare('SELECT count(*) AS n FROM semantic_sections').get() as { n: number }).n;
    return { sections, unembedded: Math.max(0, sections - rows) };
  }

  /** Sections with a vector that search can use (an empty one: the section has no word the model knows). */
  vectorsHeld(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM semantic_sections WHERE length(vec) > 0').get() as { n: number }).n;
  }

  /** What the model learns from and embeds: a section's heading path and its text. */
  allSectionTexts(): IterableIterator<SectionText> {
    return this.db.prepare(`SELECT id, heading_path || char(10) || text AS text FROM sections ORDER BY id`).iterate() as IterableIterator<SectionText>;
  }

  /** Sections without a vector, and those embedded after sequence number `afterSeq` (re-embedded by a newer model). */
  sectionsToEmbed(afterSeq = Infinity): SectionText[] {
    return this.db
      .prepare(
        `SELECT s.id, s.heading_path || char(10) || s.text AS text FROM sections s LEFT JOIN semantic_sections v ON v.id = s.id
         WHERE v.id IS NULL OR v.seq > ?`,
      )
      .all(Number.isFinite(afterSeq) ? afterSeq : Number.MAX_SAFE_INTEGER) as SectionText[];
  }

  /** Stored word vectors (and idf) of these words. */
  wordVectors(words: string[]): Map<string, { idf: number; vec: Buffer }> {
    const rows = this.db
      .prepare('SELECT word, idf, vec FROM semantic_words WHERE word IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(words)) as { word: string; idf: number; vec: Buffer }[];
    return new Map(rows.map((r) => [r.word, { idf: r.idf, vec: r.vec }]));
  }

  /** Which of these are words of the model. */
  knownWords(words: string[]): Set<string> {
    const rows = this.db.prepare('SELECT word FROM semantic_words WHERE word IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(words)) as string[];
    return new Set(rows);
  }

  /** Vectors of these sections (by rowid), for ranking the candidates of one search. */
  sectionVectors(ids: number[]): Map<number, Buffer> {
    const rows = this.db
      .prepare('SELECT id, vec FROM semantic_sections WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as { id: number; vec: Buffer }[];
    return new Map(rows.map((r) => [r.id, r.vec]));
  }

  /** Vectors of these notes (by note id), for the note-level list of one search. */
  noteVectors(ids: number[]): Map<number, Buffer> {
    const rows = this.db
      .prepare('SELECT id, vec FROM semantic_notes WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as { id: number; vec: Buffer }[];
    return new Map(rows.map((r) => [r.id, r.vec]));
  }

  /**
   * The vectors of these notes (of every note when `noteIds` is omitted) made again from their sections'
   * vectors (note-vectors.ts); a note none of whose sections has a vector has none. Called wherever section
   * vectors are written, in the same transaction.
   */
  refreshNoteVectors(noteIds?: readonly number[]): void {
    if (!noteIds) {
      // Every note, a few hundred at a time: one read of all the handbook's 58,000 sections' rows held ~40
      // MB at once, at the very end of a training, which is a full build's peak (406 MB against a 400 MB
      // bound in one run; ~370 MB with chunks).
      const all = this.db.prepare('SELECT id FROM notes ORDER BY id').pluck().all() as number[];
      this.db.exec('DELETE FROM semantic_notes');
      for (let i = 0; i < all.length; i += NOTE_CHUNK) this.refreshNoteVectors(all.slice(i, i + NOTE_CHUNK));
      return;
    }
    if (noteIds.length === 0) return;
    const args = [JSON.stringify([...new Set(noteIds)])];
    const rows = this.db
      .prepare(
        `SELECT s.note_id AS noteId, length(s.text) AS len, v.vec AS vec FROM sections s JOIN semantic_sections v ON v.id = s.id
         WHERE s.note_id IN (SELECT value FROM json_each(?)) ORDER BY s.note_id`,
      )
      .all(...args) as (SectionVectorRow & { noteId: number })[];
    this.db.prepare('DELETE FROM semantic_notes WHERE id IN (SELECT value FROM json_each(?))').run(...args);
    const put = this.db.prepare('INSERT INTO semantic_notes (id, vec) VALUES (?, ?)');
    for (let i = 0; i < rows.length; ) {
      let j = i;
      while (j < rows.length && rows[j].noteId === rows[i].noteId) j++;
      const vec = noteVector(rows.slice(i, j));
      if (vec) put.run(rows[i].noteId, vec);
      i = j;
    }
  }

  /** Every section's vector, for ranking the whole vault by cosine (the semantic ranker's additions). */
  allSectionVectors(): IterableIterator<{ id: number; vec: Buffer }> {
    return this.db.prepare('SELECT id, vec FROM semantic_sections').iterate() as IterableIterator<{ id: number; vec: Buffer }>;
  }

  /** Stores section vectors, and makes their notes' vectors again. */
  putSectionVectors(vectors: Map<number, Buffer>, seq: number): void {
    const put = this.db.prepare('INSERT OR REPLACE INTO semantic_sections (id, seq, vec) VALUES (?, ?, ?)');
    for (const [id, vec] of vectors) put.run(id, seq, vec);
    this.refreshNoteVectors([...vectors.keys()].map(noteOfSection));
  }

  /**
   * A trained model replaces the old one. Its section vectors are of the texts it read; a section written
   * since (seq > `snapshotSeq`, or gone) keeps what the sync gave it, and is re-embedded by the caller.
   */
  replaceModel(t: Trained, snapshotSeq: number): void {
    this.db.exec('DELETE FROM semantic_words');
    const putWord = this.db.prepare('INSERT INTO semantic_words (word, idf, vec) VALUES (?, ?, ?)');
    t.model.words.forEach((w, i) => putWord.run(w, t.model.idf[i], t.model.vectors[i]));
    this.db.prepare('DELETE FROM semantic_sections WHERE seq <= ?').run(snapshotSeq);
    const put = this.db.prepare(
      `INSERT INTO semantic_sections (id, seq, vec) SELECT @id, 0, @vec
       WHERE EXISTS (SELECT 1 FROM sections WHERE id = @id) AND NOT EXISTS (SELECT 1 FROM semantic_sections WHERE id = @id)`,
    );
    for (const [id, vec] of t.sectionVectors) put.run({ id, vec });
    this.refreshNoteVectors();
  }

  /** Forgets the model (a vault too small to learn from). */
  clear(): void {
    this.db.exec('DELETE FROM semantic_words; DELETE FROM semantic_sections; DELETE FROM semantic_notes;');
  }
}
