// Whatever a note contains, every format stays parseable: random text in every field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchResponse } from '../../src/core/types.js';
import { NOTE_TYPES } from '../../src/core/types.js';
import { formatXml } from '../../src/format/xml.js';
import { formatJson } from '../../src/format/json.js';
import { formatText } from '../../src/format/text.js';
import { formatMarkdown } from '../../src/format/md.js';
import { DEFAULT_LINK_READING } from '../../src/text/markdown-line.js';
import { bestSnippet } from '../../src/search/snippet.js';
import { charLength } from '../../src/text/chars.js';
import { child, elements, parseXml } from './xml-tree.js';

const NASTY = ['<', '>', '&', '"', "'", ']]>', '</snippet>', '</knowledge_search>', '<![CDATA[', '&amp;', '\r\n', '\u001b[0m', '```', '## Result 9', '[[a|b]]', '[t](u)', '**'];

/** Strings mixing ordinary text, markup that attacks each format, any UTF-16 unit and any code point. */
const text = fc
  .array(
    fc.oneof(
      fc.string(),
      fc.constantFrom(...NASTY),
      fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
      fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
      fc.constantFrom('日本語のテキスト', 'LoRa モジュール', '😀', 'e\u0301', 'ﾓｼﾞｭｰﾙ'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const score = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, Number.NaN, Infinity, 1e-9));

const hitArb: fc.Arbitrary<SearchHit> = fc.record({
  rank: fc.nat(1000),
  id: fc.nat(),
  score,
  path: text,
  type: fc.oneof(fc.constantFrom(...NOTE_TYPES), text) as fc.Arbitrary<SearchHit['type']>,
  status: fc.option(text, { nil: null }),
  title: text,
  section: text,
  line: fc.nat(),
  endLine: fc.nat(),
  date: fc.option(fc.oneof(text, fc.constantFrom('2026-03-01', '2025-12-31T23:00:00Z')), { nil: null }),
  tags: fc.array(text, { maxLength: 3 }),
  snippet: text,
  related: fc.array(text, { maxLength: 5 }),
  content: text,
  surprise: score,
});

const responseArb: fc.Arbitrary<SearchResponse> = fc.record({
  query: text,
  total: fc.nat(),
  hits: fc.array(hitArb, { maxLength: 6 }),
  filters: fc.constant({}),
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const RUNS = { numRuns: 300 };

describe('formats under random input', () => {
  it('XML always parses, with one result per hit and the required children', () => {
    fc.assert(
      fc.property(responseArb, fc.nat(2000), (resp, budget) => {
        const root = parseXml(formatXml(resp, { budget }));
        expect(root.name).toBe('knowledge_search');
        const results = elements(root, 'result');
        expect(results).toHaveLength(resp.hits.length);
        for (const r of results) for (const name of ['source', 'section', 'snippet']) expect(child(r, name)).toBeDefined();
      }),
      RUNS,
    );
  });

  it('JSON always parses into one element per hit', () => {
    fc.assert(
      fc.property(responseArb, fc.boolean(), (resp, full) => {
        const contents = new Map(resp.hits.slice(0, 2).map((h) => [h.id, h.content]));
        const parsed = JSON.parse(formatJson(resp, { full, contents }));
        expect(parsed).toHaveLength(resp.hits.length);
      }),
      RUNS,
    );
  });

  it('text and markdown never carry control characters or lone surrogates from a note', () => {
    fc.assert(
      fc.property(responseArb, fc.constantFrom('auto', 'none', 'low', 'high') as fc.Arbitrary<'auto'>, (resp, detail) => {
        const outputs = [formatText(resp, { color: false }), formatMarkdown(resp, { detail, now: new Date(2026, 2, 15), links: DEFAULT_LINK_READING })];
        for (const out of outputs) {
          expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
          expect(out).not.toMatch(LONE_SURROGATE);
        }
      }),
      RUNS,
    );
  });

  it('bestSnippet stays within maxChars and never breaks a surrogate pair that was whole', () => {
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 4 }), fc.integer({ min: 0, max: 200 }), (t, terms, max) => {
        const s = bestSnippet(t, terms, max);
        expect(charLength(s)).toBeLessThanOrEqual(max);
        if (!LONE_SURROGATE.test(t)) expect(s).not.toMatch(LONE_SURROGATE);
      }),
      RUNS,
    );
  });
});
