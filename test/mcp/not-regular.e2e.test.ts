// A note that the index lists but that is no longer a regular file on disk — replaced by a FIFO (or a
// device) after indexing. Opening a FIFO for reading blocks until a writer comes, and a blocked read
// stops the whole process: `tsm serve` answered nothing more and could only be killed. Every read of a
// served note now opens without blocking and refuses what is not a regular file: `read_note` says so
// and the server keeps answering; `tsm search --include-content` keeps the hit without content; and the
// indexer skips such a path with a reason.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, TSM, tsm, useIndexedVault } from '../helpers/cli.js';
import { fails, ok } from './client.js';
import { loadNote } from '../../src/parse/load-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';

const vault = useIndexedVault({
  'knowledge/pipe.md': '# Pipe note\n\nThe word marmalade is here.\n',
  'knowledge/plain.md': '# Plain note\n\nMarmalade on toast.\n',
});

describe('a served note replaced by a FIFO after indexing', () => {
  let client: Client;
  beforeAll(async () => {
    rmSync(join(vault.dir, 'knowledge/pipe.md'));
    expect(spawnSync('mkfifo', [join(vault.dir, 'knowledge/pipe.md')]).status).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    client = new Client({ name: 'tsm-fifo', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => client?.close());

  it('read_note refuses it at once and the server keeps answering', async () => {
    const started = Date.now();
    expect(await fails(client, 'read_note', { path: 'knowledge/pipe.md' })).toMatch(/^cannot read knowledge\/pipe\.md: not a regular file/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await ok(client, 'read_note', { path: 'knowledge/plain.md' })).text).toContain('Marmalade on toast');
    expect((await ok(client, 'search', { query: 'marmalade' })).results.length).toBe(2);
  }, 30_000);

  it('tsm search --include-content keeps the hit without content', () => {
    const r = tsm(['search', '--vault', vault.dir, 'marmalade', '-f', 'json', '--include-content', '5'], { timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(0);
    const hits = JSON.parse(r.stdout) as { path: string; file_content?: string }[];
    expect(hits.map((h) => h.path).sort()).toEqual(['knowledge/pipe.md', 'knowledge/plain.md']);
    expect(hits.find((h) => h.path === 'knowledge/plain.md')?.file_content).toContain('Marmalade on toast');
    expect(hits.find((h) => h.path === 'knowledge/pipe.md')).not.toHaveProperty('file_content');
  });

  it('the indexer skips it with a reason instead of waiting for a writer', () => {
    const abs = join(vault.dir, 'knowledge/pipe.md');
    const r = loadNote({ path: 'knowledge/pipe.md', absPath: abs, size: 0, mtimeMs: 0, knownHash: null } as never, DEFAULT_PARSE_OPTIONS);
    expect(r).toEqual({ kind: 'skipped', reason: 'not a regular file (a pipe, a socket or a device)', hash: null });
  });
});
