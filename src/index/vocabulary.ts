// The index's own vocabulary, for "did you mean" (search/did-you-mean.ts): which words occur, the indexed
// terms near a word, and the words as written in the notes (the index holds porter stems).
import type { Database } from './db.js';

export interface VocabularyTerm {
  term: string;
  /** Sections holding it. */
  doc: number;
}

export class Vocabulary {
  constructor(private readonly db: Database) {}

  /** Whether any section matches an FTS5 expression. */
  matches(match: string): boolean {
    return this.db.prepare('SELECT 1 FROM sections_fts WHERE sections_fts MATCH ? LIMIT 1').pluck().get(match) !== undefined;
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
      .prepare('SELECT text FROM sections WHERE id IN (SELECT rowid FROM sections_fts WHERE sections_fts MATCH ? LIMIT ?)')
      .pluck()
      .all(match, limit) as string[];
  }
}
