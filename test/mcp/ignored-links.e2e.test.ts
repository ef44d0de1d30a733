// MCP `related` on a note linking to notes the vault's .gitignore or .tsmignore leaves out of the index: each
// such link had only `path: null`, the answer for a link to nothing, though the note is there (Obsidian
// resolves it) and `tsm doctor` says so. It now carries `ignored: {path, by, rule}` beside `skipped`; a link to
// an attachment the rules leave out (`![[drafts/pic.png]]`) too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';
import { ok } from './client.js';

describe('MCP related: a link to a note the ignore rules leave out', () => {
  let v: ReturnType<typeof makeVault>;
  let client: Client;
  beforeAll(async () => {
    v = makeVault({
      '.gitignore': 'drafts/\n',
      '.tsmignore': 'private.md\n',
      'a.md': '# a\n\nSee [[private]], [[drafts/x]], [[bin]] and [[missing]].\n\n![[drafts/pic.png]]\n',
      'private.md': '# p\n',
      'drafts/x.md': '# x\n',
      'drafts/pic.png': 'png',
      'bin.md': 'binary\0\0bytes\n',
    });
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', v.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    client = new Client({ name: 'tsm-ignored-links', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    v?.cleanup();
  });

  it('names the note and the rule that leaves it out; a skipped file and a link to nothing are as before', async () => {
    const r = await ok(client, 'related', { path: 'a.md' });
    expect(r.outgoing).toEqual([
      { path: null, ignored: { path: 'private.md', by: '.tsmignore', rule: 'private.md' }, target: 'private', kind: 'wikilink', heading: null, line: 3 },
      { path: null, ignored: { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' }, target: 'drafts/x', kind: 'wikilink', heading: null, line: 3 },
      { path: null, skipped: { path: 'bin.md', reason: expect.stringMatching(/^binary file/) }, target: 'bin', kind: 'wikilink', heading: null, line: 3 },
      { path: null, target: 'missing', kind: 'wikilink', heading: null, line: 3 },
      // An attachment the rules leave out, as a note.
      { path: null, ignored: { path: 'drafts/pic.png', by: '.gitignore', rule: 'drafts/' }, target: 'drafts/pic.png', kind: 'embed', heading: null, line: 5 },
    ]);
  }, 30_000);
});
