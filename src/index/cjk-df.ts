// The cjk_df table (schema.ts): document frequencies of the CJK columns' terms, always equal to what
// sections_vocab says of them. A build from scratch copies them from sections_vocab once, at its end; any
// other write transaction adds what its inserted rows hold and subtracts what its deleted rows held.
// (Asking sections_vocab again instead reads each term's whole doclist: ~0.3 s for one big note.)
import { isCjkCodePoint } from '../text/unicode.js';
import type { Database } from 'better-sqlite3';

/** A term of the CJK columns as analyze() cuts them: a bigram of CJK characters, or one alone. */
export function isCjkTerm(term: string): boolean {
  const first = term.codePointAt(0);
  if (first === undefined || !isCjkCodePoint(first)) return false;
  const rest = term.slice(first > 0xffff ? 2 : 1);
  if (rest === '') return true;
  const second = rest.codePointAt(0) as number;
  return isCjkCodePoint(second) && rest.length === (second > 0xffff ? 2 : 1);
}

/** CJK characters FTS5's unicode61 tokenizer does not count as letters (test/index/cjk-df.test.ts checks). */
function droppedByFts(unit: number): boolean {
  // The CJK Radicals Supplement (symbols to it), and the two Hangul tone marks (marks, removed).
  return (unit >= 0x2e80 && unit <= 0x2eff) || unit === 0x302e || unit === 0x302f;
}

/**
 * The token FTS5 makes of a CJK term analyze() wrote ('' for none): the term without the characters
 * its tokenizer drops (⺀日 is indexed as 日).
 */
export function ftsTokenOf(term: string): string {
  for (let i = 0; i < term.length; i++) {
    if (droppedByFts(term.charCodeAt(i))) {
      let out = '';
      for (let j = 0; j < term.length; j++) if (!droppedByFts(term.charCodeAt(j))) out += term[j];
      return out;
    }
  }
  return term;
}

export class CjkDocFrequencies {
  /** Change per term of the running transaction. */
  private readonly delta = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** Counts a full-text row being inserted (+1) or deleted (-1), by its two CJK column values. */
  countRow(head: string, body: string, sign: 1 | -1): void {
    const terms = new Set<string>();
    for (const value of [head, body]) {
      if (!value) continue;
      for (const t of value.split(' ')) {
        const token = ftsTokenOf(t);
        if (token) terms.add(token);
      }
    }
    for (const t of terms) this.delta.set(t, (this.delta.get(t) ?? 0) + sign);
  }

  /** In the transaction that counted them: applies the changes to cjk_df. */
  apply(): void {
    if (this.delta.size === 0) return;
    const add = this.db.prepare('INSERT INTO cjk_df (term, doc) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET doc = doc + excluded.doc');
    const drop = this.db.prepare('DELETE FROM cjk_df WHERE term = ? AND doc <= 0');
    for (const [term, d] of this.delta) {
      if (d === 0) continue;
      add.run(term, d);
      if (d < 0) drop.run(term);
    }
    this.delta.clear();
  }

  /** Forgets the changes (a rolled-back transaction, or a bulk load that refills at its end). */
  discard(): void {
    this.delta.clear();
  }

  /** Copies every CJK term's count from the FTS index (U+1100 is the first CJK character). */
  refill(): void {
    this.delta.clear();
    this.db.prepare('DELETE FROM cjk_df').run();
    const rows = this.db.prepare('SELECT term, doc FROM sections_vocab WHERE term >= ?').all('\u1100') as { term: string; doc: number }[];
    const insert = this.db.prepare('INSERT INTO cjk_df (term, doc) VALUES (?, ?)');
    for (const r of rows) if (isCjkTerm(r.term)) insert.run(r.term, r.doc);
  }
}
