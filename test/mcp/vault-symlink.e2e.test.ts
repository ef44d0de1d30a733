// The built `tsm serve` over the SDK's client, its vault named through a symlink (`--vault ~/notes` leading to
// another disk; macOS's /tmp, which is /private/tmp): a path in the vault's real folder names its notes too.
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, TSM, useIndexedVault } from '../helpers/cli.js';
import { fails, ok } from './client.js';

const vault = useIndexedVault({ 'knowledge/sync.md': '# Sync\n\nthe sync engine keeps notes in step\n' });

let client: Client;
let named = '';
beforeAll(async () => {
  named = `${vault.dir}-link`;
  symlinkSync(vault.dir, named);
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', named], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
  client = new Client({ name: 'tsm-vault-symlink', version: '1.0.0' });
  await client.connect(transport);
}, 30_000);
afterAll(async () => {
  await client?.close();
  rmSync(named, { force: true });
});

describe('a vault named through a symlink', () => {
  it("reads a note and filters a search by absolute paths in the vault's real folder", async () => {
    // Before: both were "path is outside the vault: /tmp/…/knowledge/sync.md".
    expect((await ok(client, 'read_note', { path: join(vault.dir, 'knowledge', 'sync.md') })).path).toBe('knowledge/sync.md');
    const found = await ok(client, 'search', { query: 'sync engine', path: `${join(vault.dir, 'knowledge')}/` });
    expect(found.results.map((r: any) => r.path)).toEqual(['knowledge/sync.md']);
    expect(await fails(client, 'read_note', { path: `${vault.dir}-other/x.md` })).toMatch(/^path is outside the vault/);
  });
});
