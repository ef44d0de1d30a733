// The SQL of search: FTS5 rankers with filters, match counts, term document frequencies, hit details.
import type { NoteRecord, NoteType, SearchFilters, SectionRecord } from '../core/types.js';
import type { Statement } from 'better-sqlite3';
import type { Database } from './db.js';
import { noteOfSection, noteOfSectionSql, ordOfSection, sectionId } from './section-ids.js';
import { notDatedWithinSql } from './note-reader.js';
import { frontmatterDescription } from '../parse/metadata.js';
import { byPlace } from '../core/order.js';
import { excludedSet } from './excluded-sql.js';

export interface RankedSection {
  id: number;
  noteId: number;
  /** FTS5 bm25(): lower is better. */
  bm25: number;
  type: NoteType;
  status: string | null;
  date: string;
  dateSource: string;
  /** Note path and section order: the tie-break, so equal scores rank the same in every build (row ids differ). */
  path: string;
  ord: number;
}

/** A hit's section and its note, as the index knows them (core/types.ts), with what a hit shows besides. */
export interface HitDetails
  extends Pick<NoteRecord, 'path' | 'title' | 'type' | 'status' | 'date' | 'tags' | 'aliases' | 'frontmatter'>,
    Pick<SectionRecord, 'id' | 'noteId' | 'headingPath' | 'startLine' | 'endLine' | 'text'> {
  /** The note's frontmatter description (else summary), as the note-level row indexes it; '' for none. */
  description: string;
}

/** A section's text with where it stands. */
export interface SectionText {
  id: number;
  noteId: number;
  ord: number;
  /** The section's own heading ('' for a note's lead before any heading), and its level (0 for none). */
  heading: string;
  level: number;
  text: string;
}

type NoteFields = Pick<RankedSection, 'type' | 'status' | 'date' | 'dateSource' | 'path'> & { id: number };

/** The notes a search leaves out (Obsidian's Excluded files): their ids, and the same as JSON for SQL. */
interface Excluded {
  key: string;
  ids: Set<number>;
  json: string;
}

/** Column weights of bm25(): head_words, body_words, head_cjk, body_cjk. */
export type ColumnWeights = [number, number, number, number];

/** The queries of one search, in one read transaction (it keeps the note fields it has read). */
export class SectionSearch {
  private readonly cache = new Map<string, Statement>();
  /** Note fields read so far (null: a note without sections): the rankers of one search share most notes. */
  private readonly notes = new Map<number, NoteFields | null>();
  /** The notes Obsidian's Excluded files name (filters.excludedFiles), read once a search. */
  private excluded: Excluded | null = null;

  constructor(private readonly db: Database) {}

  /**
   * The notes `filters.excludedFiles` leaves out of the search (vault/obsidian-excluded.ts), by id. Every
   * note's path is tested once a search, in SQLite through a function (1.0 ms on the Obsidian Hub's 6,571
   * notes; reading the paths out to test them took 2.3–3.4 ms), and only in a vault with Excluded files;
   * the rankers then leave the ids out without a join (a join before the sort doubles a broad query's cost).
   */
  private excludedNotes(filters: SearchFilters): Excluded | null {
    const patterns = filters.excludedFiles;
    if (!patterns?.length) return null;
    const key = JSON.stringify(patterns);
    if (this.excluded?.key !== key) {
      const set = excludedSet(this.db, patterns); // before the statement that calls it is prepared
      const ids = this.stmt('SELECT id FROM notes WHERE tsm_excluded(path, ?)').pluck().all(set) as number[];
      this.excluded = { key, ids: new Set(ids), json: JSON.stringify(ids) };
    }
    return this.excluded.ids.size > 0 ? this.excluded : null;
  }

  /** The filters' WHERE parts (`user`: those of the user's filters, filterSql), the excluded notes among them. */
  private where(filters: SearchFilters, level: 'section' | 'note', user = filterSql(filters, level)): { where: string; params: unknown[] } {
    const { where, params } = user;
    const excluded = this.excludedNotes(filters);
    if (!excluded) return { where, params };
    return { where: `${where} AND n.id NOT IN (SELECT value FROM json_each(?))`, params: [...params, excluded.json] };
  }

  /**
   * A join-free ranking (topRows) without the excluded notes' rows: read as before and dropped, so a ranker
   * hands fusion fewer than `limit` rows by as many as they took. Read deeper (from the start: FTS5 has no
   * offset worth having) only when they took more than half: each read costs a broad query 4–18 ms on the
   * Obsidian Hub, and reading as many more as the excluded notes' sections added 20–30 ms a search there
   * (templates folder excluded) to move only the tail of the rankers' 300.
   */
  private rankedWithout<R extends { id: number; bm25: number }>(
    sql: string,
    match: string,
    limit: number,
    filters: SearchFilters,
    rows: (top: R[]) => { id: number; noteId: number; ord: number; bm25: number }[],
  ): RankedSection[] {
    const excluded = this.excludedNotes(filters);
    for (let depth = limit; ; depth *= 2) {
      const top = this.topRows<R>(sql, match, depth);
      const kept = excluded ? rows(top).filter((r) => !excluded.ids.has(r.noteId)) : rows(top);
      const ranked = this.withNoteFields(kept);
      if (!excluded || ranked.length >= limit / 2 || top.length < depth) return ranked.slice(0, limit);
    }
  }

  /** Sections matching an FTS5 expression, best first, with the note fields ranking needs. */
  rank(match: string, weights: ColumnWeights, filters: SearchFilters, limit: number): RankedSection[] {
    const bm25 = `bm25(sections_fts, ${weights.join(', ')})`;
    const user = filterSql(filters, 'section');
    if (user.where) {
      const all = this.where(filters, 'section', user);
      return this.stmt(
        `SELECT f.rowid AS id, n.id AS noteId, ${bm25} AS bm25, n.type AS type, n.status AS status, n.date AS date,
          n.date_source AS dateSource, n.path AS path, f.rowid - n.id * ${sectionId(1, 0)} AS ord
        FROM sections_fts f JOIN notes n ON n.id = ${noteOfSectionSql('f.rowid')}
        WHERE sections_fts MATCH ?${all.where} ORDER BY bm25, n.path, ord LIMIT ?`,
      ).all(match, ...all.params, limit) as RankedSection[];
    }
    return this.rankedWithout(`SELECT rowid AS id, ${bm25} AS bm25 FROM sections_fts WHERE sections_fts MATCH ? ORDER BY bm25 LIMIT ?`, match, limit, filters, (top) =>
      top.map((t) => ({ id: t.id, noteId: noteOfSection(t.id), ord: ordOfSection(t.id), bm25: t.bm25 })),
    );
  }

  /**
   * Notes matching an FTS5 expression over their own row (name and headings), best first; each stands
   * for its first section (`id`), which is how fusion meets it. A rewritten note's sections start past
   * its old ones (note-writer.ts nextSectionBase): the first is the note's lowest section id.
   */
  rankNotes(match: string, weights: ColumnWeights, filters: SearchFilters, limit: number): RankedSection[] {
    const bm25 = `bm25(notes_fts, ${weights.join(', ')})`;
    const user = filterSql(filters, 'note');
    if (user.where) {
      const all = this.where(filters, 'note', user);
      return this.stmt(
        `SELECT (SELECT min(s.id) FROM sections s WHERE s.note_id = n.id) AS id, n.id AS noteId, ${bm25} AS bm25,
          n.type AS type, n.status AS status, n.date AS date, n.date_source AS dateSource, n.path AS path, 0 AS ord
        FROM notes_fts f JOIN notes n ON n.id = f.rowid
        WHERE notes_fts MATCH ? AND n.section_count > 0${all.where} ORDER BY bm25, n.path LIMIT ?`,
      ).all(match, ...all.params, limit) as RankedSection[];
    }
    // Each kept note's first section (its lowest ord, so its lowest id: section-ids.ts) is one seek into
    // the index sections_note, asked in the same statement. A second query (min(id) of every section of
    // each note) cost ~1 ms more in a fresh process; seeking the sections table by id range instead reads
    // its large leaf pages and cost more again.
    return this.rankedWithout<{ id: number; bm25: number; first: number | null }>(
      `SELECT t.id AS id, t.bm25 AS bm25, (SELECT s.id FROM sections s WHERE s.note_id = t.id ORDER BY s.ord LIMIT 1) AS first
       FROM (SELECT rowid AS id, ${bm25} AS bm25 FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25 LIMIT ?) t ORDER BY t.bm25`,
      match,
      limit,
      filters,
      (top) => top.flatMap((t) => (t.first === null ? [] : [{ id: t.first, noteId: t.id, ord: 0, bm25: t.bm25 }])),
    );
  }

  /**
   * The best rows of a join-free FTS query (rowid, bm25), cut at `limit` without splitting a bm25 tie.
   * Joining every match before the sort doubles the cost of a broad query, so ranking reads the FTS table
   * alone and only the rows kept are joined. FTS5 orders ties by row id, which differs between builds: one
   * row more than asked shows whether the cut falls inside a tie, and then the whole tie is kept (read
   * deeper if needed) for withNoteFields to order by path and section, the same in every build.
   */
  private topRows<R extends { id: number; bm25: number } = { id: number; bm25: number }>(sql: string, match: string, limit: number): R[] {
    let depth = limit;
    for (;;) {
      const top = this.stmt(sql).all(match, depth + 1) as R[];
      if (top.length > depth && top[depth].bm25 === top[depth - 1].bm25) {
        depth *= 4;
        continue;
      }
      const cutBm25 = top.length >= limit ? top[limit - 1].bm25 : Infinity;
      return top.filter((t) => t.bm25 <= cutBm25);
    }
  }

  /**
   * Ranked rows (in bm25 order, as topRows gives them) with their notes' fields, best first, ties by path
   * and section order. Rows of notes without sections (or gone) are dropped.
   */
  private withNoteFields(rows: { id: number; noteId: number; ord: number; bm25: number }[]): RankedSection[] {
    if (rows.length === 0) return [];
    const missing = [...new Set(rows.map((r) => r.noteId))].filter((id) => !this.notes.has(id));
    if (missing.length) {
      // From the index notes_rank alone (schema.ts NOTES_RANK_SQL): ~3× fewer pages than the notes' rows.
      const found = this.stmt(
        `SELECT id, type, status, date, date_source AS dateSource, path FROM notes INDEXED BY notes_rank
         WHERE id IN (SELECT value FROM json_each(?)) AND section_count > 0`,
      ).all(JSON.stringify(missing)) as NoteFields[];
      for (const id of missing) this.notes.set(id, null);
      for (const n of found) this.notes.set(n.id, n);
    }
    const out: RankedSection[] = [];
    for (const r of rows) {
      const n = this.notes.get(r.noteId);
      if (n) out.push({ id: r.id, noteId: r.noteId, bm25: r.bm25, type: n.type, status: n.status, date: n.date, dateSource: n.dateSource, path: n.path, ord: r.ord });
    }
    // Only the ties need ordering: sorting all ~300 rows by bm25 again cost a search ~0.3 ms in cold code.
    for (let i = 0; i < out.length; ) {
      let j = i + 1;
      while (j < out.length && out[j].bm25 === out[i].bm25) j++;
      // Copied back one by one: spread into splice's arguments, a tie of 200,000 sections (20 notes of
      // 10,000 `# a` headings) overflowed the stack, which holds about 125,000 arguments.
      if (j - i > 1) out.slice(i, j).sort(byPlace).forEach((r, k) => (out[i + k] = r));
      i = j;
    }
    return out;
  }

  /**
   * These sections (found by other means than FTS5: the neural ranker's vectors) with the note fields
   * ranking needs, those passing the filters only, in the order given. An id the index no longer holds (a
   * resident's copy of the vectors can be seconds old) is left out.
   */
  rankIds(ids: number[], filters: SearchFilters): RankedSection[] {
    if (ids.length === 0) return [];
    const { where, params } = this.where(filters, 'section');
    const rows = this.stmt(
      `SELECT f.rowid AS id, n.id AS noteId, 0 AS bm25, n.type AS type, n.status AS status, n.date AS date,
        n.date_source AS dateSource, n.path AS path, f.rowid - n.id * ${sectionId(1, 0)} AS ord
       FROM (SELECT value AS rowid FROM json_each(?)) f JOIN notes n ON n.id = ${noteOfSectionSql('f.rowid')}
       WHERE n.section_count > 0 AND EXISTS (SELECT 1 FROM sections s WHERE s.id = f.rowid)${where}`,
    ).all(JSON.stringify(ids), ...params) as RankedSection[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Links out of these notes that resolve to another note with sections: per link, the note and section
   * it is written in and the note it points to (embeds and attachments aside: they resolve to no note).
   * Each target's section count is read from notes_rank, not its row: 1.2 → 0.7 ms for the links of the
   * first 10 notes of a handbook search, in a fresh process.
   */
  outLinks(noteIds: number[]): { noteId: number; sectionId: number | null; targetId: number }[] {
    if (noteIds.length === 0) return [];
    return this.stmt(
      `SELECT l.source_id AS noteId, l.section_id AS sectionId, l.target_id AS targetId
       FROM links l JOIN notes t INDEXED BY notes_rank ON t.id = l.target_id
       WHERE l.source_id IN (SELECT value FROM json_each(?)) AND l.target_id <> l.source_id AND t.section_count > 0
       ORDER BY l.source_id, l.id`,
    ).all(JSON.stringify(noteIds)) as { noteId: number; sectionId: number | null; targetId: number }[];
  }

  /** These sections with their text, for choosing which one to show. */
  sectionTexts(ids: number[]): SectionText[] {
    return this.textsWhere('id', ids);
  }

  /** The sections of these notes with their text, for choosing which one to show. */
  sectionsOfNotes(noteIds: number[]): SectionText[] {
    return this.textsWhere('note_id', noteIds);
  }

  private textsWhere(column: 'id' | 'note_id', values: number[]): SectionText[] {
    if (values.length === 0) return [];
    return this.stmt(
      `SELECT id, note_id AS noteId, ord, heading, level, text FROM sections WHERE ${column} IN (SELECT value FROM json_each(?)) ORDER BY note_id, ord`,
    ).all(JSON.stringify(values)) as SectionText[];
  }

  /** How many distinct notes (or sections) match, after filters. */
  /**
   * The notes the filters let through (a date range read from the query among them), newest first, at most
   * `limit`, each with its first section that has text (a daily note's H1 has none: shown, it said only the
   * date), and how many there are: a query that names only dates lists them (search.ts datedNotes).
   */
  notesByDate(filters: SearchFilters, limit: number): { list: RankedSection[]; total: number } {
    const { where, params } = this.where(filters, 'note');
    const list = this.stmt(
      `SELECT (SELECT s.id FROM sections s WHERE s.note_id = n.id ORDER BY s.text = '', s.ord LIMIT 1) AS id, n.id AS noteId, 0 AS bm25, n.type AS type,
        n.status AS status, n.date AS date, n.date_source AS dateSource, n.path AS path, 0 AS ord
       FROM notes n WHERE n.section_count > 0${where} ORDER BY n.date DESC, n.path LIMIT ?`,
    ).all(...params, limit) as RankedSection[];
    const total = this.stmt(`SELECT count(*) FROM notes n WHERE n.section_count > 0${where}`).pluck().get(...params) as number;
    return { list, total };
  }

  count(match: string, filters: SearchFilters, perNote: boolean): number {
    const user = filterSql(filters, 'section');
    const what = perNote ? `count(DISTINCT ${noteOfSectionSql('f.rowid')})` : 'count(*)';
    if (user.where) {
      const all = this.where(filters, 'section', user);
      return this.stmt(`SELECT ${what} FROM sections_fts f JOIN notes n ON n.id = ${noteOfSectionSql('f.rowid')} WHERE sections_fts MATCH ?${all.where}`)
        .pluck()
        .get(match, ...all.params) as number;
    }
    // Without a join: a section's note is its row id's (section-ids.ts).
    const excluded = this.excludedNotes(filters);
    if (!excluded) return this.stmt(`SELECT ${what} FROM sections_fts f WHERE sections_fts MATCH ?`).pluck().get(match) as number;
    return this.stmt(`SELECT ${what} FROM sections_fts f WHERE sections_fts MATCH ? AND ${noteOfSectionSql('f.rowid')} NOT IN (SELECT value FROM json_each(?))`)
      .pluck()
      .get(match, excluded.json) as number;
  }

  /**
   * Number of sections holding each term (as indexed, any column): the CJK columns' bigrams from cjk_df,
   * words from the FTS vocabulary.
   */
  docFrequencies(words: string[], cjk: string[]): Map<string, number> {
    const out = new Map<string, number>();
    const read = (sql: string, terms: string[]) => {
      if (terms.length === 0) return;
      for (const r of this.stmt(sql).all(JSON.stringify(terms)) as { term: string; doc: number }[]) out.set(r.term, r.doc);
    };
    read('SELECT term, doc FROM sections_vocab WHERE term IN (SELECT value FROM json_each(?))', words);
    read('SELECT term, doc FROM cjk_df WHERE term IN (SELECT value FROM json_each(?))', cjk);
    return out;
  }

  /**
   * Rows of the section FTS index: what docFrequencies are shares of, and the N of bm25()'s IDF. Read from
   * FTS5's averages record (row 1 of its data table: a varint row count, then column totals), one page,
   * where count(*) walks an index of every section on each search; counted when the record is unreadable.
   */
  indexedSections(): number {
    const block = this.stmt('SELECT block FROM sections_fts_data WHERE id = 1').pluck().get() as Uint8Array | undefined;
    const n = block ? readVarint(block) : null;
    return n ?? (this.stmt('SELECT count(*) FROM sections_fts').pluck().get() as number);
  }

  details(ids: number[]): Map<number, HitDetails> {
    const rows = this.stmt(
      `SELECT s.id, s.note_id AS noteId, n.path, n.title, n.type, n.status, n.date, n.tags, n.aliases, n.frontmatter,
        s.heading_path AS headingPath, s.start_line AS startLine, s.end_line AS endLine, s.text
       FROM sections s JOIN notes n ON n.id = s.note_id WHERE s.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as (Omit<HitDetails, 'tags' | 'aliases' | 'frontmatter' | 'description'> & { tags: string; aliases: string; frontmatter: string })[];
    return new Map(
      rows.map((r) => {
        const frontmatter = JSON.parse(r.frontmatter) as Record<string, unknown>;
        const details = { ...r, tags: JSON.parse(r.tags) as string[], aliases: JSON.parse(r.aliases) as string[], frontmatter };
        return [r.id, { ...details, description: frontmatterDescription(frontmatter) }];
      }),
    );
  }

  /** Titles and aliases of these notes: what the named-note refinement compares with the query. */
  /**
   * The notes that may be named by a query (the named-note lookup): those whose name columns match an FTS5
   * expression (the query as a phrase) and whose title is at most `maxTitleChars` long, at most `limit` of
   * them, and those with an alias equal to `alias` (aliases are stored normalised). Their names are then
   * compared exactly (search.ts boostNamedNotes). The title's length, not bm25, picks them: a name column
   * holds path words and tags too, and in the handbook 570 names start with `gitlab`; the notes titled
   * `GitLab` were not among the 20 best by bm25.
   */
  notesByName(match: string, maxTitleChars: number, alias: string, limit: number): number[] {
    return this.stmt(
      `SELECT n.id FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? AND length(n.title) <= ?
       UNION SELECT note_id FROM note_aliases WHERE alias = ? LIMIT ?`,
    )
      .pluck()
      .all(match, maxTitleChars, alias, limit) as number[];
  }

  noteNames(noteIds: number[]): Map<number, { title: string; aliases: string[] }> {
    const rows = this.stmt('SELECT id, title, aliases FROM notes WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(noteIds)) as {
      id: number;
      title: string;
      aliases: string;
    }[];
    return new Map(rows.map((r) => [r.id, { title: r.title, aliases: JSON.parse(r.aliases) as string[] }]));
  }

  private stmt(sql: string): Statement<unknown[]> {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }
}

/**
 * The WHERE parts of a search's filters, over `n` (notes) and, at section level, `f` (sections_fts).
 * `level` says what a ranked row is: a section must itself hold a required phrase; a note (ranked by its
 * title and headings) must hold it in one of its sections.
 */
function filterSql(f: SearchFilters, level: 'section' | 'note'): { where: string; params: unknown[] } {
  const { parts, params } = filterParts(f, level);
  return { where: parts.length ? ` AND ${parts.join(' AND ')}` : '', params };
}

function filterParts(f: SearchFilters, level: 'section' | 'note'): { parts: string[]; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.types?.length) {
    parts.push('n.type IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.types));
  }
  if (f.statuses?.length) {
    parts.push('n.status IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(f.statuses));
  }
  if (f.tags?.length) {
    // Nested tags, as Obsidian has them: `project` matches `project` and `project/alpha`, not `projects`.
    parts.push(`n.id IN (SELECT t.note_id FROM note_tags t, json_each(?) w
      WHERE t.tag = w.value OR substr(t.tag, 1, length(w.value) + 1) = w.value || '/')`);
    params.push(JSON.stringify(f.tags));
  }
  if (f.pathPrefixes?.length && f.pathPrefixes.length <= MAX_INLINE_PREFIXES) {
    parts.push(anyOf(f.pathPrefixes.map(() => 'substr(n.path, 1, length(?)) = ?')));
    for (const p of f.pathPrefixes) params.push(p, p);
  } else if (f.pathPrefixes?.length) {
    parts.push('EXISTS (SELECT 1 FROM json_each(?) w WHERE substr(n.path, 1, length(w.value)) = w.value)');
    params.push(JSON.stringify(f.pathPrefixes));
  }
  if (f.after) {
    parts.push('n.date >= ?');
    params.push(f.after);
  }
  if (f.before) {
    parts.push('n.date < ?');
    params.push(f.before);
  }
  if (f.crowd && (f.after || f.before)) {
    parts.push(notDatedWithinSql('n'));
    params.push(f.crowd.from, f.crowd.to);
  }
  // The unary `+` keeps each `IN (subquery)` a filter, evaluated once: as a bare column, SQLite's planner
  // could drive the query from the subquery's rows and run the outer MATCH once per row (`"GitLab"` on the
  // handbook, 4,000 sections: 32 s; `GitLab OR チーム` 3 minutes).
  const required = f.sectionMatches ?? [];
  if (level === 'section' && required.length) {
    // One MATCH for every required group: the section must hold each. (One subquery a group stopped
    // SQLite's planner at 16 of them: "unable to use function MATCH in the requested context".)
    parts.push('+f.rowid IN (SELECT rowid FROM sections_fts WHERE sections_fts MATCH ?)');
    params.push(required.length === 1 ? required[0] : required.map((m) => `(${m})`).join(' AND '));
  } else {
    // A note needs each group in one of its sections, not all in one.
    for (const m of required) {
      parts.push(`+n.id IN (SELECT ${noteOfSectionSql('rowid')} FROM sections_fts WHERE sections_fts MATCH ?)`);
      params.push(m);
    }
  }
  if (f.excludeMatch) {
    parts.push(`n.id NOT IN (SELECT ${noteOfSectionSql('rowid')} FROM sections_fts WHERE sections_fts MATCH ?)`);
    params.push(f.excludeMatch);
  }
  if (f.also) {
    const sub = filterParts(f.also, level);
    parts.push(...sub.parts);
    params.push(...sub.params);
  }
  return { parts, params };
}

/**
 * Up to this many path prefixes are bound one by one (two parameters each, an OR nested by anyOf); more are
 * one JSON value read in a subquery. SQLite binds at most 32,766 parameters a statement: 16,384 `path:`
 * filters (argv holds them; an MCP `paths` array too) failed the search with "too many SQL variables", told
 * as a bug in tsm.
 */
const MAX_INLINE_PREFIXES = 64;

/**
 * `a OR b OR …` nested in halves, `((a OR b) OR (c OR d))`: SQLite parses a flat OR of n terms n deep, and
 * 1,000 `path:` filters passed its expression depth (1,000): the search failed as "a bug in tsm". Halves
 * keep the depth at log2(n) and the statement as it was; the prefixes as one JSON value read in a subquery,
 * as the tags are, made a search of the Obsidian Hub with one `--path` 3 to 6 ms slower (of 14 to 16 ms).
 */
function anyOf(terms: string[]): string {
  if (terms.length === 1) return terms[0];
  const half = Math.ceil(terms.length / 2);
  return `(${anyOf(terms.slice(0, half))} OR ${anyOf(terms.slice(half))})`;
}

/** An SQLite/FTS5 varint (big-endian, 7 bits a byte, a full 9th byte) from the start of `buf`; null if cut short. */
export function readVarint(buf: Uint8Array): number | null {
  let v = 0;
  for (let i = 0; i < 9; i++) {
    if (i >= buf.length) return null;
    const byte = buf[i];
    if (i === 8) return v * 256 + byte;
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return v;
  }
  return null;
}
