// timeline with an anchor longer than the result budget: sections are split into chunks of `chunkChars`
// (2,400 by default, up to a million), and with it raised a 50,000-character section gave a timeline of 50,307
// characters past the 24,000 budget. The anchor's text is now cut to fit beside the rest, and marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RESULT_CHAR_BUDGET } from '../../src/mcp/tool.js';
import { ok } from './client.js';
import { buildFixture, type Fixture } from './fixture.js';
import { connect } from './setup.js';

// Quotes, backslashes and newlines take two characters of JSON each: the cut counts JSON, not characters.
const huge = Array.from({ length: 2500 }, (_, i) => `セイウチの "観察" 記録 ${i} \\ 氷の上。`).join('\n');
const small = (n: number) => `## Part ${n}\n\nA small walrus part ${n}.\n`;
const body = ['# Big', '', ...Array.from({ length: 50 }, (_, i) => small(i)), '## Huge', '', huge, '', ...Array.from({ length: 50 }, (_, i) => small(50 + i))].join('\n');
const dailies = Object.fromEntries(
  Array.from({ length: 41 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const text = i === 20 ? `## Huge\n\n${huge}\n` : Array.from({ length: 14 }, (_, k) => `## Heading ${k} of the day ${date}, rather long\n\nWalrus text ${k}.\n`).join('\n');
    return [`daily/${date}.md`, { type: 'daily' as const, date, body: `# ${date}\n\n${text}` }];
  }),
);

let fx: Fixture;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  fx = await buildFixture({ 'big.md': { type: 'knowledge', date: '2026-01-01', body }, ...dailies }, { chunkChars: 200_000 });
  ({ client, close } = await connect(fx.cfg));
});
afterAll(async () => {
  await close();
  fx.cleanup();
});

async function hugeSection(path: string): Promise<number> {
  const hit = await ok(client, 'search', { query: 'セイウチ 観察', path, limit: 1 });
  expect(hit.results[0].section).toMatch(/Huge$/);
  return hit.results[0].id;
}

/** The answer's size, less its outer keys (`{"anchor":…,"before":…}`), which no budget counts. */
const size = (r: unknown) => JSON.stringify(r).length;
const WRAPPER = 100;

describe('timeline with an anchor past the result budget', () => {
  it('cuts the anchor text to fit beside the neighbours, marks it truncated, and keeps every neighbour', async () => {
    const r = await ok(client, 'timeline', { anchor: await hugeSection('big.md'), before: 50, after: 50 });
    expect(size(r)).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + WRAPPER);
    expect(r.anchor.truncated).toBe(true);
    expect(r.anchor.text.endsWith('…')).toBe(true);
    expect(huge.startsWith(r.anchor.text.slice(0, -1))).toBe(true);
    // Cut to what the budget leaves, not far below it.
    expect(size(r)).toBeGreaterThan(RESULT_CHAR_BUDGET - 200);
    expect([r.before.length, r.after.length]).toEqual([50, 50]);
    expect(r.before.at(-1)).toEqual({ id: expect.any(Number), section: 'Big > Part 49', line: expect.any(Number), end_line: expect.any(Number) });
  });

  it('a daily anchor leaves room for the neighbouring days in short form', async () => {
    const r = await ok(client, 'timeline', { anchor: await hugeSection('daily/2026-01-21'), before: 50, after: 50 });
    expect(size(r)).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + WRAPPER);
    expect(r.anchor.truncated).toBe(true);
    expect([r.days_before.length, r.days_after.length]).toEqual([20, 20]);
  });

  it('an anchor that fits is whole and not marked', async () => {
    const part = await ok(client, 'search', { query: '"small walrus part 7"', limit: 1 });
    const r = await ok(client, 'timeline', { anchor: part.results[0].id });
    expect(r.anchor.text).toBe('A small walrus part 7.');
    expect(r.anchor).not.toHaveProperty('truncated');
  });
});
