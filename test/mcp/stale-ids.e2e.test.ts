// Section ids given to an MCP client stay valid until their note is re-indexed; after that `get_sections`
// leaves them out, naming them in a second item, and `timeline` says the anchor is gone (docs/mcp.md). They were positions (note id ×
// 2^20 + order) handed out again: after an edit that inserted a section, an old id returned the new
// section at its place; after `tsm index --full`, a section of another note; after a removed note's id
// went to the next new note, that note's sections. Through the built `tsm serve` and the SDK client.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';
import { call, fails, ok } from './client.js';

let vault: { dir: string; cleanup: () => void };
let client: Client;
const index = (...args: string[]) => expect(tsm(['index', '--vault', vault.dir, ...args]).code).toBe(0);

beforeAll(async () => {
  vault = makeVault({
    '.obsidian/app.json': '{}',
    'guide.md': '# Guide\n\n## Overview\n\nThe overview of the walrus guide.\n\n## Details\n\nWalrus details here.\n',
    'other.md': '# Other\n\n## Notes\n\nNothing about the topic.\n',
    'zzz-last.md': '# Last\n\n## Body\n\nThe last note, with the highest id: a removed walrus.\n',
  });
  index();
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
  client = new Client({ name: 'tsm-stale-ids', version: '1.0.0' });
  await client.connect(transport);
}, 30_000);
afterAll(async () => {
  await client?.close();
  vault.cleanup();
});

async function idOf(path: string, section: string): Promise<number> {
  const r = await ok(client, 'search', { query: 'walrus', limit: 20 });
  const hit = (r.results as { id: number; path: string }[]).find((h) => h.path === path);
  expect(hit, path).toBeDefined();
  const all = await ok(client, 'timeline', { anchor: hit?.id, before: 50, after: 50 });
  const sections = [all.anchor, ...all.before, ...all.after] as { id: number; section: string }[];
  const found = sections.find((s) => s.section.endsWith(section));
  expect(found, `${path} ${section}`).toBeDefined();
  return found?.id as number;
}

describe('section ids after their note is re-indexed', () => {
  it('an edit that moves sections: the old id names nothing, a fresh search gives the new one', async () => {
    const overview = await idOf('guide.md', 'Overview');
    expect((await ok(client, 'get_sections', { ids: [overview] }))[0].text).toContain('overview of the walrus');
    writeFileSync(join(vault.dir, 'guide.md'), '# Guide\n\n## Inserted\n\nA new first part.\n\n## Overview\n\nThe overview of the walrus guide.\n\n## Details\n\nWalrus details here.\n');
    index();
    const gone = await call(client, 'get_sections', { ids: [overview] });
    expect(gone.json).toEqual([]);
    expect(gone.notice.not_found).toEqual([overview]);
    expect(gone.notice.note).toMatch(/re-indexed .*search again/);
    expect(await fails(client, 'timeline', { anchor: overview })).toMatch(/^anchor section not found/);
    const again = await idOf('guide.md', 'Overview');
    expect(again).not.toBe(overview);
    expect((await ok(client, 'get_sections', { ids: [again] }))[0].text).toContain('overview of the walrus');
  });

  it('an unchanged note keeps its ids across other notes\' edits', async () => {
    const body = await idOf('zzz-last.md', 'Body');
    appendFileSync(join(vault.dir, 'other.md'), '\nMore about nothing.\n');
    index();
    expect((await ok(client, 'get_sections', { ids: [body] }))[0].section).toBe('Last > Body');
  });

  it('a removed note\'s ids are not handed to the next new note', async () => {
    const body = await idOf('zzz-last.md', 'Body');
    rmSync(join(vault.dir, 'zzz-last.md'));
    index();
    writeFileSync(join(vault.dir, 'new.md'), '# New\n\n## Body\n\nA new note about something else.\n');
    index();
    expect(await ok(client, 'get_sections', { ids: [body] })).toEqual([]);
  });

  it('after tsm index --full, no old id names a section of another note', async () => {
    const details = await idOf('guide.md', 'Details');
    const before = readFileSync(join(vault.dir, 'guide.md'), 'utf8');
    index('--full');
    expect(readFileSync(join(vault.dir, 'guide.md'), 'utf8')).toBe(before);
    expect(await ok(client, 'get_sections', { ids: [details] })).toEqual([]);
    expect((await ok(client, 'get_sections', { ids: [await idOf('guide.md', 'Details')] }))[0].text).toContain('Walrus details');
  });
});
