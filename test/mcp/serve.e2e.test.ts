// End to end: the BUILT `tsm serve` as a child process, driven by the SDK's own MCP client over stdio,
// on a copy of vault-example indexed by the real `tsm index`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cleanEnv, TSM, tsm, VAULT_EXAMPLE, waitFor } from '../helpers/cli.js';
import { fails, ok } from './client.js';

const SESSION = '3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34';

let root: string;
let vault: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const transportErrors: Error[] = [];
const logMessages: unknown[] = [];

function env(): Record<string, string> {
  return Object.fromEntries(Object.entries(cleanEnv()).filter((e): e is [string, string] => e[1] !== undefined));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-mcp-e2e-'));
  vault = join(root, 'vault');
  const ownIndex = join(VAULT_EXAMPLE, '.tsm');
  cpSync(VAULT_EXAMPLE, vault, { recursive: true, filter: (src) => src !== ownIndex && !src.startsWith(`${ownIndex}/`) });
  writeFileSync(join(root, 'secret.md'), '# Secret\n\nnot for the model\n');
  symlinkSync(join(root, 'secret.md'), join(vault, 'knowledge', 'escape.md'));
  const indexed = tsm(['index', '--vault', vault]);
  expect(indexed.code, indexed.stderr).toBe(0);

  transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', vault], env: env(), cwd: root, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  transport.onerror = (e) => transportErrors.push(e);
  client = new Client({ name: 'tsm-e2e', version: '1.0.0' });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logMessages.push(n.params.data));
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('tsm serve over stdio', () => {
  it('lists the ten tools; a healthy start says "ready" to the client and nothing on stderr', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['file_history', 'get_sections', 'hook_context', 'read_note', 'recent_context', 'related', 'retrieve_memory', 'search', 'session_trace', 'timeline'].sort(),
    );
    // Claude Code shows every stderr line of a server as an error: "ready" is a log notification instead.
    await waitFor(() => logMessages.length > 0);
    expect(logMessages[0]).toMatch(/^ready \(vault /);
    expect(stderr).toBe('');
  });

  it('search → timeline → get_sections → read_note', async () => {
    const found = await ok(client, 'search', { query: '受信機の距離表示 バグ', limit: 5 });
    expect(found.results.length).toBeGreaterThan(0);
    for (const r of found.results) expect(Array.from(r.preview as string).length).toBeLessThanOrEqual(120);
    const daily = found.results.find((r: any) => r.path === 'daily/2026-11-19.md');
    expect(daily).toBeDefined();

    const around = await ok(client, 'timeline', { anchor: daily.id, before: 2, after: 2 });
    expect(around.anchor.id).toBe(daily.id);
    expect(around.days_before.length).toBeGreaterThan(0);
    expect(around.days_after.map((d: any) => d.path)).toContain('daily/2026-11-21.md');

    const ids = [daily.id, ...around.after.map((s: any) => s.id)];
    const sections = await ok(client, 'get_sections', { ids });
    expect(sections.map((s: any) => s.id)).toEqual(ids);
    expect(sections[0].text.length).toBeGreaterThan(0);

    const note = await ok(client, 'read_note', { path: daily.path, from_line: sections[0].line, lines: 3 });
    expect(note.text.split('\n')[0]).toBe(`${sections[0].line}\t## 受信機の距離表示のバグ`);
  });

  it('traces the session and the files it touched', async () => {
    const trace = await ok(client, 'session_trace', { session_id: SESSION.slice(0, 8) });
    expect(trace.session_id).toBe(SESSION);
    expect(trace.prompts.map((p: any) => p.n)).toEqual([1, 2, 3]);
    expect(trace.prompts[1].files_edited).toEqual(['src/geo/geo.c', 'test/test_geo/test_geo.c']);

    const history = await ok(client, 'file_history', { file_path: 'src/geo/geo.c' });
    expect(history.sessions.map((s: any) => s.session_id)).toEqual([SESSION]);
    expect(history.sessions[0].touches.find((t: any) => t.how === 'edited').n).toBe(2);
  });

  it('answers recent_context, related and retrieve_memory', async () => {
    const recent = await ok(client, 'recent_context', { limit: 5 });
    expect(recent).toHaveLength(5);
    expect(new Set(recent.map((r: any) => r.path)).size).toBe(5);

    const links = await ok(client, 'related', { path: 'knowledge/lora/lora-module-guide.md' });
    expect(links.outgoing.length + links.backlinks.length).toBeGreaterThan(0);

    const md = await ok(client, 'retrieve_memory', { query: 'LoRa モジュール 選定', detail: 'high', limit: 3 });
    expect(md).toMatch(/^## Result 1 \[rank: 1, score: 1\.00/);
    expect(md).toContain('**Details:**');
  });

  it('gives clear errors for bad input, and clamps limits', async () => {
    expect(await fails(client, 'get_sections', { ids: [] })).toBe('ids array must not be empty');
    expect(await fails(client, 'get_sections', { ids: Array.from({ length: 51 }, (_, i) => i + 1) })).toMatch(/at most 50 ids/);
    expect(await fails(client, 'timeline', { anchor: 99_999_999 })).toMatch(/^anchor section not found/);
    expect(await fails(client, 'session_trace', { session_id: 'ffffffff-unknown' })).toBe('session not found: ffffffff-unknown');
    expect(await fails(client, 'read_note', { path: '../secret.md' })).toMatch(/outside the vault/);
    expect(await fails(client, 'read_note', { path: join(root, 'secret.md') })).toMatch(/outside the vault/);
    // A note that is a symlink out of the vault is not indexed (one policy: src/vault/paths.ts), so not served.
    // Said why, not "run `tsm index` if the note is new": an index run leaves it out again.
    expect(await fails(client, 'read_note', { path: 'knowledge/escape.md' })).toBe('note not indexed: knowledge/escape.md: symlink to a file outside the vault');
    expect(JSON.stringify(await ok(client, 'search', { query: 'not for the model' }))).not.toContain('escape.md');
    expect(await fails(client, 'read_note', { path: 'drafts/private/salary-negotiation.md' })).toBe(
      'note not indexed: drafts/private/salary-negotiation.md: ignored by .tsmignore: drafts/private/',
    );
    // A wikilink copied from a note names its target, as `tsm related` reads it: was "note not indexed: [[…]]".
    for (const path of ['[[lora-module-guide#Antenna|the guide]]', '![[knowledge/lora/lora-module-guide]]']) {
      expect((await ok(client, 'read_note', { path, lines: 1 })).path, path).toBe('knowledge/lora/lora-module-guide.md');
    }
    expect(await fails(client, 'read_note', { path: '[[../secret]]' })).toMatch(/^path is outside the vault: \.\.\/secret/);
    // A folder without its slash: was "note not indexed: knowledge (… run `tsm index` if the note is new)".
    expect(await fails(client, 'read_note', { path: 'knowledge' })).toBe('path names a folder, not a note: knowledge');
    // related takes a note as read_note does, and says the same when none is indexed: it said "note not indexed: …
    // (use a path from search results)" of a folder, an ignored note and a symlink out, and took no wikilink.
    for (const path of ['knowledge', 'knowledge/escape.md', 'drafts/private/salary-negotiation.md', '[[../secret]]']) {
      expect(await fails(client, 'related', { path }), path).toBe(await fails(client, 'read_note', { path }));
    }
    expect((await ok(client, 'related', { path: '[[lora-module-guide#Antenna|the guide]]' })).path).toBe('knowledge/lora/lora-module-guide.md');
    const huge = await ok(client, 'search', { query: 'LoRa', limit: 1e9 });
    expect(huge.results.length).toBeLessThanOrEqual(100);
    expect(huge.results.length).toBe(Math.min(100, huge.total));
    expect((await ok(client, 'search', { query: 'zzyzxqqq' })).results).toEqual([]);
    expect(transportErrors).toEqual([]);
  });

  it('sees a rebuilt index without a restart', async () => {
    writeFileSync(join(vault, 'knowledge', 'fresh.md'), '# Fresh note\n\nThe word zebrafinch appears only here.\n');
    rmSync(join(vault, '.tsm', 'index.db'), { force: true });
    rmSync(join(vault, '.tsm', 'index.db-wal'), { force: true });
    rmSync(join(vault, '.tsm', 'index.db-shm'), { force: true });
    expect(await fails(client, 'search', { query: 'zebrafinch' })).toMatch(/tsm index/);
    const indexed = tsm(['index', '--vault', vault]);
    expect(indexed.code, indexed.stderr).toBe(0);
    const r = await ok(client, 'search', { query: 'zebrafinch' });
    expect(r.results.map((x: any) => x.path)).toEqual(['knowledge/fresh.md']);
  });
});

describe('tsm serve as a process', () => {
  it('writes nothing but JSON-RPC on stdout and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [TSM, 'serve', '--vault', vault], { env: cleanEnv(), cwd: root });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    await waitFor(() => out.includes('"id":1'));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'LoRa' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_note', arguments: { path: '../../etc/passwd' } } });
    await waitFor(() => out.includes('"id":3'));
    child.stdin.end();
    expect(await exited).toBe(0);
    const messages = out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    const byId = new Map(messages.filter((m) => 'id' in m).map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    const notes = messages.filter((m) => !('id' in m));
    expect(notes.map((m) => [m.method, m.params.level])).toEqual([['notifications/message', 'info']]);
    expect(byId.get(1).result.serverInfo.name).toBe('tsm');
    expect(byId.get(1).result.instructions).toMatch(/search/);
    expect(byId.get(2).result.isError).toBeUndefined();
    expect(JSON.parse(byId.get(2).result.content[0].text).results.length).toBeGreaterThan(0);
    expect(byId.get(3).result.isError).toBe(true);
    expect(byId.get(3).result.content[0].text).toMatch(/outside the vault/);
    expect(err).toBe('');
  }, 30_000);

  it('answers every request it read before stdin ended, even to a reader slower than its writes', async () => {
    // `tsm serve < requests.jsonl`: input ends at once. The server exited on the spot, aborting the answers not
    // yet sent and dropping those still queued for the pipe: of 200 searches, 0 to 200 came back, varying by run.
    const requests = join(root, 'requests.jsonl');
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'search', arguments: { query: 'LoRa', limit: 100 } } })),
    ];
    writeFileSync(requests, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const input = openSync(requests, 'r');
    const child = spawn(process.execPath, [TSM, 'serve', '--vault', vault], { env: cleanEnv(), cwd: root, stdio: [input, 'pipe', 'pipe'] });
    closeSync(input);
    const stdout = child.stdout as NodeJS.ReadableStream & { pause(): void; resume(): void };
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Read nothing for a while: the pipe fills (100 answers are about a megabyte) and the server's writes queue.
    stdout.pause();
    await new Promise((r) => setTimeout(r, 1500));
    let out = '';
    stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    stdout.resume(); // a 'data' listener does not end an explicit pause
    expect(await exited).toBe(0);
    const ids = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((m) => 'id' in m)
      .map((m) => m.id);
    expect(ids.sort((a, b) => a - b)).toEqual([1, ...Array.from({ length: 100 }, (_, i) => 10 + i)]);
    expect(err).toBe('');
  }, 30_000);

  it('says on stderr when there is no index yet (something to fix), and still answers', async () => {
    const bare = join(root, 'bare');
    mkdirSync(join(bare, '.tsm'), { recursive: true });
    const t = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', '--vault', bare], env: env(), cwd: root, stderr: 'pipe' });
    let err = '';
    t.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const c = new Client({ name: 'tsm-e2e-bare', version: '1.0.0' });
    await c.connect(t);
    expect(await fails(c, 'search', { query: 'LoRa' })).toMatch(/no index at .*: run `tsm index` first/);
    await waitFor(() => err.includes('no index yet'));
    expect(err).toMatch(/^tsm serve: ready \(vault .*\) — no index yet: run `tsm index`/m);
    await c.close();
  }, 30_000);

  it('exits with a clear message when the vault does not exist', () => {
    const r = tsm(['serve', '--vault', join(root, 'nope')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tsm: vault not found: /);
  });
});
