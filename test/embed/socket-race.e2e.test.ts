// Two residents started at the same moment on a vault whose socket file was left by a killed process, with the
// built CLI (two `tsm serve`, each driven by the SDK's client) and the tiny generated model, several times over:
// exactly one of them takes the socket over and answers `tsm search`; the other says nothing of a socket,
// stands down, and the socket file is still there, answering, once the one that stood down has stopped.
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, TSM, tsm, tsmAsync, waitFor, writeFiles } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { socketPath } from '../../src/vault/embed-socket.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-sock-race-'));
  writeTinyModel(join(root, 'model'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A process that listens on the vault's socket and is then killed (SIGKILL): its socket file stays. */
async function leaveStaleSocket(vault: string): Promise<void> {
  const path = socketPath(vault);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`]);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect(lstatSync(path).isSocket()).toBe(true);
}

interface Served {
  client: Client;
  logs: string[];
  stderr: () => string;
}

async function startServe(vault: string): Promise<Served> {
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env, cwd: vault, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'tsm-e2e', version: '1.0.0' });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => void logs.push(String(m.params.data)));
  await client.connect(transport);
  return { client, logs, stderr: () => stderr };
}

describe('two residents at once on a stale socket', () => {
  it('exactly one takes it over and answers, every time; the other stands down and leaves it alone', { timeout: 120_000 }, async () => {
    // Both found the killed process's file refused and both removed "it": the second removed the first's fresh
    // socket, and the first went on listening where nobody could reach it, sure the second's file was its own.
    // Both said "query vectors on …" and both embedded; stopped, the first removed the second's socket.
    for (let round = 0; round < 8; round++) {
      const v = join(root, `v${round}`);
      writeFiles(v, { '.tsm/config.json': JSON.stringify({ modelDir: '../model' }), 'radio.md': '# Radio\n\nantenna gain\n' });
      expect(tsm(['index', '--vault', v]).code).toBe(0);
      await leaveStaleSocket(v);
      const both = await Promise.all([startServe(v), startServe(v)]);
      try {
        await waitFor(() => both.every((s) => s.logs.some((l) => /embedding model tsm-test\/tiny loaded/.test(l))), 20_000);
        const serving = both.filter((s) => s.logs.some((l) => /query vectors on/.test(l)));
        expect(serving, `round ${round}: ${JSON.stringify(both.map((s) => s.logs))}`).toHaveLength(1);
        for (const s of both) expect(s.stderr()).toBe('');
        expect((await tsmAsync(['search', '--vault', v, '--verbose', 'antenna'])).stderr).toMatch(/query vector from the resident model/);
        // The one that stood down stops: the socket stays the other's, and answers.
        await both.find((s) => s !== serving[0])!.client.close();
        expect(lstatSync(socketPath(v)).isSocket()).toBe(true);
        expect((await tsmAsync(['search', '--vault', v, '--verbose', 'antenna'])).stderr).toMatch(/query vector from the resident model/);
      } finally {
        for (const s of both) await s.client.close();
      }
    }
  });
});
