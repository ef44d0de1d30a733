// A search of an index whose build of the whole vault has not ended — a first build under way (or an older
// tsm's `tsm index --full`: this tsm's writes in one transaction), or one of them stopped — finds only the
// notes written so far. A prompt
// hook injected such results (256 of 4,559 handbook notes) and `tsm search` returned 0–3 results with no
// word said. The build's own mark (FTS5 merging off until its last step, src/index/build-state.ts) now
// makes the prompt hook inject nothing and log why, and `tsm search` and MCP `search` say the results may
// miss notes; SessionStart, which showed the newest notes of the half-built index as the vault's recent
// context, shows none. The mark is set here as a build sets it, on a whole index; the next `tsm index` ends it.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';
import { ok } from '../mcp/client.js';

let vault: { dir: string; cleanup: () => void };
const db = () => join(vault.dir, '.tsm', 'index.db');

/** Turns FTS5 merging off, as a build of the whole index does at its start (note-writer.ts beginBulkLoad). */
function markBuildUnderWay(): void {
  const conn = new Database(db());
  conn.exec("INSERT INTO sections_fts (sections_fts, rank) VALUES ('automerge', 0)");
  conn.close();
}

beforeAll(() => {
  vault = makeVault({
    '.obsidian/app.json': '{}',
    'knowledge/antenna.md': '# Antenna\n\nThe quarter-wave whip antenna gives the best range for the collar.\n',
    'knowledge/battery.md': '# Battery\n\nThe collar battery lasts three days with the antenna on.\n',
  });
  expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
  markBuildUnderWay();
});
afterAll(() => vault.cleanup());

const hook = (payload: Record<string, unknown>) =>
  tsm(['hook'], {
    cwd: vault.dir,
    input: JSON.stringify({ session_id: 's1', transcript_path: join(vault.dir, 'none.jsonl'), cwd: vault.dir, ...payload }),
  });
const prompt = (text: string) => hook({ hook_event_name: 'UserPromptSubmit', prompt: text });

describe('an index whose whole build has not ended', () => {
  it('tsm search gives what it has and says the results may miss notes', () => {
    const r = tsm(['search', '--vault', vault.dir, 'collar antenna', '--ids']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/tsm: the index is being built \(a first build is under way, or one was stopped\): results may miss notes/);
  });

  it('tsm status says so too (it showed the notes written so far as if they were the vault)', () => {
    const r = tsm(['status', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^build {5}the index is being built \(a first build is under way, or one was stopped\)/m);
    expect(JSON.parse(tsm(['status', '--vault', vault.dir, '--json']).stdout).buildUnfinished).toBe(true);
  });

  it('MCP search says so in note', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault.dir], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'tsm-unfinished', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = await ok(client, 'search', { query: 'collar antenna' });
      expect(r.results).toHaveLength(2);
      expect(r.note).toMatch(/the index is being built/);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('the prompt hook injects nothing and logs why', () => {
    rmSync(join(vault.dir, '.tsm', 'hook.log'), { force: true });
    const r = prompt('which antenna gives the collar the best range?');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(join(vault.dir, '.tsm', 'hook.log'), 'utf8')).toMatch(/the index is being built .*; nothing injected/);
  });

  it('SessionStart shows no recent context (the newest notes of a half-built index) and logs why', async () => {
    // A build still running (its process lives), so the background sync this SessionStart starts leaves the mark.
    const builder = spawn('sleep', ['60']);
    try {
      const conn = new Database(db());
      conn.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('bulk_load_pid', ?)").run(String(builder.pid));
      conn.close();
      rmSync(join(vault.dir, '.tsm', 'hook.log'), { force: true });
      const r = hook({ hook_event_name: 'SessionStart', source: 'startup' });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(readFileSync(join(vault.dir, '.tsm', 'hook.log'), 'utf8')).toMatch(/SessionStart.*the index is being built .*; nothing injected/);
    } finally {
      builder.kill('SIGKILL');
      await new Promise((r) => builder.once('exit', r)); // reaped: a zombie's pid still answers kill(pid, 0)
    }
  });

  it('once `tsm index` ends the build, all of it is said and injected as before', () => {
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    const r = tsm(['search', '--vault', vault.dir, 'collar antenna', '--ids']);
    expect(r.stderr).not.toMatch(/being built/);
    expect(tsm(['status', '--vault', vault.dir]).stdout).not.toMatch(/^build /m);
    expect(JSON.parse(tsm(['status', '--vault', vault.dir, '--json']).stdout).buildUnfinished).toBe(false);
    expect(prompt('which antenna gives the collar the best range?').stdout).toMatch(/knowledge_search/);
  });
});
