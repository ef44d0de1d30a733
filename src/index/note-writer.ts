// Every write to the index: notes with their sections, FTS rows, tags, aliases, links; skips; warnings.
// Callers group calls into transactions with `inTransaction` (BEGIN IMMEDIATE through db.ts's
// writeTransaction, so a second writer waits its turn instead of failing on a lock upgrade or a long lock).
import type { VaultFile } from '../core/types.js';
import type { DayFormat } from '../parse/day-format.js';
import type { ParseOptions } from '../parse/options.js';
import { noteDate } from '../parse/metadata.js';
import { OLD_BINARY_REASONS } from '../text/decode.js';
import { keyForm, normalize } from '../text/normalize.js';
import { holderRuns, lockPid } from '../vault/process-start.js';
import { buildUnfinished, FTS_TABLES, markBuildUnfinished } from './build-state.js';
import { CjkDocFrequencies } from './cjk-df.js';
import { damagedError, indexPathOf, writeTransaction, type Database } from './db.js';
import { basenameKey, pageKeyOfPath, resolveLink, targetKey, type NoteLookup } from './resolve-link.js';
import { ftsRows, noteFtsRow, type PreparedNote } from './fts-rows.js';
import { NOTE_FTS_COLUMNS, SECTION_FTS_COLUMNS } from './schema.js';
import { MAX_SECTIONS_PER_NOTE, ordOfSection, sectionId } from './section-ids.js';
import { newGeneration } from './nearest-key.js';
import { ensureReadingTable, linksResolvedByOlder, olderReadingSql, readingStatement, recordLinksResolved } from './note-reading.js';
import { changedReadingSettings, recordReadingSettings } from './reading-settings.js';
import { dateInThisZone } from './mtime-zone.js';
import { carryBack, carryBackTo, hasCarriedVectors, NoteVectors, stashNote, stashVectors } from './vector-carry.js';

export interface FileState {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  hash: string | null;
  skipped: boolean;
  /** Parse it again even though its file is unchanged (it was written by an older parser's rules). */
  reread?: boolean;
  /** Its rows were written by an older version of the reading (note-reading.ts): reread, and counted as such. */
  olderReading?: boolean;
}

const PENDING_LINKS = 'links_pending';
/** The pid of the process whose build of the whole index is under way (beginBulkLoad → finishBulkLoad). */
const BULK_LOAD_PID = 'bulk_load_pid';
/**
 * That build, `PID@SINCE` (SINCE: when it began, epoch ms): a process with its pid that started later is not
 * the builder (vault/process-start.ts). A key of its own, so that an older tsm still reads bulk_load_pid as
 * a pid; it names the pid too, since an older tsm leaves it behind when it ends a mark.
 */
const BULK_LOAD_SINCE = 'bulk_load_since';
/** meta: the highest note id the index has held; new notes get ids above it (insertNote). */
const ID_FLOOR = 'note_id_floor';
/**
 * meta: notes written (added, updated, removed) since the full-text indexes were last merged into one
 * segment (a build, or sync.ts mergeIfMuchWritten), whatever the syncs that wrote them.
 */
const WRITTEN_SINCE_MERGE = 'fts_written_since_merge';
/** FTS5's default: merge once a level holds this many segments. */
const FTS_AUTOMERGE = 4;

export class NoteWriter {
  private readonly s;
  private readonly cjkDf: CjkDocFrequencies;
  /** Keeps the neural vectors of a rewritten note's unchanged sections (vector-carry.ts). */
  private readonly vectors: NoteVectors;
  /** A bulk load is under way: cjk_df is refilled at its end instead of after every transaction. */
  private bulk: boolean;
  /** Notes this writer wrote (one per sync): a partial sync gives them the vectors removed notes set aside. */
  private readonly written = new Set<number>();
  /** The builder the index named when this run began (its own, once it begins a bulk load): mayEndBulkLoad. */
  private builderSeen: string | null;
  /** The mark this writer set (beginBulkLoad), if it did: a pid alone may be a killed build's, reused by this process. */
  private ownBuild: string | null = null;
  /** Records that this tsm's reading wrote a note (note-reading.ts). */
  private readonly recordReading: (id: number, indexedAt: string) => void;
  /**
   * Notes written in the running transaction whose reading is not recorded yet: recorded at the end of the
   * transaction (flushReadings), the notes' own, so no other writer ever sees a note without its record. One
   * row a note, written between each note's sections and full-text rows, left 10,503 free pages in a build
   * of the handbook (its index 222 instead of 179 MB, +1 s), against ~1,300 recorded a transaction at a time.
   */
  private readonly unrecorded: [number, string][] = [];

  constructor(
    private readonly db: Database,
    /** The vault's note extensions (TsmConfig.extensions): names and links are keyed without them. */
    private readonly extensions: readonly string[],
  ) {
    ensureReadingTable(db);
    this.recordReading = readingStatement(db);
    this.cjkDf = new CjkDocFrequencies(db);
    this.vectors = new NoteVectors(db);
    this.bulk = this.bulkLoadUnfinished();
    this.s = {
      noteByPath: db.prepare('SELECT id FROM notes WHERE path = ?'),
      // An explicit id above every id the index ever held (ID_FLOOR): a new note never takes a removed
      // note's id, so the removed note's section ids name nothing rather than the new note's sections.
      insertNote: db.prepare(`INSERT INTO notes (id, path, basename, title, type, status, date, date_source, tags, aliases,
        frontmatter, size, mtime_ms, ctime_ms, hash, indexed_at) VALUES (
        max(coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${ID_FLOOR}'), 0), coalesce((SELECT max(id) FROM notes), 0)) + 1,
        @path, @basename, @title, @type, @status, @date,
        @dateSource, @tags, @aliases, @frontmatter, @size, @mtimeMs, @ctimeMs, @hash, @indexedAt)`),
      raiseIdFloor: db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('${ID_FLOOR}',
        max(coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${ID_FLOOR}'), 0), coalesce((SELECT max(id) FROM notes), 0)))`),
      sectionSlots: db.prepare('SELECT min(id) AS first, count(*) AS n FROM sections WHERE note_id = ?'),
      updateNote: db.prepare(`UPDATE notes SET title = @title, type = @type, status = @status, date = @date,
        date_source = @dateSource, tags = @tags, aliases = @aliases, frontmatter = @frontmatter, size = @size,
        mtime_ms = @mtimeMs, ctime_ms = @ctimeMs, hash = @hash, indexed_at = @indexedAt WHERE id = @id`),
      touchNote: db.prepare('UPDATE notes SET size = ?, mtime_ms = ?, ctime_ms = ? WHERE path = ?'),
      sectionsOfNote: db.prepare('SELECT id, heading, heading_path AS headingPath, text FROM sections WHERE note_id = ? ORDER BY ord'),
      pathAndAliases: db.prepare('SELECT path, title, aliases, tags, frontmatter FROM notes WHERE id = ?'),
      // Contentless FTS5: a row is removed by handing back exactly the values it was inserted with, which
      // also keeps the row count and column sizes bm25() normalises by in step (a contentless_delete
      // table's DELETE does not: scores drifted away from a clean build's with every update).
      deleteFts: db.prepare(
        `INSERT INTO sections_fts (sections_fts, rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES ('delete', ?, ?, ?, ?, ?)`,
      ),
      deleteNoteFts: db.prepare(
        `INSERT INTO notes_fts (notes_fts, rowid, ${NOTE_FTS_COLUMNS.join(', ')}) VALUES ('delete', ?, ?, ?, ?, ?)`,
      ),
      deleteSections: db.prepare('DELETE FROM sections WHERE note_id = ?'),
      deleteTags: db.prepare('DELETE FROM note_tags WHERE note_id = ?'),
      deleteAliases: db.prepare('DELETE FROM note_aliases WHERE note_id = ?'),
      deleteLinks: db.prepare('DELETE FROM links WHERE source_id = ?'),
      deleteNote: db.prepare('DELETE FROM notes WHERE id = ?'),
      setSectionCount: db.prepare('UPDATE notes SET section_count = ? WHERE id = ?'),
      insertSection: db.prepare(`INSERT INTO sections (id, note_id, ord, heading, level, heading_path, start_line, end_line,
        chunk, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertFts: db.prepare(`INSERT INTO sections_fts (rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`),
      insertNoteFts: db.prepare(`INSERT INTO notes_fts (rowid, ${NOTE_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`),
      insertTag: db.prepare('INSERT OR IGNORE INTO note_tags (note_id, tag) VALUES (?, ?)'),
      insertAlias: db.prepare('INSERT OR IGNORE INTO note_aliases (note_id, alias) VALUES (?, ?)'),
      insertLink: db.prepare(`INSERT INTO links (source_id, section_id, kind, target, target_key, heading, text, line, target_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`),
      upsertSkipped: db.prepare('INSERT OR REPLACE INTO skipped_files (path, size, mtime_ms, ctime_ms, reason) VALUES (?, ?, ?, ?, ?)'),
      deleteSkipped: db.prepare('DELETE FROM skipped_files WHERE path = ?'),
      deleteWarnings: db.prepare('DELETE FROM warnings WHERE path = ?'),
      insertWarning: db.prepare('INSERT INTO warnings (path, message, at) VALUES (?, ?, ?)'),
      setMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      deleteMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
    };
    this.builderSeen = this.builder();
  }

  inTransaction<T>(fn: () => T): T {
    try {
      return writeTransaction(this.db, () => {
        // Another writer may have begun or finished a bulk load since this one's last transaction:
        // counting by a stale flag left cjk_df short after parallel `--full` runs.
        this.bulk = this.bulkLoadUnfinished();
        const result = fn();
        if (!this.bulk) this.cjkDf.apply();
        return result;
      });
    } finally {
      this.cjkDf.discard();
    }
  }

  /** What the index knows of every file: notes and skipped files. */
  fileStates(dayFormats: readonly DayFormat[]): Map<string, FileState> {
    return fileStatesOf(this.db, dayFormats);
  }

  /**
   * Writes (or rewrites) one note; its id stays the same so links into it stay resolved. Sections whose
   * embedded input (heading path and text) is unchanged keep their neural and semantic vectors, wherever
   * they moved in the note; the others lose theirs and are embedded again (vector-carry.ts NoteVectors). Returns the aliases
   * it had before (links that resolved through one of them must be looked at again).
   */
  writeNote(file: VaultFile, prepared: PreparedNote, hash: string): string[] {
    const { note, rows: fts } = prepared;
    const existing = this.s.noteByPath.get(file.path) as { id: number } | undefined;
    const row = {
      path: file.path,
      basename: basenameKey(file.path, this.extensions),
      title: note.title,
      type: note.type,
      status: note.status,
      date: note.date,
      dateSource: note.dateSource,
      tags: JSON.stringify(note.tags),
      aliases: JSON.stringify(note.aliases),
      frontmatter: JSON.stringify(note.frontmatter),
      size: file.size,
      mtimeMs: Math.floor(file.mtimeMs),
      ctimeMs: Math.floor(file.ctimeMs ?? 0),
      hash,
      indexedAt: new Date().toISOString(),
    };
    let id: number;
    let previousAliases: string[] = [];
    let held = null;
    let base = 0;
    if (existing) {
      id = existing.id;
      base = this.nextSectionBase(id, note.sections.length);
      held = this.vectors.hold(id);
      previousAliases = this.clearNoteChildren(id);
      this.s.updateNote.run({ ...row, id });
    } else {
      id = Number(this.s.insertNote.run(row).lastInsertRowid);
    }
    this.s.deleteSkipped.run(file.path);

    const sectionIds = note.sections.map((sec, ord) => {
      const sid = sectionId(id, base + ord);
      this.s.insertSection.run(sid, id, ord, sec.heading, sec.level, sec.headingPath, sec.startLine, sec.endLine, sec.chunk, sec.text);
      return sid;
    });
    this.s.setSectionCount.run(sectionIds.length, id);
    this.unrecorded.push([id, row.indexedAt]);
    this.vectors.giveBack(id, held);
    this.written.add(id);
    for (const row of fts.sections) {
      this.s.insertFts.run(sectionIds[row.ord], row.head.words, row.body.words, row.head.cjk, row.body.cjk);
      if (!this.bulk) this.cjkDf.countRow(row.head.cjk, row.body.cjk, 1);
    }
    const nf = fts.note;
    this.s.insertNoteFts.run(id, nf.name.words, nf.headings.words, nf.name.cjk, nf.headings.cjk);
    for (const tag of note.tags) this.s.insertTag.run(id, keyForm(tag));
    for (const alias of note.aliases) this.s.insertAlias.run(id, normalize(alias));
    for (const link of note.links) {
      const inSection = link.section === null ? null : (sectionIds[Math.min(link.section, sectionIds.length - 1)] ?? null);
      this.s.insertLink.run(id, inSection, link.kind, link.target, targetKey(link.target, this.extensions), link.heading, link.text, link.line);
    }
    this.replaceWarnings(file.path, note.warnings);
    return previousAliases;
  }

  /**
   * Where a rewritten note's sections start among its 2^20 section ids: after its old ones. Section ids are
   * handed to MCP clients (`get_sections`, `timeline`) and are documented to name nothing once their note is
   * re-indexed; written again from slot 0, an old id named whatever section now sat at its place (a model
   * asking for "概要" got the text of a section inserted above it). Back to 0 only once the ids run out.
   */
  private nextSectionBase(noteId: number, sections: number): number {
    const old = this.s.sectionSlots.get(noteId) as { first: number | null; n: number };
    if (old.first === null) return 0;
    const next = ordOfSection(old.first) + old.n;
    return next + sections <= MAX_SECTIONS_PER_NOTE ? next : 0;
  }

  /** Same content, new stat: cheaper than a rewrite. */
  touchNote(file: VaultFile): void {
    this.s.touchNote.run(file.size, Math.floor(file.mtimeMs), Math.floor(file.ctimeMs ?? 0), file.path);
  }

  markSkipped(file: VaultFile, reason: string): void {
    this.removePath(file.path);
    this.s.upsertSkipped.run(file.path, file.size, Math.floor(file.mtimeMs), Math.floor(file.ctimeMs ?? 0), reason);
    this.replaceWarnings(file.path, [`skipped: ${reason}`]);
  }

  /** Forgets a path: its note (sections, FTS rows, links), skip record and warnings. Links into it become unresolved. */
  removePath(path: string): boolean {
    const existing = this.s.noteByPath.get(path) as { id: number } | undefined;
    if (existing) {
      // A renamed or moved note comes back as another path: its vectors wait for it (vector-carry.ts).
      stashNote(this.db, existing.id);
      this.clearNoteChildren(existing.id);
      this.s.raiseIdFloor.run();
      this.s.deleteNote.run(existing.id);
    }
    const skipped = this.s.deleteSkipped.run(path).changes > 0;
    this.s.deleteWarnings.run(path);
    return Boolean(existing) || skipped;
  }

  replaceWarnings(path: string, messages: string[]): void {
    this.s.deleteWarnings.run(path);
    const at = new Date().toISOString();
    for (const m of messages) this.s.insertWarning.run(path, m, at);
  }

  /**
   * Makes the attachments table hold exactly `paths` (a full scan's list), writing only what changed: a key
   * too, as keys follow the note extensions (x.markdown is keyed `x` where .markdown is a note extension).
   */
  syncAttachments(paths: string[]): void {
    const known = new Map((this.db.prepare('SELECT path, key FROM attachments').all() as { path: string; key: string }[]).map((r) => [r.path, r.key]));
    const insert = this.db.prepare('INSERT OR REPLACE INTO attachments (path, key) VALUES (?, ?)');
    for (const p of paths) {
      const key = targetKey(p, this.extensions);
      if (known.get(p) !== key) insert.run(p, key);
      known.delete(p);
    }
    const remove = this.db.prepare('DELETE FROM attachments WHERE path = ?');
    for (const p of known.keys()) remove.run(p);
  }

  /** Every attachment path the index lists. */
  attachmentPaths(): Set<string> {
    return new Set(this.db.prepare('SELECT path FROM attachments').pluck().all() as string[]);
  }

  /** Records attachments the watcher saw appear (`present`) and go (`gone`), between two full scans. */
  updateAttachments(present: string[], gone: string[]): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO attachments (path, key) VALUES (?, ?)');
    for (const p of present) insert.run(p, targetKey(p, this.extensions));
    const remove = this.db.prepare('DELETE FROM attachments WHERE path = ?');
    for (const p of gone) remove.run(p);
  }

  /** Drops warnings of paths that are no longer notes or skipped files (scan warnings are re-added after). */
  pruneWarnings(): void {
    this.db.exec('DELETE FROM warnings WHERE path NOT IN (SELECT path FROM notes UNION SELECT path FROM skipped_files)');
  }

  warningCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM warnings').get() as { n: number }).n;
  }

  setMeta(key: string, value: string): void {
    this.s.setMeta.run(key, value);
  }

  /** Records the reading of the notes written in the running transaction: call it last in that transaction. */
  flushReadings(): void {
    for (const [id, at] of this.unrecorded) this.recordReading(id, at);
    this.unrecorded.length = 0;
  }

  /** The settings the index's notes were read with that differ from `opts` (reading-settings.ts). */
  changedReadingSettings(opts: ParseOptions): string[] {
    return changedReadingSettings(this.db, opts);
  }

  /** Records that every note is read with `opts`: in the transaction that ends a sync of the whole vault. */
  recordReadingSettings(opts: ParseOptions): void {
    recordReadingSettings(this.db, opts);
  }

  /** Dates the notes dated by modification time in this process's time zone, if the index's were in another (mtime-zone.ts). */
  dateInThisZone(): number {
    return dateInThisZone(this.db);
  }

  /** Whether links may have been resolved by an older tsm's rules since this tsm's last sync (note-reading.ts). */
  linksResolvedByOlder(): boolean {
    return linksResolvedByOlder(this.db);
  }

  /** Ends a sync: its time (meta last_sync), and, when `linksAsRuled`, that links are as this tsm's rules resolve them. */
  markSynced(linksAsRuled: boolean): void {
    const at = new Date().toISOString();
    this.s.setMeta.run('last_sync', at);
    if (linksAsRuled) recordLinksResolved(this.db, at);
  }

  /**
   * Records, in the running transaction, that links need re-resolving: all of them, or the unresolved ones
   * plus those whose target key is in `keys`. Kept in the index, so a sync killed between writing notes and
   * resolving links leaves the work to the next sync instead of losing it.
   */
  addPendingLinks(keys: Iterable<string> | 'all'): void {
    const now = this.pendingLinks();
    const next = keys === 'all' || now?.all ? { all: true, keys: [] } : { all: false, keys: [...new Set([...(now?.keys ?? []), ...keys])] };
    this.s.setMeta.run(PENDING_LINKS, JSON.stringify(next));
  }

  /** The pending link work (null: none), cleared: call it in the transaction that does the work. */
  takePendingLinks(): { all: boolean; keys: string[] } | null {
    const now = this.pendingLinks();
    if (now) this.s.deleteMeta.run(PENDING_LINKS);
    return now;
  }

  private pendingLinks(): { all: boolean; keys: string[] } | null {
    const row = this.s.getMeta.get(PENDING_LINKS) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as { all: boolean; keys: string[] }) : null;
  }

  /**
   * A build from scratch writes its full-text rows without FTS5's incremental merging, then merges them
   * into one segment: the build does no merge work on the way, and every later query reads one segment
   * per term instead of about ten on the handbook (its rankers run ~30% faster; the scores are the same).
   * Merging stays off until finishBulkLoad, so a build killed on the way is finished by the next sync.
   */
  beginBulkLoad(): void {
    markBuildUnfinished(this.db);
    this.builderSeen = this.ownBuild = `${process.pid}@${Date.now()}`;
    this.s.setMeta.run(BULK_LOAD_PID, String(process.pid));
    this.s.setMeta.run(BULK_LOAD_SINCE, this.builderSeen);
    this.bulk = true;
  }

  /**
   * Whether this run ends the unfinished bulk load. Its own build, yes: the mark is set with the index's
   * emptying, so the run that set it last has written every note since. Another process's build is left to
   * it while it runs: a hook's one-note sync during a `tsm index --full` ended it (searches took the
   * half-built index for a whole one), and so did a `--full` that a second `--full` had emptied the index
   * under (2,927 of the handbook's 4,559 notes were in it). A stopped build (its process gone) is ended by
   * a run that listed the whole vault (`listedAll`) after it, so wrote every note the build did not get to:
   * a Stop hook's one-note sync ended one with 864 of 4,559 notes in the index.
   */
  mayEndBulkLoad(listedAll: boolean): boolean {
    const builder = this.builder();
    if (builder !== this.builderSeen) return false; // another build began (emptied the index) after this run
    if (builder !== null && builder === this.ownBuild) return true;
    const pid = builder === null ? null : lockPid(builder.split('@')[0]);
    const since = builder?.split('@')[1];
    // This process's pid, not this writer's build: an earlier run of this process that failed on the way (a
    // watcher's), or a dead build whose pid this process has now. Neither is building.
    if (pid === process.pid) return listedAll;
    return listedAll && (pid === null || !holderRuns(pid, since ? Number(since) : null));
  }

  /**
   * The mark's builder, `PID@SINCE` (meta bulk_load_since, when it names bulk_load_pid's pid; else `PID` alone: an older tsm's build),
   * or null: none, or an older tsm's build that did not record one.
   */
  private builder(): string | null {
    const pid = this.s.getMeta.get(BULK_LOAD_PID) as { value: string } | undefined;
    const since = this.s.getMeta.get(BULK_LOAD_SINCE) as { value: string } | undefined;
    if (pid === undefined) return null;
    return since !== undefined && since.value.startsWith(`${pid.value}@`) ? since.value : pid.value;
  }

  /** Whether a bulk load is unfinished: merging is still off (build-state.ts, which readers ask too). */
  bulkLoadUnfinished(): boolean {
    return buildUnfinished(this.db);
  }

  /** Merges each full-text index into one segment, turns incremental merging back on, fills cjk_df. */
  finishBulkLoad(): void {
    for (const t of FTS_TABLES) {
      this.db.prepare(`INSERT INTO ${t} (${t}) VALUES ('optimize')`).run();
      this.db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', ${FTS_AUTOMERGE})`).run();
    }
    this.cjkDf.refill();
    this.s.deleteMeta.run(WRITTEN_SINCE_MERGE);
    this.s.deleteMeta.run(BULK_LOAD_PID);
    this.s.deleteMeta.run(BULK_LOAD_SINCE);
    this.bulk = false;
  }

  /** Notes in the index. */
  noteCount(): number {
    return this.db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
  }

  /** Notes written since the full-text indexes were last merged into one segment (WRITTEN_SINCE_MERGE). */
  writtenSinceMerge(): number {
    const row = this.s.getMeta.get(WRITTEN_SINCE_MERGE) as { value: string } | undefined;
    return row === undefined ? 0 : Number(row.value) || 0;
  }

  /** Counts `n` more notes written (a sync's added, updated and removed), in the transaction that ends the sync. */
  countWritten(n: number): void {
    if (n > 0) this.s.setMeta.run(WRITTEN_SINCE_MERGE, String(this.writtenSinceMerge() + n));
  }

  /**
   * One step of merging each full-text index into one segment, writing about `pages` pages (FTS5's 'merge'
   * with a negative count: every segment is taken in, whatever its level): the rows a rewritten note's old
   * text left behind, and the delete marks that hide them, go. Returns whether it merged anything (FTS5's
   * own test: two changes or more); false once each index is one segment, which resets the count of notes
   * written since. It moves no row and changes no statistic, so no search result. Steps so the write lock is
   * let go between them (sync.ts mergeIfMuchWritten); one left half done is taken up by the next.
   */
  mergeFullTextStep(pages: number): boolean {
    let merged = false;
    const changes = this.db.prepare('SELECT total_changes()').pluck();
    for (const t of FTS_TABLES) {
      const before = changes.get() as number;
      this.db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('merge', ?)`).run(-Math.max(1, Math.floor(pages)));
      if ((changes.get() as number) - before >= 2) merged = true;
    }
    if (!merged) this.s.deleteMeta.run(WRITTEN_SINCE_MERGE);
    return merged;
  }

  /**
   * Removes every row (a `--full` rebuild), keeping the schema. The neural vectors are set aside first, by
   * what each section was embedded from (vector-carry.ts): `carryVectorsBack` returns them to the sections
   * the rebuild writes with the same input.
   */
  clearAll(): void {
    stashVectors(this.db);
    // The rebuild's notes get new ids (insertNote), so no old section id names a section of another note.
    this.s.raiseIdFloor.run();
    // Section ids are handed out again: a resident's nearest list made before names other sections now.
    newGeneration(this.db);
    this.db.exec(`INSERT INTO sections_fts (sections_fts) VALUES ('delete-all');
      INSERT INTO notes_fts (notes_fts) VALUES ('delete-all'); DELETE FROM cjk_df; DELETE FROM links; DELETE FROM sections; DELETE FROM note_tags;
      DELETE FROM note_aliases; DELETE FROM notes; DELETE FROM skipped_files; DELETE FROM warnings;`);
  }

  /**
   * After a sync that wrote every note of the vault: sections with the input of a vector set aside by a
   * rebuild (`clearAll`, or one killed on the way) get it back, and the rest is dropped. Returns how many.
   */
  carryVectorsBack(): number {
    return carryBack(this.db);
  }

  /**
   * After a partial sync: the notes it wrote get the vectors set aside for their sections' inputs (a note
   * renamed or moved within the batch); the rest wait for a later sync. Returns how many.
   */
  carryVectorsToWritten(): number {
    return carryBackTo(this.db, this.written);
  }

  /** Whether vectors wait to be given back, set aside by a rebuild or by removed notes (a cheap check before taking a write transaction). */
  hasCarriedVectors(): boolean {
    return hasCarriedVectors(this.db);
  }

  /**
   * Re-resolves links against the notes now in the index: every link when `keys` is null, else the
   * unresolved ones plus those whose target key is among `keys` (names and aliases of notes that appeared).
   */
  resolveLinks(keys: Set<string> | null): number {
    const lookup = this.buildLookup();
    const rows = (
      keys === null
        ? this.db.prepare('SELECT l.id, l.kind, l.target, l.target_id, n.path AS source FROM links l JOIN notes n ON n.id = l.source_id').all()
        : this.db
            .prepare(
              `SELECT l.id, l.kind, l.target, l.target_id, n.path AS source FROM links l JOIN notes n ON n.id = l.source_id
               WHERE l.target_id IS NULL OR l.target_key IN (SELECT value FROM json_each(?))`,
            )
            .all(JSON.stringify([...keys]))
    ) as { id: number; kind: 'wikilink'; target: string; target_id: number | null; source: string }[];
    const idByPath = new Map<string, number>();
    for (const r of this.db.prepare('SELECT id, path FROM notes').iterate() as Iterable<{ id: number; path: string }>) {
      idByPath.set(r.path, r.id);
    }
    const update = this.db.prepare('UPDATE links SET target_id = ? WHERE id = ?');
    let changed = 0;
    for (const r of rows) {
      const path = resolveLink(r.kind, r.target, r.source, lookup);
      const id = path === null ? null : (idByPath.get(path) ?? null);
      if (id !== r.target_id) {
        update.run(id, r.id);
        changed++;
      }
    }
    return changed;
  }

  private buildLookup(): NoteLookup {
    const paths = new Set<string>();
    const lower = new Map<string, string>();
    const byBase = new Map<string, string[]>();
    const byPage = new Map<string, string[]>();
    for (const r of this.db.prepare('SELECT path, basename FROM notes').iterate() as Iterable<{ path: string; basename: string }>) {
      paths.add(r.path);
      lower.set(r.path.toLowerCase(), r.path);
      const list = byBase.get(r.basename);
      if (list) list.push(r.path);
      else byBase.set(r.basename, [r.path]);
      const page = pageKeyOfPath(r.path, this.extensions);
      if (page !== null) byPage.set(page, [...(byPage.get(page) ?? []), r.path]);
    }
    const byAlias = new Map<string, string[]>();
    for (const r of this.db
      .prepare('SELECT a.alias, n.path FROM note_aliases a JOIN notes n ON n.id = a.note_id')
      .iterate() as Iterable<{ alias: string; path: string }>) {
      const list = byAlias.get(r.alias);
      if (list) list.push(r.path);
      else byAlias.set(r.alias, [r.path]);
    }
    return {
      hasPath: (p) => paths.has(p),
      byLowerPath: (p) => lower.get(p),
      byBasename: (k) => byBase.get(k) ?? [],
      byPageName: (k) => byPage.get(k) ?? [],
      byAlias: (a) => byAlias.get(a) ?? [],
      extensions: this.extensions,
    };
  }

  /** Removes a note's sections, full-text rows, tags, aliases and links; returns the aliases it had. */
  private clearNoteChildren(id: number): string[] {
    const note = this.s.pathAndAliases.get(id) as { path: string; title: string; aliases: string; tags: string; frontmatter: string } | undefined;
    // The index of paths names a note the table does not hold: damage (a -wal of another index laid over this
    // one, wal-check.ts), which sync.ts moves aside and rebuilds. It was a TypeError and a stack trace.
    if (note === undefined) throw damagedError(indexPathOf(this.db), `its notes table has no row ${id}, which its index of paths names`);
    const aliases = JSON.parse(note.aliases) as string[];
    const tags = JSON.parse(note.tags) as string[];
    const sections = this.s.sectionsOfNote.all(id) as { id: number; heading: string; headingPath: string; text: string }[];
    for (const row of ftsRows(note.path, aliases, tags, sections)) {
      this.s.deleteFts.run(sections[row.ord].id, row.head.words, row.body.words, row.head.cjk, row.body.cjk);
      if (!this.bulk) this.cjkDf.countRow(row.head.cjk, row.body.cjk, -1);
    }
    // The frontmatter as stored is the JSON copy the row was made from (ParsedNote.frontmatter is JSON-safe).
    const nf = noteFtsRow(note.path, note.title, aliases, tags, sections, JSON.parse(note.frontmatter) as Record<string, unknown>);
    this.s.deleteNoteFts.run(id, nf.name.words, nf.headings.words, nf.name.cjk, nf.headings.cjk);
    this.s.deleteSections.run(id);
    this.s.deleteTags.run(id);
    this.s.deleteAliases.run(id);
    this.s.deleteLinks.run(id);
    return aliases;
  }
}

const DATE_TITLE = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T00:00:00.000Z';
/**
 * Where a day an older tsm did not read may be (metadata.ts noteDate reads both in NFKC now): as Japanese notes
 * write it, or with full-width digits or separators (２０２６-０７-１８, 2026－07－18, 2026／07／18). In the path of a
 * note it dated by mtime; in a frontmatter date of one it did not date by frontmatter (a frontmatter date
 * outranks the file name's). Only a sieve, cheap in SQL: noteDate itself says whether the note is dated
 * otherwise now (fileStatesOf), or `1年生の月曜日.md`, `2024年/3月/日報.md` and `date: 2024年度` were read again at
 * every sync.
 */
const FULL_WIDTH_YMD = `'*${'[0-9０-９]'.repeat(4)}[-－]${'[0-9０-９]'.repeat(2)}[-－]${'[0-9０-９]'.repeat(2)}*'`;
const WRITTEN_DAY_SQL =
  `(date_source = 'mtime' AND (path GLOB '*[0-9０-９]年*月*日*' OR (path GLOB ${FULL_WIDTH_YMD} AND path GLOB '*[０-９－]*')))` +
  ` OR (date_source <> 'frontmatter' AND (${['date', 'updated', 'created'].map((k) => `json_extract(frontmatter, '$.${k}') GLOB '*[０-９年－／．]*'`).join(' OR ')}))`;

/**
 * What the index knows of every file: notes and skipped files (reads only: a reader's connection will do).
 * `dayFormats`: the vault's Obsidian daily-note formats, by which noteDate dates a note as its sync did (without
 * them, a note they date that holds `created: 2026年度` would be read again at every sync).
 */
export function fileStatesOf(db: Database, dayFormats: readonly DayFormat[]): Map<string, FileState> {
  const out = new Map<string, FileState>();
  // Written by an older reading (an older tsm, or one running beside this one since): read again, once.
  const older = olderReadingSql(db);
  // DATE_TITLE: a title an older tsm took from `title: 2024-01-02` in its ISO form (2024-01-02T00:00:00.000Z).
  const sql = `SELECT path, size, mtime_ms, ctime_ms, hash, section_count = 0 AS sectionless, title GLOB '${DATE_TITLE}' AS date_title,
    date_source, CASE WHEN (${WRITTEN_DAY_SQL}) THEN frontmatter END AS written_day_fm, ${older.column} FROM notes n ${older.join}`;
  for (const r of db.prepare(sql).iterate() as Iterable<{
    path: string;
    size: number;
    mtime_ms: number;
    ctime_ms: number;
    hash: string;
    sectionless: number;
    date_title: number;
    date_source: string;
    written_day_fm: string | null;
    older_reading: number;
  }>) {
    const state: FileState = { size: r.size, mtimeMs: r.mtime_ms, ctimeMs: r.ctime_ms, hash: r.hash, skipped: false };
    if (r.older_reading) state.reread = state.olderReading = true;
    // Written before every note had a section (an older tsm gave a note of frontmatter only none, so it was
    // never found): parse it again, once.
    if (r.sectionless) state.reread = true;
    // Titled by the ISO form of a YAML date (an older tsm): parse it again once, to be titled as written. A
    // note whose title is that very text in quotes is parsed again at each sync, a cost too small to track.
    if (r.date_title) state.reread = true;
    // Dated by its file's mtime (or name) though its name (or its date/updated/created) holds a day an older
    // tsm did not read (2026年7月18日, full-width digits or separators): parse it again, once. noteDate decides,
    // so a name or value that only looks like one (an impossible day, 月曜日) is not read again at every sync.
    if (r.written_day_fm !== null && noteDate(JSON.parse(r.written_day_fm) as Record<string, unknown>, r.path, r.mtime_ms, dayFormats).dateSource !== r.date_source) {
      state.reread = true;
    }
    out.set(r.path, state);
  }
  for (const r of db.prepare('SELECT path, size, mtime_ms, ctime_ms, reason IN (SELECT value FROM json_each(?)) AS binary FROM skipped_files').iterate(JSON.stringify(OLD_BINARY_REASONS)) as Iterable<{
    path: string;
    size: number;
    mtime_ms: number;
    ctime_ms: number;
    binary: number;
  }>) {
    const state: FileState = { size: r.size, mtimeMs: r.mtime_ms, ctimeMs: r.ctime_ms, hash: null, skipped: true };
    // Skipped as binary by an older tsm, which did not read UTF-16 (half NUL bytes) or UTF-32: read it again, once.
    if (r.binary) state.reread = true;
    out.set(r.path, state);
  }
  return out;
}

