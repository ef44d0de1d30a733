// Property tests for the query path (docs/search.md): user text is never FTS5 syntax. Whatever string a user or
// a hook sends — quotes, operators, column filters, temporal words, any Unicode — search never throws,
// and every FTS5 expression built from it is valid SQLite FTS5.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnMatch, quote } from '../../src/search/fts-query.js';
import { queryTerms } from '../../src/search/query-terms.js';
import { anyTermMatch, buildRankers, type RankerName } from '../../src/search/rankers.js';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';
import { generateVault } from '../resilience/vault-gen.js';

const RUNS = { numRuns: Number(process.env.TSM_PROPERTY_RUNS ?? 300) };
const ALL_RANKERS: RankerName[] = ['words', 'bigrams', 'phrases', 'all-phrases', 'all-bigrams', 'head', 'head-bigrams'];
const NOW = new Date('2026-11-20T12:00:00Z');

const FTS_SYNTAX = [
  '"', '""', "'", '*', '^', ':', '-', '+', '(', ')', '{', '}', '[', ']', 'AND', 'OR', 'NOT', 'NEAR', 'NEAR(a b, 2)',
  'head_words:', 'body_cjk:', '{head_words body_words}:', 'sections_fts', 'rowid', 'rank', 'bm25', 'MATCH', '\u0000',
  '\\', '/', '%', '_', ';', '--', '/*', "'; DROP TABLE notes; --", '\u001a', '\ufffd', '\ud83d', '\udc00',
];
const WORDS = ['LoRa', 'antenna', 'battery', 'アンテナ設計', '待機電流', '電池の持ちが問題', 'ﾓｼﾞｭｰﾙ', 'Ｌｏｒａ', 'e\u0301', '😀', 'the', 'and', 'について'];
const TEMPORAL = ['yesterday', 'last week', 'in March', '3 days ago', 'this year', '昨日', '先週', '13月', '3ヶ月前', '去年', '年末', '最近', '99999日前'];

const queryText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...FTS_SYNTAX),
      fc.constantFrom(...WORDS),
      fc.constantFrom(...TEMPORAL),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.constantFrom(' ', '  ', '\t', '\n', '　'),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

const longPrompt = fc
  .array(fc.constantFrom(...WORDS, ...TEMPORAL, ...FTS_SYNTAX, 'please tell me what we decided about', 'を教えてください。'), {
    minLength: 50,
    maxLength: 400,
  })
  .map((parts) => parts.join(' '));


function ftsAccepts(match: string, table: 'sections_fts' | 'notes_fts' = 'sections_fts'): void {
  // Throws on invalid FTS5 ("fts5: syntax error near …", "no such column", unterminated string…).
  index.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(match);
}

const index = useIndexReader(() => generateVault(11, 40).files);

describe('any query string', () => {
  it('builds only valid FTS5 expressions', () => {
    fc.assert(
      fc.property(fc.oneof(queryText, longPrompt), (text) => {
        const terms = queryTerms(text);
        for (const r of buildRankers(ALL_RANKERS, terms)) ftsAccepts(r.match, r.level === 'note' ? 'notes_fts' : 'sections_fts');
        const any = anyTermMatch(terms);
        if (any !== null) ftsAccepts(any);
      }),
      RUNS,
    );
  });

  it('quoting makes any term without NUL a literal FTS5 string', () => {
    // SQLite reads a MATCH expression as C text, so a NUL would end it early: query analysis drops it
    // (next property), and quote() may rely on that.
    const term = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((t) => !t.includes('\u0000'));
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 5 }), (terms) => {
        ftsAccepts(quote(terms[0]));
        ftsAccepts(columnMatch(['head_words', 'body_words'], terms, terms.slice(0, 2)) as string);
      }),
      RUNS,
    );
  });

  it('query terms never hold a NUL or an empty string', () => {
    fc.assert(
      fc.property(fc.oneof(queryText, longPrompt), (text) => {
        const t = queryTerms(text);
        for (const term of [...t.words, ...t.cjk, ...t.cjkSingles, ...t.cjkPieces]) {
          expect(term).not.toBe('');
          expect(term.includes('\u0000')).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('never throws, and gives a well-formed answer', () => {
    fc.assert(
      fc.property(fc.oneof(queryText, longPrompt), fc.integer({ min: 0, max: 25 }), fc.boolean(), (query, limit, allSections) => {
        const resp = search(index.db, { query, limit, allSections, now: NOW });
        expect(resp.query).toBe(query);
        expect(resp.hits.length).toBeLessThanOrEqual(limit);
        expect(resp.total).toBeGreaterThanOrEqual(resp.hits.length);
        resp.hits.forEach((h, i) => {
          expect(h.rank).toBe(i + 1);
          expect(Number.isFinite(h.score) && h.score > 0).toBe(true);
          if (i > 0) expect(h.score).toBeLessThanOrEqual(resp.hits[i - 1].score);
          expect(h.line).toBeLessThanOrEqual(h.endLine);
        });
        if (!allSections) expect(new Set(resp.hits.map((h) => h.path)).size).toBe(resp.hits.length);
      }),
      RUNS,
    );
  });
});
