// Pages of an MCP search with copies left out (search/copies.ts) are pages of one list: each hit on one page,
// none skipped. With more copies than a few pages' worth ranked first (an archive folder copied 20 times), the
// page was looked for over 4 rounds of a few more notes each: page 1 of 3 held one hit, page 2 none, and page
// 3 went on at the 7th note, so the 2nd to 6th were on no page.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import type { NoteSpec } from './fixture.js';
import { serveFixture } from './setup.js';

const plan: NoteSpec = { type: 'knowledge', date: '2026-11-01', body: '# Zebra plan\n\nThe zebracorn zebracorn zebracorn migration of zebracorn.\n' };
let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  const notes: Record<string, NoteSpec> = { 'plan.md': plan };
  for (let i = 1; i <= 20; i++) notes[`archive/${i}/plan.md`] = plan;
  for (let i = 1; i <= 8; i++) notes[`other${i}.md`] = { type: 'knowledge', date: '2026-11-01', body: `# Other ${i}\n\nzebracorn note number ${i} about item${i}.\n` };
  served = await serveFixture(notes);
});
afterAll(() => served.close());

const paths = (r: { results: { path: string }[] }) => r.results.map((x) => x.path);

it('pages of 3 give, in turn, the hits one page of all gives', async () => {
  const all = paths(await ok(served.client, 'search', { query: 'zebracorn', limit: 20 }));
  expect(all).toHaveLength(9);
  const paged: string[][] = [];
  for (let offset = 0; offset < all.length; offset += 3) paged.push(paths(await ok(served.client, 'search', { query: 'zebracorn', limit: 3, offset })));
  expect(paged).toEqual([all.slice(0, 3), all.slice(3, 6), all.slice(6, 9)]);
});
