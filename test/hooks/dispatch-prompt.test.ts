// `tsm hook` in-process: UserPromptSubmit, vault resolution, stdin and event names.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/hooks/deadline.js';
import { handleHook } from '../../src/hooks/dispatch.js';
import { queryEcho } from '../../src/text/chars.js';
import { child, elements, parseXml, textOf } from '../format/xml-tree.js';
import { makeIndexedVault, type TestNote } from './fixture-index.js';
import { injected, logLines, prompt, request, silent, state, useFreshVault } from './hook-harness.js';

useFreshVault();

describe('UserPromptSubmit', () => {
  it('injects the <knowledge_search> XML for the prompt', async () => {
    const out = await handleHook(request(prompt('LoRa antenna range')));
    const xml = parseXml(injected(out));
    expect(xml.name).toBe('knowledge_search');
    expect(xml.attrs.query).toBe('LoRa antenna range');
    const results = elements(xml, 'result');
    expect(results.length).toBeGreaterThan(0);
    expect(Number(xml.attrs.count)).toBe(results.length);
    const paths = results.map((r) => textOf(child(r, 'source')));
    expect(paths).toContain('knowledge/lora/lora-module-guide.md');
    expect(results.every((r) => /^\d+\.\d{3}$/.test(r.attrs.score))).toBe(true);
    expect(out.stderr).toBe('');
    expect(logLines()).toEqual([]);
  });

  it('keeps note text with < > & " intact inside well-formed XML', async () => {
    const out = await handleHook(request(prompt('antenna gain quotes tags')));
    const xml = parseXml(injected(out));
    const snippets = elements(xml, 'result').map((r) => textOf(child(r, 'snippet')));
    expect(snippets.join('\n')).toContain('Antenna gain & "quotes" <tags>');
  });

  it("never injects the current session's own note, though another session gets it", async () => {
    const sources = async (sessionId: string) => {
      const out = await handleHook(request(prompt('sin に度のまま渡している geo.c の修正', { session_id: sessionId })));
      expect(out.exitCode).toBe(0);
      return out.stdout === '' ? [] : elements(parseXml(injected(out)), 'result').map((r) => textOf(child(r, 'source')));
    };
    const note = 'sessions/2026-11-20-dog-tracker-fw-3f9a2c1e.md';
    expect(await sources('0000aaaa-0000-0000-0000-000000000000')).toContain(note);
    expect(await sources('3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34')).not.toContain(note);
  });

  it('searches Japanese prompts', async () => {
    const xml = parseXml(injected(await handleHook(request(prompt('LoRa モジュールの選定')))));
    expect(textOf(child(elements(xml, 'result')[0], 'source'))).toBe('knowledge/lora/lora-module-guide.md');
  });

  it('takes at most $TSM_HOOK_TOP_K results', async () => {
    const out = await handleHook(request(prompt('LoRa range antenna receiver'), { env: { TSM_HOOK_TOP_K: '1' } }));
    expect(elements(parseXml(injected(out)), 'result')).toHaveLength(1);
  });

  it('spends at most $TSM_SNIPPET_BUDGET characters of snippets', async () => {
    const out = await handleHook(request(prompt('LoRa range antenna'), { env: { TSM_SNIPPET_BUDGET: '0' } }));
    const results = elements(parseXml(injected(out)), 'result');
    expect(results.every((r) => textOf(child(r, 'snippet')) === '')).toBe(true);
  });

  it.each([
    ['too short', 'ok'],
    ['too short after trimming', '  a \n'],
    ['two CJK characters', '進捗'],
    ['a slash command', '/compact keep the LoRa notes'],
    ['a slash command after spaces', '   /help'],
    ['XML-like input', '<command-name>LoRa</command-name>'],
    ['empty', ''],
    ['an acknowledgement', 'ok, thanks!'],
    ['a Japanese acknowledgement', 'ありがとうございます'],
    ['only a fenced code block', '```c\nint main(){return 0;}\n```'],
    ['a one-line shell command', '!git status'],
  ])('skips a prompt that is %s, with no output and no log', async (_why, text) => {
    const out = await handleHook(request(prompt(text)));
    silent(out);
    expect(out.stderr).toBe('');
    expect(logLines()).toEqual([]);
  });

  it('injects nothing when nothing matches (not even an empty element)', async () => {
    const out = await handleHook(request(prompt('zebra quantum marmalade')));
    silent(out);
    expect(logLines()).toEqual([]);
  });

  it('keeps a huge pasted prompt to a short query attribute and under 10,000 characters', async () => {
    const text = `LoRa antenna range ${'lorem ipsum dolor '.repeat(3000)} what about the whip antenna?`;
    const out = await handleHook(request(prompt(text)));
    const xml = parseXml(injected(out));
    expect([...xml.attrs.query].length).toBeLessThanOrEqual(200);
    expect(xml.attrs.query.endsWith('…')).toBe(true);
    expect(xml.attrs.query).toBe(queryEcho(text)); // the echo rule of tsm search and the MCP tools
  });

  it('drops results rather than go over 10,000 characters when the snippet budget is huge', async () => {
    const long: TestNote[] = Array.from({ length: 6 }, (_, i) => ({
      path: `knowledge/long-${i}.md`,
      title: `Long ${i}`,
      type: 'knowledge',
      date: '2026-11-01',
      sections: [{ heading: 'Body', level: 2, text: `telemetry ${'payload bytes '.repeat(400)}` }],
    }));
    state.vault.cleanup();
    state.vault = await makeIndexedVault(long);
    const out = await handleHook(request(prompt('telemetry payload'), { env: { TSM_SNIPPET_BUDGET: '100000' } }));
    const xml = parseXml(injected(out));
    expect(elements(xml, 'result').length).toBeGreaterThan(0);
  });

  it('logs a payload without a prompt and injects nothing', async () => {
    const { prompt: _drop, ...rest } = prompt('x');
    const out = await handleHook(request(rest));
    silent(out);
    expect(logLines()).toHaveLength(1);
    expect(logLines()[0]).toMatch(/UserPromptSubmit session=sess-1: the payload has no prompt/);
  });

  it('injects nothing once the deadline has passed, and logs why', async () => {
    const out = await handleHook(request(prompt('LoRa antenna'), { deadline: new Deadline(100, 0, () => 500) }));
    silent(out);
    expect(logLines().join('\n')).toMatch(/deadline of 100 ms passed before the search/);
  });

  it('injects nothing when the search itself runs past the deadline', async () => {
    let t = 0;
    const slowClock = () => (t += 400); // every look at the clock is 400 ms later: the search "took" too long
    const out = await handleHook(request(prompt('LoRa antenna'), { deadline: new Deadline(1000, 0, slowClock) }));
    silent(out);
    expect(logLines().join('\n')).toMatch(/deadline of 1000 ms passed after the search/);
  });
});

describe('vault resolution', () => {
  it('finds the vault from the payload cwd (a folder below the vault)', async () => {
    const sub = join(state.vault.dir, 'projects', 'fw');
    mkdirSync(sub, { recursive: true });
    const out = await handleHook(request(prompt('LoRa antenna', { cwd: sub }), { cwd: tmpdir() }));
    expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
  });

  it('uses --vault over the payload cwd', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tsm-novault-'));
    try {
      const out = await handleHook(request(prompt('LoRa antenna', { cwd: elsewhere }), { vaultFlag: state.vault.dir, cwd: elsewhere }));
      expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('uses $TSM_VAULT and $TSM_DB', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tsm-novault-'));
    try {
      const db = join(elsewhere, 'copy.db');
      copyFileSync(state.vault.db, db);
      rmSync(state.vault.db);
      const out = await handleHook(request(prompt('LoRa antenna', { cwd: elsewhere }), { env: { TSM_VAULT: state.vault.dir, TSM_DB: db }, cwd: elsewhere }));
      expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('gives no context, no log and no stderr in a project without a vault', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'tsm-novault-'));
    try {
      for (const event of ['UserPromptSubmit', 'SessionStart', 'Stop', 'SessionEnd']) {
        const out = await handleHook(request({ ...prompt('LoRa antenna'), hook_event_name: event, cwd: elsewhere }, { cwd: elsewhere }));
        expect(out).toEqual({ stdout: '', stderr: '', exitCode: 0 });
      }
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('falls back to the process cwd when the payload has none', async () => {
    const { cwd: _drop, ...rest } = prompt('LoRa antenna');
    const out = await handleHook(request(rest, { cwd: state.vault.dir }));
    expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
  });

  it('reports a --vault that does not exist on stderr (there is no log to write to), exit 0', async () => {
    const out = await handleHook(request(prompt('LoRa antenna'), { vaultFlag: join(state.vault.dir, 'missing') }));
    silent(out);
    expect(out.stderr).toMatch(/^tsm hook: .* UserPromptSubmit session=sess-1: vault not found: .*missing\n$/);
  });
});

describe('stdin and event', () => {
  it.each([
    ['empty stdin', '', /no hook payload on stdin/],
    ['whitespace', '\n  \n', /no hook payload on stdin/],
    ['malformed JSON', '{"hook_event_name": "UserPromptSubmit", "prompt": ', /not valid JSON/],
    ['a JSON array', '[]', /must be a JSON object/],
  ])('%s: message on stderr, exit 1 (never 2), nothing on stdout', async (_what, stdin, message) => {
    const out = await handleHook(request(stdin));
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(message);
    expect(out.stderr.startsWith('tsm hook: ')).toBe(true);
  });

  it('uses the event argument when the payload has no hook_event_name', async () => {
    const { hook_event_name: _drop, ...rest } = prompt('LoRa antenna');
    const out = await handleHook(request(rest, { eventArg: 'user-prompt-submit' }));
    expect(elements(parseXml(injected(out)), 'result').length).toBeGreaterThan(0);
  });

  it("prefers the payload's hook_event_name over the event argument", async () => {
    const out = await handleHook(request(prompt('LoRa antenna'), { eventArg: 'Stop' }));
    injected(out, 'UserPromptSubmit');
  });

  it('no event anywhere: exit 1 with a message', async () => {
    const out = await handleHook(request({ prompt: 'LoRa antenna', cwd: state.vault.dir }));
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(/no hook_event_name/);
  });

  it.each(['PreToolUse', 'Notification', 'SomethingNew'])('an event tsm does not handle (%s): no output, exit 0, one log line', async (event) => {
    const out = await handleHook(request({ ...prompt('LoRa antenna'), hook_event_name: event, tool_name: 'Bash' }));
    expect(out).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(logLines()).toHaveLength(1);
    expect(logLines()[0]).toContain(`ignored event "${event}"`);
  });
});
