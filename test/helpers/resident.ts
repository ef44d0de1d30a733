// Residents (`tsm serve`, `tsm watch`) and their query socket, as the end-to-end tests meet them.
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { socketPath } from '../../src/vault/embed-socket.js';
import { cleanEnv, TSM } from './cli.js';

/** A process that listens on the vault's socket and is then killed (SIGKILL): its socket file stays. */
export async function leaveStaleSocket(vault: string): Promise<void> {
  const path = socketPath(vault);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`]);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect(lstatSync(path).isSocket()).toBe(true);
}

export interface Served {
  client: Client;
  /** What the server sent as MCP log messages. */
  logs: string[];
  stderr: () => string;
}

/** The built CLI's `tsm serve` on `vault`, connected with the MCP SDK's client over stdio. */
export async function startServe(vault: string): Promise<Served> {
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
