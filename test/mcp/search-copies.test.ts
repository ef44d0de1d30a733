// MCP search gives each passage once: copies of a note (a sync's conflicted copies) are named on its result
// (`copies`) instead of taking a result each (search/copies.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import type { NoteSpec } from './fixture.js';
import { serveFixture } from './setup.js';

const note: NoteSpec = { type: 'knowledge', date: '2026-11-20', body: '# Antenna tuning\n\nThe dipole antenna for 429 MHz needs trimming to 16.5 cm per leg.\n' };
let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  served = await serveFixture({
    'antenna.md': note,
    'antenna (conflicted copy 2026-11-28).md': { ...note, date: '2026-11-19' },
    'other.md': { type: 'knowledge', date: '2026-11-18', body: '# Mounts\n\nThe antenna mast mount.\n' },
  });
});
afterAll(() => served.close());

it('a copy is named on the result it copies, and takes no result of its own', async () => {
  const r = await ok(served.client, 'search', { query: 'dipole antenna trimming' });
  expect(r.results.map((x: { path: string }) => x.path)).toEqual(['antenna.md']);
  expect(r.results[0].copies).toEqual(['antenna (conflicted copy 2026-11-28).md']);
  expect(r.total).toBe(1);
});

it("a later page leaves out copies of an earlier page's hits", async () => {
  const first = await ok(served.client, 'search', { query: 'antenna', limit: 1 });
  expect(first.results.map((x: { path: string }) => x.path)).toEqual(['antenna.md']);
  const second = await ok(served.client, 'search', { query: 'antenna', limit: 1, offset: 1 });
  expect(second.results.map((x: { path: string }) => x.path)).toEqual(['other.md']);
  expect(second.results[0]).not.toHaveProperty('copies');
});
