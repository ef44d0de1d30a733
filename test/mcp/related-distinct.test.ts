// MCP related lists each link once: `[[B]] [[B]] [[B]]` on one line gave three equal entries, in outgoing and in
// B's backlinks, which told the model nothing and took its budget. Links on other lines stay apart.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import { serveFixture } from './setup.js';

let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  served = await serveFixture({
    'a.md': { type: 'knowledge', date: '2026-11-01', body: '# A\n\n[[B]] [[B]] [[B]]\n\nand again [[B]]\n' },
    'b.md': { type: 'knowledge', date: '2026-11-01', body: '# B\n\nnothing\n' },
  });
});
afterAll(() => served.close());

it('one entry per distinct link, both ways', async () => {
  const a = await ok(served.client, 'related', { path: 'a.md' });
  expect(a.outgoing.map((l: { path: string; line: number }) => `${l.path}:${l.line}`)).toEqual(['b.md:7', 'b.md:9']);
  const b = await ok(served.client, 'related', { path: 'b.md' });
  expect(b.backlinks.map((l: { path: string; line: number }) => `${l.path}:${l.line}`)).toEqual(['a.md:7', 'a.md:9']);
});
