// Property tests for the query language (src/search/query-syntax.ts): any string parses and never throws;
// a query without operators is its own text and ranks exactly as free text; every FTS5 expression the
// operators build is valid FTS5, whatever the user typed inside quotes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySyntax } from '../../src/search/constraints.js';
import { parseQuery } from '../../src/search/query-syntax.js';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';
import { generateVault } from '../resilience/vault-gen.js';

const RUNS = { numRuns: Number(process.env.TSM_PROPERTY_RUNS ?? 200) };
const NOW = new Date('2026-11-20T12:00:00Z');
const OPERATORS = ['"', '-', 'OR', '*', 'tag:', 'path:', 'type:', 'status:', 'type:knowledge', 'type:blog', '-e', 'path:C:\\x', 'tag:project', '-"', '" ', ':', 'NEAR(', '\u0000', '\ud83d'];
const WORDS = ['LoRa', 'antenna', 'battery', 'sync', 'アンテナ設計', '待機電流', 'the', 'note', 'e-mail', '😀', '2026'];

const withOperators = fc
  .array(fc.oneof(fc.constantFrom(...OPERATORS), fc.constantFrom(...WORDS), fc.string({ maxLength: 5 }), fc.constantFrom(' ', '  ', '\t')), { maxLength: 25 })
  .map((p) => p.join(''));
/** Words that are no operator: no quote, no leading dash, no key:, no trailing star, no OR. */
const plainWord = fc
  .oneof(fc.constantFrom(...WORDS), fc.string({ minLength: 1, maxLength: 8 }))
  .map((w) => w.replace(/["*\s:]/g, '').replace(/^-+/, ''))
  .filter((w) => w !== '' && w !== 'OR');
const plain = fc.array(plainWord, { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' '));

const index = useIndexReader(() => generateVault(7, 40).files);

describe('the query language', () => {
  it('parses any string without throwing', () => {
    fc.assert(
      fc.property(fc.oneof(withOperators, fc.string({ unit: 'binary', maxLength: 40 })), (q) => {
        const p = parseQuery(q);
        expect(typeof p.text).toBe('string');
        if (!p.operators) expect(p.text).toBe(q);
      }),
      RUNS,
    );
  });

  it('gives plain words back as they are', () => {
    fc.assert(
      fc.property(plain, (q) => {
        const p = parseQuery(q);
        expect(p.operators).toBe(false);
        expect(p.text).toBe(q);
      }),
      RUNS,
    );
  });

  it('builds only valid FTS5 expressions, and search never throws (a type: that is no note type is words)', () => {
    fc.assert(
      fc.property(withOperators, (q) => {
        const syntax = parseQuery(q);
        const filters = applySyntax({}, syntax, NOW);
        for (const m of [...(filters.sectionMatches ?? []), ...(filters.excludeMatch ? [filters.excludeMatch] : [])]) {
          index.db.prepare('SELECT count(*) FROM sections_fts WHERE sections_fts MATCH ?').get(m);
        }
        const resp = search(index.db, { query: q, syntax, suggest: true, limit: 5, now: NOW });
        expect(resp.query).toBe(q);
        expect(resp.total).toBeGreaterThanOrEqual(resp.hits.length);
      }),
      RUNS,
    );
  });

  it('ranks a query without operators exactly as free text', () => {
    fc.assert(
      fc.property(plain, (q) => {
        const free = search(index.db, { query: q, limit: 10, now: NOW });
        const parsed = search(index.db, { query: q, syntax: parseQuery(q), limit: 10, now: NOW });
        expect(parsed.hits.map((h) => [h.id, h.score])).toEqual(free.hits.map((h) => [h.id, h.score]));
        expect(parsed.total).toBe(free.total);
      }),
      RUNS,
    );
  });
});
