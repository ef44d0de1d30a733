// The steps every in-place migration test takes (src/index/migrate.ts): give an index vectors, downgrade
// it by hand, then check the next writer migrated it — not rebuilt it — keeping every vector.
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { openWriter } from '../../src/index/db.js';
import { embedPending } from '../../src/index/embed-job.js';
import type { Embedder } from '../../src/embed/types.js';
import { ftsRows, noteFtsRow } from '../../src/index/fts-rows.js';
import { NOTE_FTS_COLUMNS, SCHEMA_VERSION, SECTION_FTS_COLUMNS } from '../../src/index/schema.js';

/** Embeds every section of the index with `embedder`; returns the stored vectors by section id. */
export async function embedAll(file: string, embedder: Embedder): Promise<Buffer[]> {
  const { db } = openWriter(file);
  try {
    await embedPending(db, embedder);
    const vectors = db.prepare('SELECT vec FROM section_vectors ORDER BY id').pluck().all() as Buffer[];
    expect(vectors.length).toBeGreaterThan(0);
    return vectors;
  } finally {
    db.close();
  }
}

/**
 * Opens the writer on a downgraded index: migrated in place to the current version, not rebuilt; its vectors
 * kept when given; `check` looks at the migrated index before the connection closes.
 */
export function expectMigratedInPlace(file: string, vectors?: Buffer[], check: (db: Database.Database) => void = () => {}): void {
  const opened = openWriter(file);
  try {
    expect(opened.fresh).toBe(false);
    expect(opened.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION));
    if (vectors) expect(opened.db.prepare('SELECT vec FROM section_vectors ORDER BY id').pluck().all()).toEqual(vectors);
    check(opened.db);
  } finally {
    opened.db.close();
  }
}

/**
 * Makes a current index what an older schema wrote when only the text's analysis changed since: every
 * full-text row written again from the stored notes and sections with `cut` applied to the text (as the old
 * analysis cut it), and the schema version set to `version`. `check` runs on the connection before it commits.
 */
export function writeFtsRowsAs(file: string, version: number, cut: (text: string) => string, check: (db: Database.Database) => void = () => {}): void {
  const db = new Database(file);
  try {
    const notes = db.prepare('SELECT id, path, title, aliases, tags, frontmatter FROM notes').all() as {
      id: number;
      path: string;
      title: string;
      aliases: string;
      tags: string;
      frontmatter: string;
    }[];
    const sectionsOf = db.prepare('SELECT id, heading, heading_path AS headingPath, text FROM sections WHERE note_id = ? ORDER BY ord');
    const insertSection = db.prepare(`INSERT INTO sections_fts (rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
    const insertNote = db.prepare(`INSERT INTO notes_fts (rowid, ${NOTE_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
    db.transaction(() => {
      db.exec("INSERT INTO sections_fts (sections_fts) VALUES ('delete-all'); INSERT INTO notes_fts (notes_fts) VALUES ('delete-all')");
      for (const n of notes) {
        const sections = (sectionsOf.all(n.id) as { id: number; heading: string; headingPath: string; text: string }[]).map((s) => ({
          ...s,
          heading: cut(s.heading),
          headingPath: cut(s.headingPath),
          text: cut(s.text),
        }));
        const aliases = JSON.parse(n.aliases) as string[];
        const tags = JSON.parse(n.tags) as string[];
        for (const row of ftsRows(n.path, aliases, tags, sections)) insertSection.run(sections[row.ord].id, row.head.words, row.body.words, row.head.cjk, row.body.cjk);
        const own = noteFtsRow(n.path, cut(n.title), aliases, tags, sections, JSON.parse(n.frontmatter) as Record<string, unknown>);
        insertNote.run(n.id, own.name.words, own.headings.words, own.name.cjk, own.headings.cjk);
      }
      check(db);
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
    })();
  } finally {
    db.close();
  }
}

