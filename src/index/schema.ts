// The index schema. Bump SCHEMA_VERSION whenever a table or the way text is analysed changes: an index
// of another version is rebuilt from the vault (markdown is the source of truth), never patched by guess.

export const SCHEMA_VERSION = 16;

/**
 * The full-text columns, in table order (bm25() weights follow it): the one list the schema, the writer and
 * the rankers' column filters use. head_* hold the heading path and the note's aliases; body_* the section
 * text; name_* a note's title, aliases, tags and path words; headings_* its distinct headings and description.
 */
export const SECTION_FTS_COLUMNS = ['head_words', 'body_words', 'head_cjk', 'body_cjk'] as const;
export const NOTE_FTS_COLUMNS = ['name_words', 'headings_words', 'name_cjk', 'headings_cjk'] as const;

/** The note vectors' table: in the schema, and made by the migration from schema 12 (migrate.ts). */
export const SEMANTIC_NOTES_SQL = `CREATE TABLE IF NOT EXISTS semantic_notes (
  id INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
  vec BLOB NOT NULL
);`;

/**
 * The fields ranking reads of each note a ranker found (section-search.ts withNoteFields), in an index of their
 * own: a search looks up 300–900 notes by id, and a notes row (frontmatter, tags, aliases, hashes) fits five
 * to a page, the index's entries about forty. 900 random notes of the handbook in a fresh process: 14.8 ms
 * from the rows, 5.4 ms from this index (readers name it, INDEXED BY: the planner prefers the rowid). 0.5 MB
 * on the handbook's 4,559 notes. Schema 16.
 */
export const NOTES_RANK_SQL = 'CREATE INDEX IF NOT EXISTS notes_rank ON notes(id, section_count, type, status, date, date_source, path);';

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS notes (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  basename TEXT NOT NULL,          -- lower-case file name without extension, for link resolution
  title TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT,
  date TEXT NOT NULL,
  date_source TEXT NOT NULL,
  tags TEXT NOT NULL,              -- JSON array
  aliases TEXT NOT NULL,           -- JSON array
  frontmatter TEXT NOT NULL,       -- JSON object
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  ctime_ms INTEGER NOT NULL DEFAULT 0, -- with size and mtime: a file whose three are unchanged is not read
  hash TEXT NOT NULL,
  indexed_at TEXT NOT NULL,
  section_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS notes_basename ON notes(basename);
CREATE INDEX IF NOT EXISTS notes_date ON notes(date);
${NOTES_RANK_SQL}

CREATE TABLE IF NOT EXISTS note_tags (
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (note_id, tag)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS note_tags_tag ON note_tags(tag);

CREATE TABLE IF NOT EXISTS note_aliases (
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  alias TEXT NOT NULL,             -- normalised (NFKC, lower case)
  PRIMARY KEY (note_id, alias)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS note_aliases_alias ON note_aliases(alias);

-- id = note_id × 2^20 + slot (section-ids.ts; slot = the note's base + ord): the note of an FTS match is its rowid >> 20.
CREATE TABLE IF NOT EXISTS sections (
  id INTEGER PRIMARY KEY,
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  heading TEXT NOT NULL,
  level INTEGER NOT NULL,
  heading_path TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  chunk INTEGER NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sections_note ON sections(note_id, ord);

-- Contentless: the text lives in sections; rowid = sections.id. Rows are removed with the 'delete'
-- command and the values they were inserted with (note-writer.ts), never with DELETE.
-- head_* hold the heading path and the note's aliases; body_* the section text.
-- *_words: CJK runs removed, cut by unicode61 (+ porter); *_cjk: space-separated CJK bigrams.
CREATE VIRTUAL TABLE IF NOT EXISTS sections_fts USING fts5(
  ${SECTION_FTS_COLUMNS.join(', ')},
  content = '',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- One row per note (rowid = notes.id), for rankers whose evidence is about the whole note: name_* hold the
-- title, aliases, tags and path words; headings_* every distinct heading and the frontmatter description
-- (fts-rows.ts noteFtsRow). A few thousand short rows, so
-- ranking notes by their headings reads far less than ranking every section by its heading path.
CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5(
  ${NOTE_FTS_COLUMNS.join(', ')},
  content = '',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Document frequency per indexed term (all columns), for pruning very common query terms.
CREATE VIRTUAL TABLE IF NOT EXISTS sections_vocab USING fts5vocab(sections_fts, 'row');

-- The same for the terms of the CJK columns (one or two CJK characters), copied from sections_vocab
-- (cjk-df.ts): fts5vocab counts a term by reading its whole doclist, a few milliseconds for the common
-- bigrams of a Japanese prompt; this is one index lookup each.
CREATE TABLE IF NOT EXISTS cjk_df (
  term TEXT PRIMARY KEY,
  doc INTEGER NOT NULL
) WITHOUT ROWID;

-- The semantic model (src/index/semantic/): word vectors learned from the vault's co-occurrences, and
-- one vector per section (rowid = sections.id; gone with its section). Vectors are int8 (quantize.ts).
-- seq: 0 for vectors made by a training, else the incremental sync that made it (meta semantic_model).
CREATE TABLE IF NOT EXISTS semantic_words (
  word TEXT PRIMARY KEY,
  idf REAL NOT NULL,
  vec BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_sections (
  id INTEGER PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  vec BLOB NOT NULL
);
-- One vector per note (rowid = notes.id; gone with its note): the mean of its sections' vectors weighted by
-- their texts' lengths, a whole note's topic (semantic/note-vectors.ts), made again whenever they change.
${SEMANTIC_NOTES_SQL}

-- Neural embeddings (src/index/vectors.ts, issue 17): one row per section (gone with it, so a changed or
-- deleted section drops its vectors on the sync path that drops its FTS rows); vec holds, per chunk, a
-- float32 scale (1 / the int8 vector's norm: a cosine with a unit query is a dot product times the scale)
-- and the chunk's int8 vector (semantic/quantize.ts). One blob, not two: a search that scores every
-- vector reads 60k rows, and each blob read costs as much as a 384-dimension dot product. model: the
-- embedding_models row whose fingerprint made them; only the current one is read, and storing another
-- model's vectors deletes the old model's.
CREATE TABLE IF NOT EXISTS embedding_models (
  id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: an id names one model for the life of the index
  fingerprint TEXT NOT NULL UNIQUE,
  dims INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS section_vectors (
  id INTEGER PRIMARY KEY REFERENCES sections(id) ON DELETE CASCADE,
  model INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
  vec BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS section_vectors_model ON section_vectors(model);

CREATE TABLE IF NOT EXISTS links (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  section_id INTEGER,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  target_key TEXT NOT NULL,        -- lower-case last path segment of target, for re-resolution
  heading TEXT,
  text TEXT,
  line INTEGER,
  target_id INTEGER REFERENCES notes(id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS links_source ON links(source_id);
CREATE INDEX IF NOT EXISTS links_target ON links(target_id);
CREATE INDEX IF NOT EXISTS links_key ON links(target_key);

-- Files that exist but are not notes (binary, too large, unreadable), so a no-op sync skips them by stat.
CREATE TABLE IF NOT EXISTS skipped_files (
  path TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  ctime_ms INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL
);

-- Files that are not notes but may be linked to (images, PDFs, canvases: ![[image.png]], [[board.canvas]]),
-- by the key links are resolved with (resolve-link.ts targetKey): a link to one is not unresolved.
CREATE TABLE IF NOT EXISTS attachments (
  path TEXT PRIMARY KEY,
  key TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS attachments_key ON attachments(key);

CREATE TABLE IF NOT EXISTS warnings (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  message TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS warnings_path ON warnings(path);
`;
