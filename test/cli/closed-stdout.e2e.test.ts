// `tsm <command> | head -1`: a reader that goes away must end every command quietly, never with Node's
// "Unhandled 'error' event … write EPIPE" stack trace. The test closes the read end of stdout before tsm
// writes anything, so every write meets EPIPE (a real `head -1` only sometimes wins that race).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, copyVaultExample, TSM, tsm } from '../helpers/cli.js';

let vault = '';

beforeAll(() => {
  vault = join(mkdtempSync(join(tmpdir(), 'tsm-closed-stdout-')), 'vault');
  copyVaultExample(vault);
  const r = tsm(['index', '--vault', vault]);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => rmSync(join(vault, '..'), { recursive: true, force: true }));

function withStdoutClosed(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSM, ...args, '--vault', vault], { env: cleanEnv({ HOME: vault }), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('stdout closed by its reader', () => {
  const commands = [
    ['doctor'],
    ['doctor', '--json'],
    ['related', 'knowledge/lora/lora-module-guide.md'],
    ['related', 'knowledge/lora/lora-module-guide.md', '--json'],
    ['status'],
    ['status', '--json'],
    ['index'],
    ['index', '--json'],
    ['model', 'list'],
    ['search', 'LoRa'],
    ['search', 'LoRa', '-f', 'json'],
  ];
  for (const args of commands) {
    it(`tsm ${args.join(' ')} stops quietly`, async () => {
      const r = await withStdoutClosed(args);
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.code).toBe(0);
    });
  }
});
