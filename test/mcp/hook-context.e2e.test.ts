// hook_context end to end: the BUILT `tsm serve`, driven by the SDK's MCP client over stdio as Claude Code's
// mcp_tool hook drives it, must answer exactly what the built `tsm hook` prints for the same payload, and
// answer `{}` (nothing injected, never an error) whatever goes wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { cleanEnv, copyVaultExample, TSM, tsm, tsmAsync, waitFor } from '../helpers/cli.js';
import { call } from './client.js';

/** The session of vault-example's session note (sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md). */
const SESSION = '3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34';
/** A prompt whose results include that session note when another session asks it. */
const ECHO_PROMPT = 'haversine distance unit bug receiver';

let root: string;
let vault: string;
const servers: { client: Client; stderr: () => string }[] = [];

function env(extra: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(cleanEnv(extra)).filter((e): e is [string, string] => e[1] !== undefined));
}

async function serve(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSM, 'serve', ...args], env: env(opts.env), cwd: opts.cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'hook-context-e2e', version: '1.0.0' });
  await client.connect(transport);
  const s = { client, stderr: () => stderr };
  servers.push(s);
  return s;
}

/** What Claude Code's mcp_tool hook sends: every ${field} filled from the payload, a missing one as ''. */
function hookInput(prompt: string, sessionId = 'e2e-session', cwd = vault): Record<string, string> {
  return { hook_event_name: 'UserPromptSubmit', prompt, session_id: sessionId, cwd };
}

async function commandHook(prompt: string, sessionId = 'e2e-session', cwd = vault): Promise<string> {
  const r = await tsmAsync(['hook'], { cwd, input: JSON.stringify(hookInput(prompt, sessionId, cwd)) });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

function sources(answer: string): string[] {
  const ctx = JSON.parse(answer).hookSpecificOutput?.additionalContext ?? '';
  return [...ctx.matchAll(/<source[^>]*>([^<]+)<\/source>/g)].map((m: RegExpMatchArray) => m[1]);
}

let warm: Client;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-hook-context-'));
  vault = join(root, 'vault');
  copyVaultExample(vault);
  const indexed = tsm(['index', '--vault', vault]);
  expect(indexed.code, indexed.stderr).toBe(0);
  warm = (await serve(['--vault', vault], { cwd: root })).client;
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.client.close();
  rmSync(root, { recursive: true, force: true });
});

describe('hook_context (the warm prompt hook)', () => {
  it('is listed, read-only, and says it is for the hook, not the model', async () => {
    const { tools } = await warm.listTools();
    const tool = tools.find((t) => t.name === 'hook_context');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(tool?.description).toMatch(/hook/);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['prompt', 'session_id', 'cwd', 'hook_event_name']));
  });

  it('answers exactly what `tsm hook` prints for the same payload: hook JSON with the <knowledge_search> block', async () => {
    for (const prompt of ['LoRa モジュールの選定基準を教えて', 'antenna gain', 'GPS の測位間隔と消費電力']) {
      const r = await call(warm, 'hook_context', hookInput(prompt));
      expect(r.isError).toBe(false);
      expect(r.json.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
      expect(r.json.hookSpecificOutput.additionalContext).toMatch(/^<knowledge_search query="/);
      expect(r.text).toBe(await commandHook(prompt));
    }
  });

  it("never echoes the session's own note, as the command hook does not", async () => {
    const other = await call(warm, 'hook_context', hookInput(ECHO_PROMPT, 'another-session'));
    expect(sources(other.text).some((p) => p.startsWith('sessions/'))).toBe(true);
    const own = await call(warm, 'hook_context', hookInput(ECHO_PROMPT, SESSION));
    expect(sources(own.text).filter((p) => p.startsWith('sessions/'))).toEqual([]);
    expect(own.text).toBe(await commandHook(ECHO_PROMPT, SESSION));
  });

  it('answers {} (nothing injected, no error) where the command hook prints nothing', async () => {
    for (const prompt of ['/compact', 'ok', '<command-output>x</command-output>', 'zzqxjv wkpfhy']) {
      const r = await call(warm, 'hook_context', hookInput(prompt));
      expect([r.isError, r.text], prompt).toEqual([false, '{}']);
      expect(await commandHook(prompt)).toBe('');
    }
    // Every ${field} empty (a payload without them), and no arguments at all.
    expect((await call(warm, 'hook_context', { hook_event_name: '', prompt: '', session_id: '', cwd: '' })).text).toBe('{}');
    expect((await call(warm, 'hook_context', {})).text).toBe('{}');
  });

  it('an event it does not answer: {} and a line in hook.log, as `tsm hook` logs one it does not handle', async () => {
    const log = join(vault, '.tsm', 'hook.log');
    rmSync(log, { force: true });
    for (const event of ['Stop', 'PreToolUse']) {
      const r = await call(warm, 'hook_context', { ...hookInput('LoRa module'), hook_event_name: event });
      expect([r.isError, r.text], event).toEqual([false, '{}']);
    }
    // Measured before: both answered {} and hook.log was never written.
    const logged = readFileSync(log, 'utf8');
    expect(logged).toMatch(/ Stop session=\S+: hook_context: ignored event "Stop" \(it answers UserPromptSubmit and SessionStart; Stop, PreCompact and SessionEnd are `tsm hook`'s, a command hook\)\n/);
    expect(logged).toMatch(/ PreToolUse session=\S+: hook_context: ignored event "PreToolUse" /);
  });

  it('a pasted prompt past the 10,000-character argument limit is searched by its head and tail, not refused', async () => {
    const prompt = `LoRa モジュールの選定基準は？\n${'x'.repeat(50_000)}\nアンテナは？`;
    const r = await call(warm, 'hook_context', hookInput(prompt));
    expect(r.isError).toBe(false);
    expect(r.text).toBe(await commandHook(prompt));
    expect(sources(r.text).length).toBeGreaterThan(0);
  });

  it('answers {} to bad arguments too, logs why in hook.log, and still lists them as strings', async () => {
    const { tools } = await warm.listTools();
    const schema = tools.find((t) => t.name === 'hook_context')?.inputSchema as any;
    for (const name of ['hook_event_name', 'prompt', 'session_id', 'cwd', 'source']) expect(schema.properties[name].type, name).toBe('string');
    expect(schema.required).toBeUndefined();
    const log = join(vault, '.tsm', 'hook.log');
    rmSync(log, { force: true });
    for (const args of [
      { prompt: 123 },
      { prompt: 'LoRa module', session_id: 'x'.repeat(20_000) },
      { ...hookInput('LoRa モジュールの選定基準'), cwd: { dir: vault } },
      { ...hookInput('LoRa モジュールの選定基準'), hook_event_name: ['UserPromptSubmit'] },
    ]) {
      const r = await call(warm, 'hook_context', args);
      expect([r.isError, r.text], JSON.stringify(args).slice(0, 80)).toEqual([false, '{}']);
    }
    const logged = readFileSync(log, 'utf8');
    expect(logged).toMatch(/UserPromptSubmit: hook_context: Input validation error: prompt: Expected string, received number; nothing injected\n/);
    expect(logged).toMatch(/UserPromptSubmit session=xxxxxxxx: hook_context: session_id is 20000 characters long; at most 10000 are accepted; nothing injected\n/);
    expect(logged).toMatch(/hook_context: Input validation error: cwd: /);
    expect(logged).toMatch(/hook_context: Input validation error: hook_event_name: /);
    // A 3 MB event name was written whole: one 3 MB line, which rotated the user's log to hook.log.1.
    const r = await call(warm, 'hook_context', { hook_event_name: 'X'.repeat(3_000_000), prompt: 'hello' });
    expect([r.isError, r.text]).toEqual([false, '{}']);
    const added = readFileSync(log, 'utf8').slice(logged.length);
    expect(existsSync(`${log}.1`)).toBe(false);
    expect(added).toMatch(/^\S+ X{64}… \(3000000 characters\): hook_context: hook_event_name is 3000000 characters long; at most 10000 are accepted; nothing injected\n$/);
    // A field it does not take is ignored: the prompt is answered as without it.
    const extra = await call(warm, 'hook_context', { ...hookInput('antenna gain'), extra: 'field' });
    expect(extra.text).toBe(await commandHook('antenna gain'));
    expect(servers[0].stderr()).toBe('');
  });

  it('stays read-only: events that write session notes answer {} and write nothing', async () => {
    const before = readdirSync(join(vault, 'sessions')).sort();
    for (const event of ['Stop', 'SessionEnd', 'PreCompact', 'PreToolUse']) {
      const r = await call(warm, 'hook_context', { hook_event_name: event, session_id: 'x', cwd: vault });
      expect([r.isError, r.text], event).toEqual([false, '{}']);
    }
    expect(readdirSync(join(vault, 'sessions')).sort()).toEqual(before);
  });

  it('SessionStart (after /clear or a compaction) gets the same recent context as the command hook', async () => {
    const payload = { hook_event_name: 'SessionStart', source: 'clear', session_id: 'e2e-session', cwd: join(root, 'dog-tracker-fw') };
    mkdirSync(payload.cwd, { recursive: true });
    const r = await call(warm, 'hook_context', payload);
    expect(r.json.hookSpecificOutput.additionalContext).toContain('tsm: recent context');
    // The command hook also starts a background sync; its answer is the same text.
    const cmd = await tsmAsync(['hook', '--vault', vault], { cwd: payload.cwd, input: JSON.stringify(payload) });
    expect(r.text).toBe(cmd.stdout.trim());
  });

  it('no index yet: {} and the reason in hook.log, like the command hook', async () => {
    const bare = join(root, 'bare');
    mkdirSync(join(bare, '.tsm'), { recursive: true });
    const { client, stderr } = await serve(['--vault', bare], { cwd: root });
    const r = await call(client, 'hook_context', hookInput('LoRa モジュールの選定基準', 's1', bare));
    expect([r.isError, r.text]).toEqual([false, '{}']);
    expect(readFileSync(join(bare, '.tsm', 'hook.log'), 'utf8')).toMatch(/UserPromptSubmit session=s1: no index at .*run `tsm index` first/);
    expect(stderr()).not.toMatch(/hook_context/);
  });

  it('an index an older tsm wrote: the prompt gets {} and starts the background `tsm index`, as the command hook does', async () => {
    const old = join(root, 'old-schema');
    copyVaultExample(old);
    expect(tsm(['index', '--vault', old]).code).toBe(0);
    const db = new Database(join(old, '.tsm', 'index.db'));
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    db.close();
    const { client } = await serve(['--vault', old], { cwd: root });
    const first = await call(client, 'hook_context', hookInput('LoRa モジュールの選定基準を教えて', 's4', old));
    expect([first.isError, first.text]).toEqual([false, '{}']);
    const log = join(old, '.tsm', 'hook.log');
    expect(readFileSync(log, 'utf8')).toMatch(/UserPromptSubmit session=s4: .*schema version 1.* \(a background `tsm index` started: the next prompts get results\)\n/);
    // The server's warm path gave `tsm serve` no way to start it: prompts got {} until a SessionStart or `tsm index`.
    await waitFor(async () => sources((await call(client, 'hook_context', hookInput('LoRa モジュールの選定基準を教えて', 's4', old))).text).length > 0, 30_000, 200);
    await waitFor(() => !existsSync(join(old, '.tsm', 'sync.lock')), 30_000);
    expect(readFileSync(log, 'utf8')).toMatch(/SessionStart session=s4: background index: \d+ added/);
  });

  // (With no vault at all `tsm serve` does not start: Claude Code's "server not connected", covered by
  // test/claude-e2e/claude-code.e2e.ts with the real CLI.)
  it('finds the vault from $TSM_VAULT, as the command hook does, when the server was given none', async () => {
    const project = join(root, 'project-with-env');
    mkdirSync(project);
    const { client } = await serve([], { cwd: project, env: { TSM_VAULT: vault } });
    const r = await call(client, 'hook_context', hookInput('antenna gain', 's3', project));
    expect(sources(r.text).length).toBeGreaterThan(0);
  });
});
