// `tsm serve` as the vault's resident model, end to end: the built CLI driven by the SDK's client on a vault
// whose settings name the tiny generated model. It loads the model after connecting (saying so to the
// client's log, nothing on stderr), embeds the sections in the background, answers `tsm search`'s query
// vectors on the socket, and removes its socket when the client goes away.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, TSM, tsm, tsmAsync, waitFor, writeFiles } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { socketPath } from '../../src/vault/embed-socket.js';
import { ok } from '../mcp/client.js';

let root: string;
let vault: string;
let client: Client;
let stderr = '';
const logs: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-serve-embed-'));
  vault = join(root, 'vault');
  writeTinyModel(join(root, 'model'));
  writeFiles(vault, {
    '.tsm/config.json': JSON.stringify({ modelDir: '../model' }),
    'radio.md': '# Radio\n\n## Antenna\n\nantenna gain and range\n',
    'garden.md': '# Garden\n\ncompost and tomato seeds\n',
  });
  expect(tsm(['index', '--vault', vault]).code).toBe(0);
  const env = Object.fromEntries(Object.entries(cleanEnv({ TSM_CACHE_DIR: join(root, 'cache') })).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env, cwd: root, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  client = new Client({ name: 'tsm-e2e', version: '1.0.0' });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('tsm serve with an embedding model', () => {
  it('loads it, embeds the sections, answers tsm search on the socket; tools work meanwhile', async () => {
    expect(JSON.stringify(await ok(client, 'search', { query: 'antenna' }))).toContain('radio.md');
    await waitFor(() => logs.some((l) => /embedded 3 sections/.test(l)), 20_000);
    expect(logs.find((l) => /embedding model/.test(l))).toMatch(/^embedding model tsm-test\/tiny loaded; query vectors on .*embed\.sock$/);
    const r = await tsmAsync(['search', '--vault', vault, '--verbose', 'antenna']);
    expect(r.stderr).toMatch(/query vector from the resident model/);
    expect(r.stdout).toContain('radio.md');
    expect(stderr).toBe('');
  });

  it('adds the vault’s nearest notes from its copy of the vectors: to its own tools and to tsm search', async () => {
    // garden.md holds no word of the query: only the neural ranker's added notes bring it.
    await waitFor(async () => JSON.stringify(await ok(client, 'search', { query: 'antenna' })).includes('garden.md'), 20_000, 200);
    // The warm prompt hook (hook_context) searches with the server's model and its copy of the vectors too.
    const hook = await ok(client, 'hook_context', {
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Can you check what my notes say about the antenna gain and its range?',
      session_id: 's1',
      cwd: vault,
    });
    const injected = (typeof hook === 'string' ? JSON.parse(hook) : hook).hookSpecificOutput.additionalContext as string;
    expect(injected).toContain('radio.md');
    expect(injected).toContain('garden.md');
    const r = await tsmAsync(['search', '--vault', vault, '--verbose', 'antenna']);
    expect(r.stderr).toMatch(/may add the 2 nearest notes the resident listed/);
    expect(r.stdout).toContain('garden.md');
    // Another index file of the same vault, with its own vectors: the resident's list is not of it (its ids
    // could name other sections there), so the neural ranker only reorders.
    const otherDb = join(root, 'other.db');
    expect(tsm(['index', '--vault', vault, '--db', otherDb, '--embed'], { env: { TSM_CACHE_DIR: join(root, 'cache') } }).code).toBe(0);
    const other = await tsmAsync(['search', '--vault', vault, '--db', otherDb, '--verbose', 'antenna']);
    expect(other.stderr).toMatch(/neural ranker on: 3 of 3 sections .*reorders only: the resident's nearest notes are of another index file/);
    expect(other.stdout).toContain('radio.md');
    expect(other.stdout).not.toContain('garden.md');
    expect(stderr).toBe('');
  });

  it('closes its socket when the client goes away', async () => {
    expect(existsSync(socketPath(vault))).toBe(true);
    await client.close();
    await waitFor(() => !existsSync(socketPath(vault)), 10_000);
    const r = await tsmAsync(['search', '--vault', vault, '--verbose', 'antenna']);
    expect(r.stderr).toMatch(/lexical search only: no resident process/);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('stops on %s (SIGHUP: its terminal closed), exiting 0 and removing its socket', async (signal) => {
    // Node resets SIGHUP to "terminate" at start-up: without a handler the server died on the spot, and its
    // socket file stayed behind for the next process to find refused.
    const env = cleanEnv({ TSM_CACHE_DIR: join(root, 'cache') });
    const child = spawn(process.execPath, [TSM, 'serve', '--vault', vault], { env, cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await waitFor(() => existsSync(socketPath(vault)), 20_000);
      child.kill(signal);
      expect(await exited, err).toBe(0);
      expect(existsSync(socketPath(vault))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
