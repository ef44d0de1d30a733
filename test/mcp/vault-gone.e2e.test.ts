// The BUILT `tsm serve`, driven by the MCP SDK's client, outliving its vault: the folder deleted while it
// serves. Its tools said "no index at …: run `tsm index` first", a fix that fails (`tsm index` stops at a vault
// that is not there), and, with the index kept elsewhere (--db), read_note said "the vault … cannot be read:
// ENOENT: no such file or directory, lstat …"; they now say the vault is gone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, it } from 'vitest';

const gone = (vault: string) => `the vault folder ${vault} is gone (deleted or moved?); give tsm the vault's new path (--vault) and start it again`;
import { cleanEnv, TSM, tsm, writeFiles } from '../helpers/cli.js';
import { call } from './client.js';

it('tools name the vanished vault, not `tsm index`, once the vault folder is deleted', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'tsm-mcp-gone-'));
  const vault = join(root, 'vault');
  writeFiles(vault, { 'knowledge/lora.md': '# LoRa\n\nrange test in the valley\n' });
  expect(tsm(['index', '--vault', vault]).code).toBe(0);
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env, cwd: root, stderr: 'pipe' });
  const client = new Client({ name: 'tsm-gone', version: '1.0.0' });
  try {
    await client.connect(transport);
    expect((await call(client, 'search', { query: 'valley' })).json.total).toBe(1);
    rmSync(vault, { recursive: true });
    for (const [tool, args] of [
      ['search', { query: 'valley' }],
      ['read_note', { path: 'knowledge/lora.md' }],
    ] as const) {
      const r = await call(client, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text, tool).toBe(`no index at ${join(vault, '.tsm', 'index.db')}: ${gone(vault)}`);
    }
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
});

it('and read_note names it when the index is kept elsewhere (--db) and still answers searches', { timeout: 60_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'tsm-mcp-gone-db-'));
  const vault = join(root, 'vault');
  const db = join(root, 'index.db');
  writeFiles(vault, { 'knowledge/lora.md': '# LoRa\n\nrange test in the valley\n' });
  expect(tsm(['index', '--vault', vault, '--db', db]).code).toBe(0);
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault, '--db', db], env, cwd: root, stderr: 'pipe' });
  const client = new Client({ name: 'tsm-gone', version: '1.0.0' });
  try {
    await client.connect(transport);
    rmSync(vault, { recursive: true });
    expect((await call(client, 'search', { query: 'valley' })).json.total).toBe(1);
    const r = await call(client, 'read_note', { path: 'knowledge/lora.md' });
    expect(r).toMatchObject({ isError: true, text: gone(vault) });
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
});
