// A resident process (`tsm serve`, `tsm watch`) with a model, while another writer holds the index's write
// lock as a `tsm index --full` does for its whole rebuild (here: a connection of the test's, BEGIN IMMEDIATE
// on the real index file). SQLite's busy wait blocks the whole thread: `tsm serve`'s embedding job waiting
// for its turn froze the server — its tools and the warm prompt hook answered nothing until the lock was
// free, and Claude Code held each prompt until the hook's 5 s timeout — and a watcher's batch waiting for it
// left `tsm search`'s query vector unanswered. They now wait on a timer (db.ts writeTransactionAsync).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, TSM, tsm, tsmAsync, waitFor, writeFiles } from '../helpers/cli.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { ok } from '../mcp/client.js';
import { killWatchers, startWatch } from './watch-process.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-beside-writer-'));
  writeTinyModel(join(root, 'model'));
});
afterEach(() => killWatchers());
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function vault(): string {
  const v = join(root, `v${n++}`);
  writeFiles(v, {
    '.tsm/config.json': JSON.stringify({ modelDir: '../model' }),
    'radio.md': '# Radio\n\n## Antenna\n\nantenna gain and range\n\n## Battery\n\nbattery life\n',
    'garden.md': '# Garden\n\ncompost and tomato seeds\n',
  });
  return v;
}

/** Holds the index's write lock, as another process's `tsm index --full` does, until `release`. */
function holdWriteLock(v: string): { release: () => void } {
  const db = new Database(join(v, '.tsm', 'index.db'));
  db.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      db.exec('COMMIT');
      db.close();
    },
  };
}

/** The promise's value, or a failure after `ms` (a frozen server never answers; the test must not hang). */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a resident process while another writer holds the lock', () => {
  it('tsm serve answers its tools and the warm prompt hook; it embeds once the lock is free', async () => {
    const v = vault();
    expect(tsm(['index', '--vault', v]).code).toBe(0);
    const lock = holdWriteLock(v);
    const env = Object.fromEntries(Object.entries(cleanEnv({ TSM_CACHE_DIR: join(root, 'cache') })).filter((e): e is [string, string] => e[1] !== undefined));
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', v], env, cwd: root, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = new Client({ name: 'tsm-e2e', version: '1.0.0' });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (m) => void logs.push(String(m.params.data)));
    try {
      await client.connect(transport);
      await waitFor(() => logs.some((l) => /embedding model tsm-test\/tiny loaded/.test(l)), 20_000);
      // Its embedding job has begun, and waits for the lock.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const found = await within(8000, 'search', ok(client, 'search', { query: 'antenna' }));
      expect(JSON.stringify(found)).toContain('radio.md');
      const hook = await within(
        8000,
        'hook_context',
        ok(client, 'hook_context', { hook_event_name: 'UserPromptSubmit', prompt: 'What do my notes say about the antenna gain?', session_id: 's1', cwd: v }),
      );
      expect((typeof hook === 'string' ? JSON.parse(hook) : hook).hookSpecificOutput.additionalContext).toContain('radio.md');
      expect(logs.some((l) => /embedded/.test(l))).toBe(false);
      lock.release();
      await waitFor(() => logs.some((l) => /embedded 4 sections/.test(l)), 20_000);
      expect(stderr).toBe('');
    } finally {
      await client.close();
    }
  });

  it('tsm watch answers query vectors while its batch waits, applies it once the lock is free, and stops at once when asked', async () => {
    const v = vault();
    const w = await startWatch(v);
    await waitFor(() => /embedded 4 sections/.test(w.stderr()), 20_000);
    let lock = holdWriteLock(v);
    writeFileSync(join(v, 'field.md'), '# Field test\n\nantenna on the hill\n');
    // The batch (after the watcher's quiet time) is waiting for the lock by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const asked = await tsmAsync(['search', '--vault', v, '--verbose', 'antenna']);
    expect(asked.stderr).toMatch(/query vector from the resident model in \d+ ms/);
    expect(asked.stdout).not.toContain('field.md');
    lock.release();
    await waitFor(() => /embedded 1 section in/.test(w.stderr()), 20_000);
    expect((await tsmAsync(['search', '--vault', v, 'hill'])).stdout).toContain('field.md');

    // Asked to stop while a batch waits: it stops now, not when the other writer is done.
    lock = holdWriteLock(v);
    writeFileSync(join(v, 'meadow.md'), '# Meadow\n\nantenna in the meadow\n');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await within(8000, 'tsm watch stopping', w.stop('SIGTERM'))).toBe(0);
    lock.release();
    expect(w.stderr()).not.toMatch(/failed/);
  });
});
