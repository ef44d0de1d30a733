// Hand-built search responses for the format tests.
import type { SearchHit, SearchResponse } from '../../src/core/types.js';

let nextId = 100;

/** A hit with plausible defaults; `rank` defaults to 1, override what the test is about. */
export function hit(over: Partial<SearchHit> = {}): SearchHit {
  const id = over.id ?? nextId++;
  return {
    rank: 1,
    id,
    score: 0.016,
    path: `notes/note-${id}.md`,
    type: 'knowledge',
    status: null,
    title: `Note ${id}`,
    section: `Note ${id} > Overview`,
    line: 3,
    endLine: 9,
    date: '2026-03-10',
    tags: [],
    snippet: 'A short snippet.',
    related: [],
    content: 'A short snippet. With a second sentence.',
    surprise: 0.2,
    ...over,
  };
}

/** A response whose hits are ranked 1…n in the order given. */
export function response(query: string, hits: SearchHit[], total = hits.length): SearchResponse {
  return { query, total, hits: hits.map((h, i) => ({ ...h, rank: i + 1 })), filters: {} };
}

/** Seed 000's first example, with the two results it shows. */
export function seedResponse(): SearchResponse {
  return {
    query: 'LoRa モジュール',
    total: 12,
    filters: {},
    hits: [
      hit({
        rank: 1,
        id: 1,
        score: 0.0181,
        path: 'daily/daily/research/vhf-tracker-radio-options.md',
        type: 'daily',
        section: 'VHFドッグトラッカー 無線方式調査シート > 比較マトリクス',
        snippet: '| 項目 | T99 (150MHz) | 429MHz LoRa | ...',
        related: ['daily/daily/intel/2026-02-24.md', 'daily/daily/intel/2026-03-15.md'],
      }),
      hit({
        rank: 2,
        id: 2,
        score: 0.01649,
        path: 'company/knowledge/lora/dog-tracker-lora-competitors.md',
        type: 'knowledge',
        status: 'current',
        section: 'LoRaベース ドッグトラッカー 競合調査 > keyさんのVHFドッグトラッカーとの比較',
        snippet: '| 項目 | LoRa製品 | LTE-M製品 | keyさんのVHF |',
      }),
    ],
  };
}

/** Text that tries every way to break out of an element or a terminal. */
export const HOSTILE = [
  '<',
  '&',
  '"quoted" & \'single\'',
  ']]>',
  '</snippet>',
  '</knowledge_search>',
  '<!-- comment -->',
  '<?xml version="1.0"?>',
  '&amp; &#0; &lt;',
  '\u0000\u0001\u0008\u000b\u000c\u001b[31m',
  '\ud800 lone high',
  'lone low \udc00',
  '\ufffe\uffff',
  '😀 pair',
].join(' ');

/** Three results shaped like the markdown result example of docs/mcp.md, with the vault's words. */
export function memoryResponse(): SearchResponse {
  return response('rust career', [
    hit({
      id: 11,
      score: 0.025,
      path: 'sessions/2026-03-13-career.md',
      type: 'session',
      title: 'Career talk',
      section: 'Career talk > Switching to Rust',
      line: 12,
      endLine: 17,
      date: '2026-03-13',
      tags: ['career', 'rust'],
      snippet: 'User switching careers from Python to Rust…',
      related: ['knowledge/rust.md'],
      content:
        'User switching careers from Python to Rust due to performance requirements at new job. Needs it in 3 months.\n\n' +
        '- user: "I\'ve been doing Python for 5 years but my new team is all Rust"\n' +
        '- user: "The trading system needs microsecond latency"',
      surprise: 0.9,
    }),
    hit({
      id: 12,
      score: 0.02125,
      path: 'knowledge/preferences.md',
      type: 'knowledge',
      status: 'current',
      title: 'Preferences',
      section: 'Preferences > UI',
      line: 5,
      endLine: 8,
      date: '2026-03-14',
      snippet: 'User prefers dark mode interfaces.',
      content: 'User prefers dark mode interfaces and finds light mode straining. Applies to editors too.',
      surprise: 0.75,
    }),
    hit({
      id: 13,
      score: 0.0185,
      path: 'daily/2026-03-06.md',
      type: 'daily',
      status: 'archived',
      title: '2026-03-06',
      section: '2026-03-06 > Moves',
      line: 20,
      endLine: 22,
      date: '2026-03-06',
      snippet: 'Lived in Tokyo for 3 years before moving to Singapore.',
      content: 'User mentioned living in Tokyo for 3 years before moving to Singapore.',
      surprise: 0.3,
    }),
  ]);
}
