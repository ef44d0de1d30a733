// The index's own vocabulary, for "did you mean" (search/did-you-mean.ts): which words occur, the indexed
// terms near a word, and the words as written in the notes (the index holds porter stems).
import type { Database } from './db.js';
import { excludedSet } from './excluded-sql.js';
import { noteOfSectionSql } from './section-ids.js';

export interface VocabularyTerm {
  term: string;
  /** Sections holding it. */
  doc: number;
}

export class Vocabulary {
  /** `AND …` leaving out the sections of the notes Obsidian's Excluded files name, with its parameter; '' for none. */
  private readonly notExcluded: string;
  private readonly excludedParams: number[];

  /**
   * `excluded`: Obsidian's Excluded files (vault/obsidian-excluded.ts). A word only their notes hold is no word
   * a search finds: offered for `placeholdr`, a template's `placeholder` found nothing again.
   */
  constructor(
    private readonly db: Database,
    excluded: readonly string[] = [],
  ) {
    this.notExcluded = excluded.length ? ` AND NOT tsm_excluded((SELECT path FROM notes WHERE id = ${noteOfSectionSql('sections_fts.rowid')}), ?)` : '';
    this.excludedParams = excluded.length ? [excludedSet(db, excluded)] : [];
  }

  /** Whether any section matches an FTS5 expression. */
  matches(match: string): boolean {
    return this.db.prepare(`SELECT 1 FROM sections_fts WHERE sections_fts MATCH ?${this.notExcluded} LIMIT 1`).pluck().get(match, ...this.excludedParams) !== undefined;
  }

  /**
   * Indexed terms (all columns) that begin with `first`, one character. fts5vocab reads the doclists of
   * the terms in range only: a search that found nothing pays for one or two letters of the index.
   */
  termsStartingWith(first: string): VocabularyTerm[] {
    const next = String.fromCodePoint((first.codePointAt(0) ?? 0) + 1);
    return this.db.prepare('SELECT term, doc FROM sections_vocab WHERE term >= ? AND term < ?').all(first, next) as VocabularyTerm[];
  }

  /** Texts of a few sections matching an FTS5 expression: where a stem's written words are found. */
  sectionTexts(match: string, limit: number): string[] {
    return this.db
      .prepare(`SELECT text FROM sections WHERE id IN (SELECT rowid FROM sections_fts WHERE sections_fts MATCH ?${this.notExcluded} LIMIT ?)`)
      .pluck()
      .all(match, ...this.excludedParams, limit) as string[];
  }
}
