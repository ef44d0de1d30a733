// MCP `search` on a vault whose undated notes were all written at once (a clone): a date range read from the
// query leaves them out, and the result says so (`dates_crowded`, and its `note`). src/search/mtime-crowd.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFixtureVault } from '../helpers/fixture-vault.js';
import { ok } from './client.js';
import { connect } from './setup.js';
import { NOW } from './vault-data.js';

const DAY = 24 * 3600 * 1000;
let vault = '';
let s: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-crowd-'));
  const clone = NOW.getTime() - DAY; // yesterday, as NOW's time zone has it
  const files: Record<string, { content: string; mtimeMs: number }> = {};
  for (let i = 0; i < 30; i++) files[`knowledge/note-${i}.md`] = { content: `# Note ${i}\n\nantenna gain ${i}\n`, mtimeMs: clone + i * 1000 };
  const y = new Date(clone);
  const day = `${y.getFullYear()}-${String(y.getMonth() + 1).padStart(2, '0')}-${String(y.getDate()).padStart(2, '0')}`;
  files[`daily/${day}.md`] = { content: `# ${day}\n\nantenna gain of the collar\n`, mtimeMs: clone };
  s = await connect(await indexFixtureVault(vault, files));
});
afterAll(async () => {
  await s.close();
  rmSync(vault, { recursive: true, force: true });
});

describe('search on a cloned vault', () => {
  it("puts yesterday's daily note first and names the notes the range left out", async () => {
    const r = await ok(s.client, 'search', { query: 'antenna gain yesterday' });
    expect(r.results[0].path).toMatch(/^daily\//);
    expect(r.dates_crowded).toEqual({ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), notes: 30 });
    expect(r.note).toMatch(/30 notes dated only by their files' time, .* were all changed at once/);
    expect(r.dates_first.notes).toBe(1);
    // Without a date in the query, nothing is said.
    const plain = await ok(s.client, 'search', { query: 'antenna gain' });
    expect(plain.dates_crowded).toBeUndefined();
  });

  it('recent_context lists the daily note, not the notes the clone wrote', async () => {
    const r = await ok(s.client, 'recent_context', {});
    expect(r.map((x: any) => x.path)).toEqual([expect.stringMatching(/^daily\//)]);
  });
});
