// MCP `related` on a note linking to files tsm skipped (NUL bytes, a FIFO): each such link had only
// `path: null`, the answer for a note that is not in the vault, while `tsm doctor` names the file and why.
// It now carries `skipped: {path, reason}` beside the fields it had.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';
import { ok } from './client.js';

describe('MCP related: a link to a file tsm skipped', () => {
  let v: ReturnType<typeof makeVault>;
  let client: Client;
  beforeAll(async () => {
    v = makeVault({ 'a.md': '# a\n\nSee [[bin]], [[fifo]] and [[missing]].\n', 'bin.md': 'binary\0\0bytes\n' });
    expect(spawnSync('mkfifo', [join(v.dir, 'fifo.md')]).status).toBe(0);
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', v.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    client = new Client({ name: 'tsm-skipped-links', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    v?.cleanup();
  });

  it('names the file and why it was skipped; a link to no file has no `skipped`', async () => {
    const r = await ok(client, 'related', { path: 'a.md' });
    expect(r.outgoing).toEqual([
      { path: null, skipped: { path: 'bin.md', reason: expect.stringMatching(/^binary file/) }, target: 'bin', kind: 'wikilink', heading: null, line: 3 },
      {
        path: null,
        skipped: { path: 'fifo.md', reason: 'not a regular file (a pipe, a socket or a device)' },
        target: 'fifo',
        kind: 'wikilink',
        heading: null,
        line: 3,
      },
      { path: null, target: 'missing', kind: 'wikilink', heading: null, line: 3 },
    ]);
  }, 30_000);
});
