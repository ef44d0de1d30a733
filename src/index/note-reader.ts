// Reads of notes, sections, links and index health (status, doctor, related, MCP details).
import { statSync } from 'node:fs';
import type { IndexStatus, IndexWarning, LinkRecord, NoteRecord, NoteType, SectionRecord, SkippedFile } from '../core/types.js';
import { quickCheck, type Database } from './db.js';
import { AmbiguousNoteError } from '../core/errors.js';
import { isNoteName } from '../vault/paths.js';
import { aliasKey, basenameKey, resolveAttachment, resolveLink, targetKey, type NoteLookup } from './resolve-link.js';

/** A link that names no note is unresolved unless it names an attachment (an image, a PDF, a canvas). */
const NOT_ATTACHMENT = 'NOT EXISTS (SELECT 1 FROM attachments a WHERE a.key = l.target_key)';
/**
 * The files an unresolved link's name may be (its target key), as a JSON array: resolveAttachment picks the
 * one it names as a note is picked (Obsidian's rule). Picked in SQL, `./y.png` was the root's y.png (the
 * exact path was tried first) and `../img/x.png` the shortest x.png (no `../` was walked up).
 */
const ATTACHMENT_PATHS = `CASE WHEN l.target_id IS NULL THEN (SELECT json_group_array(a.path) FROM attachments a WHERE a.key = l.target_key) END`;
import { SCHEMA_VERSION } from './schema.js';
import { excludedSet } from './excluded-sql.js';

/** A page a site builds from a note: `strategy.html`. */
const PAGE = /\.html?$/i;

interface NoteRow {
  id: number;
  path: string;
  title: string;
  type: NoteType;
  status: string | null;
  date: string;
  tags: string;
  aliases: string;
  frontmatter: string;
  size: number;
  mtime_ms: number;
}

interface SectionRow {
  id: number;
  note_id: number;
  ord: number;
  heading: string;
  level: number;
  heading_path: string;
  start_line: number;
  end_line: number;
  text: string;
}

/** A title as a name the user types: NFC, lower case (Unicode, not only ASCII). */
function nameKey(title: string): string {
  return title.normalize('NFC').toLowerCase();
}

export function toNote(r: NoteRow): NoteRecord {
  return {
    id: r.id,
    path: r.path,
    title: r.title,
    type: r.type,
    status: r.status,
    date: r.date,
    tags: JSON.parse(r.tags) as string[],
    aliases: JSON.parse(r.aliases) as string[],
    frontmatter: JSON.parse(r.frontmatter) as Record<string, unknown>,
    size: r.size,
    mtimeMs: r.mtime_ms,
  };
}

export function toSection(r: SectionRow): SectionRecord {
  return {
    id: r.id,
    noteId: r.note_id,
    ord: r.ord,
    heading: r.heading,
    level: r.level,
    headingPath: r.heading_path,
    startLine: r.start_line,
    endLine: r.end_line,
    text: r.text,
  };
}

const NOTE_COLUMNS = 'id, path, title, type, status, date, tags, aliases, frontmatter, size, mtime_ms';

/** The span by which mtimeSpans counts notes: a checkout or a copy writes thousands of files within it. */
export const MTIME_SPAN_MS = 10 * 60 * 1000;

/**
 * The WHERE part that leaves out a note dated only by a modification time in a span (two parameters: its first
 * and last ms; search/mtime-crowd.ts). `n`: the notes table's alias, or '' for the table itself.
 */
export function notDatedWithinSql(n: string): string {
  const col = (c: string) => (n ? `${n}.${c}` : c);
  return `NOT (${col('date_source')} = 'mtime' AND ${col('mtime_ms')} BETWEEN ? AND ?)`;
}

export class NoteReader {
  constructor(
    readonly db: Database,
    /** The index file, for its size in status(); not needed for queries. */
    private readonly dbPath = '',
  ) {}

  noteByPath(path: string): NoteRecord | null {
    const r = this.db.prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE path = ?`).get(path) as NoteRow | undefined;
    return r ? toNote(r) : null;
  }

  /** The note at `path` with a note extension added (`knowledge/lora` → `knowledge/lora.md`), in their order. */
  noteByPathWithout(path: string, extensions: readonly string[]): NoteRecord | null {
    for (const ext of extensions) {
      const note = this.noteByPath(`${path}${ext}`);
      if (note) return note;
    }
    return null;
  }

  notesByIds(ids: number[]): Map<number, NoteRecord> {
    const rows = this.db
      .prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(ids)) as NoteRow[];
    return new Map(rows.map((r) => [r.id, toNote(r)]));
  }

  /**
   * Finds a note by vault path, path without extension, or file name / title / alias. Names compare as the user
   * reads them: in NFC (a title typed on macOS may be stored decomposed, or the other way round) and
   * case-insensitively beyond ASCII (`über straße` is `Über Straße`), which SQLite's lower() is not: so
   * file names go by their stored key (basenameKey: NFKC, lower case) and titles are compared here, over
   * the (id, title) column pairs only. A file name wins over a title, a title over an alias (which tsm
   * resolves links by too: `[[Sync Icon]]`, `getting-started/sync-your-notes-across-devices`, as the
   * Obsidian Help keeps old names); a name that fits several notes (of
   * the same kind) throws AmbiguousNoteError listing them: picking one would answer about a note the user
   * did not mean.
   */
  findNote(ref: string, extensions: readonly string[]): NoteRecord | null {
    const exact = this.noteByPath(ref) ?? this.noteByPathWithout(ref, extensions);
    if (exact) return exact;
    // A file name before a title, as Obsidian resolves [[name]]: a note named `foo.md` is what `foo` names,
    // even when another note is titled `Foo`.
    const byFile = (this.db.prepare('SELECT id FROM notes WHERE basename = ?').all(basenameKey(ref, extensions)) as { id: number }[]).map((r) => r.id);
    const wanted = nameKey(ref);
    let ids = byFile.length
      ? byFile
      : (this.db.prepare('SELECT id, title FROM notes').all() as { id: number; title: string }[]).filter((r) => nameKey(r.title) === wanted).map((r) => r.id);
    if (ids.length === 0) {
      ids = (this.db.prepare('SELECT note_id FROM note_aliases WHERE alias = ?').all(aliasKey(ref, extensions)) as { note_id: number }[]).map((r) => r.note_id);
    }
    if (ids.length === 0) return null;
    const notes = [...this.notesByIds(ids).values()].sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
    if (notes.length > 1) throw new AmbiguousNoteError(ref, notes.map((n) => n.path));
    return notes[0];
  }

  sectionsByIds(ids: number[]): SectionRecord[] {
    const rows = this.db
      .prepare(
        'SELECT id, note_id, ord, heading, level, heading_path, start_line, end_line, text FROM sections WHERE id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify(ids)) as SectionRow[];
    return rows.map(toSection);
  }

  sectionsOfNote(noteId: number): SectionRecord[] {
    const rows = this.db
      .prepare('SELECT id, note_id, ord, heading, level, heading_path, start_line, end_line, text FROM sections WHERE note_id = ? ORDER BY ord')
      .all(noteId) as SectionRow[];
    return rows.map(toSection);
  }

  /**
   * The daily notes just before and after `date`. `excluded`: Obsidian's Excluded files, left out as
   * searches and recentNotes leave them out (an archived day or a dated daily template was a neighbour).
   */
  neighbourDays(date: string, before: number, after: number, excluded: readonly string[] = []): { before: NoteRecord[]; after: NoteRecord[] } {
    const notExcluded = excluded.length ? ' AND NOT tsm_excluded(path, ?)' : '';
    const set = excluded.length ? [excludedSet(this.db, excluded)] : [];
    const b = this.db
      .prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE type = 'daily' AND date < ?${notExcluded} ORDER BY date DESC LIMIT ?`)
      .all(date, ...set, before) as NoteRow[];
    const a = this.db
      .prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE type = 'daily' AND date > ?${notExcluded} ORDER BY date ASC LIMIT ?`)
      .all(date, ...set, after) as NoteRow[];
    return { before: b.reverse().map(toNote), after: a.map(toNote) };
  }

  /**
   * The newest notes (of a type) dated before `before` (search/dates.ts recentBefore: a note dated ahead is
   * no recent work), by date (SessionStart context, MCP recent_context). `undated`: modification
   * times (ms, inclusive) that date no note (search/mtime-crowd.ts): a note dated only by one of them is left
   * out. `excluded`: Obsidian's Excluded files (vault/obsidian-excluded.ts), whose notes are left out as
   * searches leave them out: a template edited today was SessionStart's recent work, its `{{date}}`
   * placeholders the model's context. A day's session notes go by when they ended (tsm writes `ended` as a
   * moment), then by modification time: by that alone, a vault synced or pulled from another machine (every
   * file written at the pull) gave SessionStart the intents of whichever 20 of a day's 30 sessions came last.
   */
  recentNotes(limit: number, before: string, type?: NoteType, undated?: { from: number; to: number }, excluded: readonly string[] = []): NoteRecord[] {
    const where = ['date < ?', type ? 'type = ?' : '', undated ? notDatedWithinSql('') : '', excluded.length ? 'NOT tsm_excluded(path, ?)' : ''].filter(Boolean);
    const params = [before, ...(type ? [type] : []), ...(undated ? [undated.from, undated.to] : []), ...(excluded.length ? [excludedSet(this.db, excluded)] : []), limit];
    const ended = type === 'session' ? ", json_extract(frontmatter, '$.ended') DESC" : '';
    const rows = this.db
      .prepare(`SELECT ${NOTE_COLUMNS} FROM notes${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY date DESC${ended}, mtime_ms DESC, path LIMIT ?`)
      .all(...params) as NoteRow[];
    return rows.map(toNote);
  }

  /**
   * Notes dated only by their modification time, counted by 10-minute span (the two fullest spans, fullest
   * first, with their first and last mtime), and all notes: for search/mtime-crowd.ts. A scan of the notes
   * table, ~3.4 ms in a fresh process on the Obsidian Hub's 6,571 notes.
   */
  mtimeSpans(): { spans: { span: number; notes: number; from: number; to: number }[]; allNotes: number } {
    const spans = this.db
      .prepare(
        `SELECT mtime_ms / ${MTIME_SPAN_MS} AS span, count(*) AS notes, min(mtime_ms) AS "from", max(mtime_ms) AS "to"
         FROM notes WHERE date_source = 'mtime' GROUP BY span ORDER BY notes DESC, span LIMIT 2`,
      )
      .all() as { span: number; notes: number; from: number; to: number }[];
    const allNotes = this.db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
    return { spans, allNotes };
  }

  /** Every note's path, in path order (tsm doctor's list of conflicted copies: ~5 ms for 4,559 notes). */
  notePaths(): string[] {
    return this.db.prepare('SELECT path FROM notes ORDER BY path').pluck().all() as string[];
  }

  /**
   * The paths of the notes under a path prefix, as the search's path filter compares them (section-search.ts:
   * the path's first characters, case and all), at most `limit`, in path order.
   */
  notePathsUnder(prefix: string, limit: number): string[] {
    return this.db.prepare('SELECT path FROM notes WHERE substr(path, 1, length(?)) = ? ORDER BY path LIMIT ?').pluck().all(prefix, prefix, limit) as string[];
  }

  /** Session notes whose frontmatter session_id starts with `id`. */
  sessionNotes(id: string): NoteRecord[] {
    const rows = this.db
      .prepare(
        `SELECT ${NOTE_COLUMNS} FROM notes WHERE type = 'session' AND json_extract(frontmatter, '$.session_id') LIKE ? ESCAPE '\\' ORDER BY date`,
      )
      .all(id.replace(/[\\%_]/g, (c) => `\\${c}`) + '%') as NoteRow[];
    return rows.map(toNote);
  }

  /** Distinct working directories of session notes (MCP file_history turns absolute paths into cwd-relative ones). */
  sessionCwds(): string[] {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT json_extract(frontmatter, '$.cwd') AS cwd FROM notes
         WHERE type = 'session' AND json_type(frontmatter, '$.cwd') = 'text'`,
      )
      .all() as { cwd: string }[];
    return rows.map((r) => r.cwd);
  }

  /**
   * Notes whose frontmatter lists `file` (or a path ending in `/file`) among files read/edited, or whose text
   * mentions it. The suffix is compared exactly, not by LIKE: `_` and `%` in a file name were wildcards, and
   * 25 newer sessions of `src/myXmodule.py` took every row fetched for `my_module.py`. `excluded`: Obsidian's
   * Excluded files, left out here rather than after the limit, so newer excluded notes take no row.
   */
  notesTouchingFile(file: string, limit: number, excluded: readonly string[] = []): { note: NoteRecord; how: 'read' | 'edited' | 'mentioned' }[] {
    const listed = `value = ?1 OR substr(value, -length(?1) - 1) = '/' || ?1`;
    const set = excluded.length ? { 3: excludedSet(this.db, excluded) } : {};
    const rows = this.db
      .prepare(
        `SELECT ${NOTE_COLUMNS},
           EXISTS (SELECT 1 FROM json_each(json_extract(frontmatter, '$.files_edited')) WHERE ${listed}) AS edited,
           EXISTS (SELECT 1 FROM json_each(json_extract(frontmatter, '$.files_read')) WHERE ${listed}) AS read
         FROM notes WHERE (edited OR read
           OR id IN (SELECT note_id FROM sections WHERE instr(text, ?1) > 0))${excluded.length ? ' AND NOT tsm_excluded(path, ?3)' : ''}
         ORDER BY date DESC LIMIT ?2`,
      )
      // better-sqlite3 binds numbered parameters (?1, ?2) by name, from an object.
      .all({ 1: file, 2: limit, ...set }) as (NoteRow & { edited: number; read: number })[];
    return rows.map((r) => ({ note: toNote(r), how: r.edited ? 'edited' : r.read ? 'read' : 'mentioned' }));
  }

  /**
   * The note's links to other notes and files (resolved or not): a link to its own headings or blocks
   * (`[[#Heading]]`) is no neighbour, as Obsidian's Outgoing links pane has it and backlinks() below.
   * `extensions` (the vault's note extensions) tell which skipped files a link can name.
   */
  outgoingLinks(noteId: number, extensions: string[]): LinkRecord[] {
    return this.withSkipped(
      extensions,
      this.linkRows(
        `SELECT l.kind, s.path AS source, t.path AS target_path, ${ATTACHMENT_PATHS} AS attachment_paths,
                l.target, l.heading, l.text, l.line
         FROM links l JOIN notes s ON s.id = l.source_id LEFT JOIN notes t ON t.id = l.target_id
         WHERE l.source_id = ? AND l.target_id IS NOT l.source_id ORDER BY l.line IS NULL, l.line, l.id`,
        noteId,
      ),
    );
  }

  backlinks(noteId: number): LinkRecord[] {
    return this.linkRows(
      `SELECT l.kind, s.path AS source, t.path AS target_path, NULL AS attachment_paths, l.target, l.heading, l.text, l.line
       FROM links l JOIN notes s ON s.id = l.source_id JOIN notes t ON t.id = l.target_id
       WHERE l.target_id = ? AND l.source_id != l.target_id ORDER BY s.path, l.line`,
      noteId,
    );
  }

  /** Resolved link targets per section (and frontmatter `related`, section null) for a set of notes. */
  relatedPaths(noteIds: number[]): { noteId: number; sectionId: number | null; path: string; targetId: number }[] {
    return this.db
      .prepare(
        `SELECT l.source_id AS noteId, l.section_id AS sectionId, t.path AS path, l.target_id AS targetId
         FROM links l JOIN notes t ON t.id = l.target_id
         WHERE l.source_id IN (SELECT value FROM json_each(?)) AND l.target_id != l.source_id
         ORDER BY l.source_id, l.kind = 'related' DESC, l.line, l.id`,
      )
      .all(JSON.stringify(noteIds)) as { noteId: number; sectionId: number | null; path: string; targetId: number }[];
  }

  /**
   * Links to no note nor attachment; `extensions` as in outgoingLinks. The notes changed last first (then by
   * path): doctor shows the first 50, and by path alone the link just broken in the note being edited was
   * left out whenever 50 older ones sorted before it (the Obsidian Hub has 213).
   */
  unresolvedLinks(limit: number, extensions: string[]): LinkRecord[] {
    return this.withSkipped(
      extensions,
      this.linkRows(
        `SELECT l.kind, s.path AS source, NULL AS target_path, NULL AS attachment_paths, l.target, l.heading, l.text, l.line
         FROM links l JOIN notes s ON s.id = l.source_id WHERE l.target_id IS NULL AND ${NOT_ATTACHMENT}
         ORDER BY s.mtime_ms DESC, s.path, l.line LIMIT ?`,
        limit,
      ),
    );
  }

  /**
   * The note a markdown link to a built page names (`strategy.html` → `strategy.md`, resolved by path as links are),
   * else null: sites built from notes link their pages so (the GitLab handbook 78 times, most beside the
   * note), and then the fix is to link the note, not to add an .html file.
   */
  noteOfPage(target: string, sourcePath: string, extensions: readonly string[]): string | null {
    if (!PAGE.test(target)) return null;
    const lookup = this.pathLookup(extensions);
    for (const ext of extensions) {
      const note = resolveLink('markdown', target.replace(PAGE, ext), sourcePath, lookup);
      if (note !== null) return note;
    }
    return null;
  }

  /**
   * Link resolution's view of the notes by path only, a query at a time (for the few links doctor shows). No
   * names: the page is built from the note at that path, and the handbook's `index.html` would otherwise
   * name one of its 170 index.md.
   */
  private pathLookup(extensions: readonly string[]): NoteLookup {
    const path = this.db.prepare('SELECT path FROM notes WHERE path = ?').pluck();
    const lower = this.db.prepare('SELECT path FROM notes WHERE lower(path) = ? LIMIT 1').pluck();
    return {
      hasPath: (p) => path.get(p) !== undefined,
      byLowerPath: (p) => lower.get(p) as string | undefined,
      byBasename: () => [],
      byPageName: () => [],
      byAlias: () => [],
      extensions,
    };
  }

  /** How many links resolve to no note nor attachment but name a file tsm skipped (counted in unresolvedLinks too). */
  linksToSkippedFiles(extensions: string[]): number {
    const keys = [...this.skippedTargets(extensions).keys()];
    if (keys.length === 0) return 0;
    return (
      this.db
        .prepare(
          `SELECT count(*) FROM links l WHERE l.target_id IS NULL AND ${NOT_ATTACHMENT} AND l.target_key IN (SELECT value FROM json_each(?))`,
        )
        .pluck()
        .get(JSON.stringify(keys)) as number
    );
  }

  /**
   * The files tsm skipped that a link can name, by the key a link's target is matched with (targetKey, as
   * the link would have resolved to the note): a link to one names a file that is there, so "unresolved"
   * and "create that note" would be wrong. Only paths named like notes: a folder the scan could not read
   * is no link's target.
   */
  private skippedTargets(extensions: string[]): Map<string, SkippedFile> {
    return new Map(
      this.skippedFiles()
        .filter((w) => isNoteName(w.path, extensions))
        .map((w) => [basenameKey(w.path, extensions), { path: w.path, reason: skipReason(w.message) }]),
    );
  }

  /** Fills in `skipped` of the links that name no note nor attachment. */
  private withSkipped(extensions: string[], links: LinkRecord[]): LinkRecord[] {
    if (!links.some((l) => l.targetPath === null && l.attachmentPath === null)) return links;
    const skipped = this.skippedTargets(extensions);
    for (const l of links) {
      if (l.targetPath === null && l.attachmentPath === null) l.skipped = skipped.get(targetKey(l.target, extensions)) ?? null;
    }
    return links;
  }

  /**
   * The paths tsm has a warning for and no note: the files it skipped, with why. Both kinds are here: those
   * read and refused (binary, too large, unreadable: skipped_files, whose warning markSkipped writes) and
   * those the scan never read (a FIFO, a broken symlink, a name not UTF-8: a warning only). Folders and
   * ignore files the scan could not read are here too: the caller keeps the paths it can use.
   */
  private skippedFiles(): IndexWarning[] {
    return this.db
      .prepare('SELECT path, min(message) AS message FROM warnings WHERE path NOT IN (SELECT path FROM notes) GROUP BY path ORDER BY path')
      .all() as IndexWarning[];
  }

  warnings(limit: number): IndexWarning[] {
    return this.db.prepare('SELECT path, message FROM warnings ORDER BY path, id LIMIT ?').all(limit) as IndexWarning[];
  }

  meta(key: string): string | null {
    const r = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }

  status(): IndexStatus {
    const count = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    const byType: Record<NoteType, number> = { daily: 0, knowledge: 0, session: 0 };
    for (const r of this.db.prepare('SELECT type, count(*) AS n FROM notes GROUP BY type').all() as { type: NoteType; n: number }[]) {
      byType[r.type] = r.n;
    }
    let indexBytes = 0;
    for (const suffix of ['', '-wal']) {
      try {
        indexBytes += statSync(this.dbPath + suffix).size;
      } catch {
        // no WAL file right now
      }
    }
    return {
      notes: count('SELECT count(*) AS n FROM notes'),
      byType,
      sections: count('SELECT count(*) AS n FROM sections'),
      links: count('SELECT count(*) AS n FROM links'),
      unresolvedLinks: count(`SELECT count(*) AS n FROM links l WHERE l.target_id IS NULL AND ${NOT_ATTACHMENT}`),
      warnings: count('SELECT count(*) AS n FROM warnings'),
      indexBytes,
      lastSync: this.meta('last_sync'),
      schemaVersion: SCHEMA_VERSION,
    };
  }

  integrityCheck(): string[] {
    return quickCheck(this.db);
  }

  private linkRows(sql: string, arg: number): LinkRecord[] {
    const rows = this.db.prepare(sql).all(arg) as {
      kind: LinkRecord['kind'];
      source: string;
      target_path: string | null;
      /** JSON array of the files of the link's name (ATTACHMENT_PATHS), or null. */
      attachment_paths: string | null;
      target: string;
      heading: string | null;
      text: string | null;
      line: number | null;
    }[];
    return rows.map((r) => ({
      kind: r.kind,
      sourcePath: r.source,
      targetPath: r.target_path,
      attachmentPath: r.attachment_paths === null ? null : resolveAttachment(r.kind, r.target, r.source, JSON.parse(r.attachment_paths) as string[]),
      target: r.target,
      heading: r.heading,
      text: r.text,
      line: r.line,
      skipped: null,
      ignored: null,
    }));
  }
}

/**
 * Why a file was skipped, from its warning: the warnings say "skipped" before the cause ("skipped: binary
 * file …", markSkipped) or after it ("broken symlink: skipped", the scan), which beside a [skipped] label
 * says it twice.
 */
function skipReason(message: string): string {
  return message.replace(/^skipped: /, '').replace(/: skipped\b.*$/, '');
}
