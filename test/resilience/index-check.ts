// Looks inside an index file the way tsm never does: SQLite and FTS5 integrity checks on a copy, and a
// dump of everything the index holds keyed by vault path (never by row id, which differs between builds),
// so an index left by a crash or a race can be compared note by note with a clean build.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isCjkTerm } from '../../src/index/cjk-df.js';

export interface NoteDump {
  /** Note fields (no id, no indexed_at). */
  fields: string;
  /** Sections in order: heading path, lines, chunk, text. */
  sections: string[];
  /** Sections that have a full-text row, by ord. */
  ftsSections: number[];
  tags: string[];
  aliases: string[];
  /** Links without their resolution. */
  links: string[];
  /** Resolved target path of each link (null: unresolved), same order as `links`. */
  targets: (string | null)[];
}

export interface IndexDump {
  notes: Map<string, NoteDump>;
  skipped: string[];
  warnings: string[];
  /** FTS vocabulary: term → "documents/occurrences"; equal vocabularies mean equal full-text content. */
  vocab: Map<string, string>;
  /** FTS5's row count and column sizes, which bm25() normalises by (its "averages" record, hex). */
  ftsTotals: string;
  /** FTS5's settings (automerge and the like): a bulk load a kill cut short must still be finished. */
  ftsConfig: string;
  /** Full-text rows whose section no longer exists (must be none). */
  orphanFtsRows: number;
  /** CJK terms whose cjk_df count is not the FTS vocabulary's (must be none), e.g. `term: table vs vocab`. */
  cjkDfMismatches: string[];
  schemaVersion: string | null;
}

export interface Inspection {
  /** What the SQLite and FTS5 integrity checks found (empty: healthy). */
  problems: string[];
  /** Null when the file holds no tsm schema yet (a build killed before creating it). */
  dump: IndexDump | null;
}

/**
 * Checks and dumps a copy of the file (and its WAL), so the index a killed process left behind is
 * examined exactly as the next tsm will find it, without this check recovering or checkpointing it.
 */
export function inspectIndex(dbPath: string): Inspection {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-check-'));
  try {
    const copy = join(dir, 'index.db');
    copyFileSync(dbPath, copy);
    if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
    const problems = integrityOf(copy);
    const db = new Database(copy, { readonly: true });
    let hasSchema: boolean;
    try {
      hasSchema = Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sections_vocab'").get());
    } finally {
      db.close();
    }
    return { problems, dump: hasSchema ? dumpIndex(copy) : null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function integrityOf(path: string): string[] {
  const db = new Database(path);
  try {
    const problems: string[] = [];
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    if (rows.length !== 1 || rows[0].integrity_check !== 'ok') problems.push(...rows.map((r) => `integrity_check: ${r.integrity_check}`));
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length > 0) problems.push(`foreign_key_check: ${fk.length} rows, e.g. ${JSON.stringify(fk[0])}`);
    for (const table of ['sections_fts', 'notes_fts']) {
      if (!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table)) continue;
      try {
        db.prepare(`INSERT INTO ${table}(${table}) VALUES ('integrity-check')`).run();
      } catch (err) {
        problems.push(`fts5 integrity-check of ${table}: ${(err as Error).message}`);
      }
    }
    return problems;
  } finally {
    db.close();
  }
}

export function dumpIndex(dbPath: string): IndexDump {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const notes = new Map<string, NoteDump>();
    const byId = new Map<number, NoteDump>();
    const pathOf = new Map<number, string>();
    for (const n of db
      .prepare('SELECT id, path, title, type, status, date, date_source, tags, aliases, frontmatter, size, mtime_ms, hash FROM notes')
      .all() as Record<string, unknown>[]) {
      const { id, path, ...rest } = n;
      const dump: NoteDump = { fields: JSON.stringify(rest), sections: [], ftsSections: [], tags: [], aliases: [], links: [], targets: [] };
      notes.set(path as string, dump);
      byId.set(id as number, dump);
      pathOf.set(id as number, path as string);
    }
    const ordOf = new Map<number, number>();
    for (const s of db
      .prepare('SELECT id, note_id, ord, heading, level, heading_path, start_line, end_line, chunk, text FROM sections ORDER BY note_id, ord')
      .all() as { id: number; note_id: number; ord: number; [k: string]: unknown }[]) {
      const { id, note_id, ...rest } = s;
      ordOf.set(id, s.ord);
      byId.get(note_id)?.sections.push(JSON.stringify(rest));
    }
    let orphanFtsRows = 0;
    for (const r of db.prepare('SELECT rowid AS id FROM sections_fts').all() as { id: number }[]) {
      const ord = ordOf.get(r.id);
      if (ord === undefined) orphanFtsRows++;
    }
    for (const r of db.prepare('SELECT rowid AS id FROM notes_fts').all() as { id: number }[]) {
      if (!byId.has(r.id)) orphanFtsRows++;
    }
    for (const r of db.prepare('SELECT s.note_id, s.ord FROM sections_fts f JOIN sections s ON s.id = f.rowid ORDER BY s.note_id, s.ord').all() as {
      note_id: number;
      ord: number;
    }[]) {
      byId.get(r.note_id)?.ftsSections.push(r.ord);
    }
    for (const r of db.prepare('SELECT note_id, tag FROM note_tags ORDER BY note_id, tag').all() as { note_id: number; tag: string }[]) {
      byId.get(r.note_id)?.tags.push(r.tag);
    }
    for (const r of db.prepare('SELECT note_id, alias FROM note_aliases ORDER BY note_id, alias').all() as { note_id: number; alias: string }[]) {
      byId.get(r.note_id)?.aliases.push(r.alias);
    }
    for (const l of db
      .prepare('SELECT source_id, section_id, kind, target, target_key, heading, text, line, target_id FROM links ORDER BY source_id, line, id')
      .all() as { source_id: number; section_id: number | null; target_id: number | null; [k: string]: unknown }[]) {
      const { source_id, section_id, target_id, ...rest } = l;
      const dump = byId.get(source_id);
      if (!dump) continue;
      dump.links.push(JSON.stringify({ ...rest, section: section_id === null ? null : (ordOf.get(section_id) ?? 'missing') }));
      dump.targets.push(target_id === null ? null : (pathOf.get(target_id) ?? 'dangling'));
    }
    for (const dump of notes.values()) {
      // Links in one line keep their order; sort the pairs so row-id order cannot matter.
      const pairs = dump.links.map((l, i) => [l, dump.targets[i]] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      dump.links = pairs.map((p) => p[0]);
      dump.targets = pairs.map((p) => p[1]);
    }
    const skipped = (db.prepare('SELECT path, size, mtime_ms, reason FROM skipped_files ORDER BY path').all() as unknown[]).map((r) =>
      JSON.stringify(r),
    );
    const warnings = (db.prepare('SELECT path, message FROM warnings ORDER BY path, message').all() as unknown[]).map((r) => JSON.stringify(r));
    const vocab = new Map<string, string>();
    for (const r of db.prepare('SELECT term, doc, cnt FROM sections_vocab').all() as { term: string; doc: number; cnt: number }[]) {
      vocab.set(r.term, `${r.doc}/${r.cnt}`);
    }
    // The note-level table's statistics too (a temp vocab table: the index itself is opened read-only).
    db.exec("CREATE VIRTUAL TABLE temp.notes_vocab USING fts5vocab(main, notes_fts, 'row')");
    for (const r of db.prepare('SELECT term, doc, cnt FROM temp.notes_vocab').all() as { term: string; doc: number; cnt: number }[]) {
      vocab.set(`note:${r.term}`, `${r.doc}/${r.cnt}`);
    }
    const version = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const totals = db.prepare('SELECT block FROM sections_fts_data WHERE id = 1').get() as { block: Buffer } | undefined;
    const noteTotals = db.prepare('SELECT block FROM notes_fts_data WHERE id = 1').get() as { block: Buffer } | undefined;
    const ftsTotals = [totals, noteTotals].map((t) => (t ? Buffer.from(t.block).toString('hex') : '')).join('/');
    const ftsConfig = JSON.stringify(
      ['sections_fts', 'notes_fts'].map((t) => db.prepare(`SELECT k, v FROM ${t}_config WHERE k <> 'version' ORDER BY k`).all()),
    );
    // A build from scratch fills cjk_df at its end: one a kill cut short has not yet (the next sync does).
    const bulkLoading = db.prepare("SELECT 1 FROM sections_fts_config WHERE k = 'automerge' AND v = 0").get() !== undefined;
    const cjkDfMismatches = hasTable(db, 'cjk_df') && !bulkLoading ? cjkDfDifferences(db) : [];
    return { notes, skipped, warnings, vocab, ftsTotals, ftsConfig, orphanFtsRows, cjkDfMismatches, schemaVersion: version?.value ?? null };
  } finally {
    db.close();
  }
}

function hasTable(db: Database.Database, name: string): boolean {
  return Boolean(db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name));
}

/** cjk_df against the FTS vocabulary's counts of every CJK term. */
export function cjkDfDifferences(db: Database.Database): string[] {
  const want = new Map<string, number>();
  for (const r of db.prepare('SELECT term, doc FROM sections_vocab').all() as { term: string; doc: number }[]) {
    if (isCjkTerm(r.term)) want.set(r.term, r.doc);
  }
  const got = new Map((db.prepare('SELECT term, doc FROM cjk_df').all() as { term: string; doc: number }[]).map((r) => [r.term, r.doc]));
  const out: string[] = [];
  for (const t of new Set([...want.keys(), ...got.keys()])) {
    if (want.get(t) !== got.get(t)) out.push(`${t}: ${got.get(t) ?? 'none'} vs ${want.get(t) ?? 'none'}`);
  }
  return out;
}

const NOTE_PARTS = ['fields', 'sections', 'ftsSections', 'tags', 'aliases', 'links'] as const;

function noteDifference(g: NoteDump, w: NoteDump): string | null {
  for (const key of NOTE_PARTS) {
    const a = JSON.stringify(g[key]);
    const b = JSON.stringify(w[key]);
    if (a !== b) return key === 'fields' ? `note fields differ: ${a} vs ${b}` : `${key} differ (${g[key].length} vs ${w[key].length})`;
  }
  return null;
}

/**
 * For an index a kill left behind: every note it holds must be whole, equal to that note in one of the
 * clean builds of the versions the vault went through (links may still be unresolved).
 */
export function wholeNoteDifferences(got: IndexDump, versions: IndexDump[]): string[] {
  const out: string[] = [];
  if (got.orphanFtsRows > 0) out.push(`${got.orphanFtsRows} full-text rows without a section`);
  if (got.cjkDfMismatches.length > 0) out.push(`cjk_df differs from the FTS vocabulary: ${got.cjkDfMismatches.slice(0, 3).join(', ')}`);
  for (const [path, g] of got.notes) {
    const candidates = versions.map((v) => v.notes.get(path)).filter((n): n is NoteDump => n !== undefined);
    if (candidates.length === 0) out.push(`${path}: in the index but in no clean build`);
    else if (candidates.every((w) => noteDifference(g, w) !== null)) out.push(`${path}: ${noteDifference(g, candidates[0])}`);
  }
  return out;
}

/** Differences between an index and a clean build of the same vault (empty: equal). */
export function dumpDifferences(got: IndexDump, want: IndexDump): string[] {
  const out: string[] = [];
  if (got.orphanFtsRows > 0) out.push(`${got.orphanFtsRows} full-text rows without a section`);
  if (got.cjkDfMismatches.length > 0) out.push(`cjk_df differs from the FTS vocabulary: ${got.cjkDfMismatches.slice(0, 3).join(', ')}`);
  for (const [path, g] of got.notes) {
    const w = want.notes.get(path);
    const diff = w ? noteDifference(g, w) : 'in the index but not in a clean build';
    if (diff) out.push(`${path}: ${diff}`);
    else if (w && JSON.stringify(g.targets) !== JSON.stringify(w.targets)) {
      out.push(`${path}: link targets differ: ${JSON.stringify(g.targets)} vs ${JSON.stringify(w.targets)}`);
    }
  }
  for (const path of want.notes.keys()) if (!got.notes.has(path)) out.push(`${path}: missing from the index`);
  if (JSON.stringify(got.skipped) !== JSON.stringify(want.skipped)) out.push('skipped files differ');
  if (JSON.stringify(got.warnings) !== JSON.stringify(want.warnings)) out.push(`warnings differ: ${got.warnings.length} vs ${want.warnings.length}`);
  let vocabDiffs = 0;
  let example = '';
  for (const t of new Set([...got.vocab.keys(), ...want.vocab.keys()])) {
    if (got.vocab.get(t) !== want.vocab.get(t)) {
      vocabDiffs++;
      example ||= `${t}: ${got.vocab.get(t)} vs ${want.vocab.get(t)}`;
    }
  }
  if (vocabDiffs > 0) out.push(`full-text vocabulary differs in ${vocabDiffs} terms, e.g. ${example}`);
  if (got.ftsTotals !== want.ftsTotals) out.push(`full-text totals (bm25 row count and sizes) differ: ${got.ftsTotals} vs ${want.ftsTotals}`);
  if (got.ftsConfig !== want.ftsConfig) out.push(`full-text settings differ: ${got.ftsConfig} vs ${want.ftsConfig}`);
  return out;
}
