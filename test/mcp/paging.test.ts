// Paging search with offset/limit: every ranked result exactly once, and where the ranking ends before
// `total` (a common word: only the best few hundred notes of thousands are ranked), the page says so.
// The Obsidian Hub's `plugin` said total 6031, and pages past the 325th result were empty without a word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ok } from './client.js';
import { buildFixture, type Fixture } from './fixture.js';
import { connect } from './setup.js';

let fx: Fixture;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  const notes = Object.fromEntries(
    Array.from({ length: 700 }, (_, i) => [
      `notes/n${String(i).padStart(3, '0')}.md`,
      { type: 'knowledge' as const, date: '2026-01-01', body: `# Note ${i}\n\n${'walrus '.repeat(1 + (i % 7))}and filler text number ${i}.\n` },
    ]),
  );
  fx = await buildFixture(notes);
  ({ client, close } = await connect(fx.cfg));
}, 60_000);
afterAll(async () => {
  await close();
  fx.cleanup();
});

describe('search pages', () => {
  it('cover the ranked results once each, and the page where they end says why the rest are not there', async () => {
    const first = await ok(client, 'search', { query: 'walrus', limit: 100 });
    expect(first.total).toBe(700);
    expect(first.note).toBeUndefined();
    const seen: string[] = [];
    let last: any;
    for (let offset = 0; offset < 1000; offset += 100) {
      last = await ok(client, 'search', { query: 'walrus', limit: 100, offset });
      expect(last.total).toBe(700);
      seen.push(...last.results.map((r: any) => r.path));
      if (last.results.length < 100) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeLessThan(700);
    expect(last.note).toBe(
      `only the best ${seen.length} of the 700 matches are ranked, so no page goes past them: narrow the query (rarer words, a "phrase", type, tag, path or a date) to reach others`,
    );
    const past = await ok(client, 'search', { query: 'walrus', limit: 10, offset: 5000 });
    expect(past.results).toEqual([]);
    expect(past.note).toMatch(/^only the best \d+ of the 700 matches are ranked/);
  });

  it('a query whose matches are all ranked says nothing', async () => {
    const r = await ok(client, 'search', { query: 'walrus "number 12"', limit: 100, offset: 0 });
    expect(r.results.length).toBe(r.total);
    expect(r.note).toBeUndefined();
  });
});
