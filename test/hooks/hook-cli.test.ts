// End to end: the built `tsm` as Claude Code runs it, against a copy of vault-example.
import { removeTree } from '../helpers/remove-tree.js';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVaultExample, ROOT, type RunResult, tsm, tsmAsync, waitFor } from '../helpers/cli.js';
import { child, elements, parseXml, textOf } from '../format/xml-tree.js';
import { holdLock, release } from './hook-harness.js';

const FIXTURES = join(ROOT, 'test', 'sessions', 'fixtures');
const SESSION = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';

let work: string;
let vault: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-hook-cli-'));
  vault = join(work, 'vault');
  copyVaultExample(vault);
  rmSync(join(vault, '.tsm'), { recursive: true, force: true });
  expect(tsm(['init'], { cwd: vault }).code).toBe(0);
  const indexed = tsm(['index'], { cwd: vault });
  expect(indexed.code, indexed.stderr).toBe(0);
}, 60_000);
afterAll(() => removeTree(work));

const hook = (payload: unknown, opts: { args?: string[]; cwd?: string; env?: Record<string, string> } = {}): RunResult =>
  tsm(['hook', ...(opts.args ?? [])], {
    cwd: opts.cwd ?? vault,
    env: opts.env,
    input: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const promptPayload = (prompt: string, cwd = vault) => ({
  session_id: SESSION,
  transcript_path: join(work, `${SESSION}.jsonl`),
  cwd,
  hook_event_name: 'UserPromptSubmit',
  prompt,
});

function context(r: RunResult, event: string): string {
  expect(r.code, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(json.hookSpecificOutput.hookEventName).toBe(event);
  expect(r.stdout.length).toBeLessThanOrEqual(10_000);
  return json.hookSpecificOutput.additionalContext;
}

const logOf = (dir: string) => {
  const p = join(dir, '.tsm', 'hook.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

describe('tsm hook UserPromptSubmit', () => {
  it('prints the seed-000 XML as additionalContext, well-formed for a strict parser', () => {
    const xml = parseXml(context(hook(promptPayload('LoRa モジュールの選定基準は？')), 'UserPromptSubmit'));
    expect(xml.name).toBe('knowledge_search');
    const results = elements(xml, 'result');
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(5);
    expect(Number(xml.attrs.count)).toBe(results.length);
    expect(Number(xml.attrs.total)).toBeGreaterThanOrEqual(results.length);
    for (const r of results) {
      expect(textOf(child(r, 'source'))).toMatch(/\.md$/);
      expect(child(r, 'source')?.attrs.type).toMatch(/^(daily|knowledge|session)$/);
      expect(textOf(child(r, 'section')).length).toBeGreaterThan(0);
    }
  });

  it('finds the vault from a project folder below it', () => {
    const project = join(vault, 'code', 'fw');
    mkdirSync(project, { recursive: true });
    const xml = parseXml(context(hook(promptPayload('battery life sleep current', project), { cwd: tmpdir() }), 'UserPromptSubmit'));
    expect(elements(xml, 'result').length).toBeGreaterThan(0);
  });

  it('skips short prompts, slash commands and <…> prompts without output', () => {
    for (const prompt of ['ok', '/clear', '<bash-input>ls</bash-input>']) {
      const r = hook(promptPayload(prompt));
      expect(r).toMatchObject({ code: 0, stdout: '' });
    }
  });

  it('injects nothing for acknowledgements, code alone and ! lines, but searches a prompt with another word', () => {
    // Each of these injected 1–5 unrelated notes of vault-example before they were skipped.
    const skipped = [
      'ok, thanks!', 'continue', 'go ahead', 'done?', 'fix it', 'try again', 'looks good, commit it',
      'ありがとう', 'なるほど', 'よろしく', '続けて', 'OK です',
      '```c\nint main(){return 0;}\n```', '!git status',
    ];
    for (const prompt of skipped) expect(hook(promptPayload(prompt)), prompt).toMatchObject({ code: 0, stdout: '' });
    for (const prompt of ['continue the antenna test', 'thanks, now check the LoRa range', 'ありがとう、アンテナの利得は？']) {
      expect(elements(parseXml(context(hook(promptPayload(prompt)), 'UserPromptSubmit')), 'result').length, prompt).toBeGreaterThan(0);
    }
    expect(logOf(vault)).not.toMatch(/acknowledgement|fenced/);
  });

  it('honours the event argument when the payload has none', () => {
    const { hook_event_name: _drop, ...payload } = promptPayload('antenna gain');
    context(hook(payload, { args: ['UserPromptSubmit'] }), 'UserPromptSubmit');
  });

  it('reads a payload far larger than one pipe buffer whole (a long pasted prompt)', () => {
    const prompt = `LoRa antenna range test. ${'ログを貼り付けます: sensor reading 42 ok. '.repeat(6000)}`;
    expect(Buffer.byteLength(JSON.stringify(promptPayload(prompt)))).toBeGreaterThan(256 * 1024);
    const xml = parseXml(context(hook(promptPayload(prompt)), 'UserPromptSubmit'));
    expect(elements(xml, 'result').length).toBeGreaterThan(0);
  });

  // README, "Configuration": a relative path is read from the current folder, so a $TSM_VAULT that
  // `tsm search` finds from the project is found by the hook run there, whatever folder the session is in
  // (the payload's cwd; it was read from that, and the hook said "vault not found").
  it('reads a relative $TSM_VAULT from its own folder, not from the session folder of the payload', () => {
    const project = join(work, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    const r = hook(promptPayload('LoRa モジュールの選定基準は？', join(project, 'src')), { cwd: project, env: { TSM_VAULT: '../vault' } });
    expect(parseXml(context(r, 'UserPromptSubmit')).name).toBe('knowledge_search');
  });

  it('injects nothing past a tiny TSM_HOOK_TIMEOUT_MS, exit 0, and logs it', () => {
    const before = logOf(vault);
    const r = hook(promptPayload(`LoRa range ${'antenna battery sleep current '.repeat(200)}`), { env: { TSM_HOOK_TIMEOUT_MS: '50' } });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(logOf(vault).slice(before.length)).toMatch(/deadline of 50 ms passed/);
  });
});

describe('tsm hook SessionStart', () => {
  it('prints a compact recent context, with the intents of this project\'s sessions only', () => {
    // The example vault's session ran in a project folder named dog-tracker-fw.
    const start = (cwd: string) =>
      context(hook({ session_id: SESSION, cwd, hook_event_name: 'SessionStart', source: 'startup' }, { env: { TSM_VAULT: vault } }), 'SessionStart');
    expect(start('/home/u/other-project')).not.toContain('### Recent intents');
    const md = start('/home/u/dog-tracker-fw');
    expect(md).toMatch(/^## tsm: recent context/);
    expect(md).toContain('### Recent intents');
    expect(md.split('\n').length).toBeLessThanOrEqual(50);
    expect(md.length).toBeLessThanOrEqual(4000);
  });
});

describe('tsm hook: failing open and failing clearly', () => {
  it.each([
    ['empty stdin', ''],
    ['malformed JSON', '{"hook_event_name": "UserPromptSubmit", "prompt": "Lo'],
    ['not an object', '"UserPromptSubmit"'],
  ])('%s: a message on stderr, exit 1 (never 2), no stdout', (_what, input) => {
    // What a bad payload is told, not the deadline: on a machine loaded enough that Node takes the whole 1.5 s
    // to start, the deadline passed with the read of stdin's end still waiting (SIGKILL, as designed; CI, 2026-11-29).
    const r = hook(input, { env: { TSM_HOOK_TIMEOUT_MS: '20000' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tsm hook: /);
  });

  it('an unknown flag is ignored (and logged): the hook still answers, exit 0', () => {
    const r = hook(promptPayload('antenna'), { args: ['--no-such-flag'] });
    expect(r.code).toBe(0);
    expect(context(r, 'UserPromptSubmit')).toContain('<knowledge_search');
    expect(logOf(vault)).toContain('ignored arguments: "--no-such-flag"');
  });

  it('an unknown event: no output, exit 0', () => {
    const r = hook({ ...promptPayload('antenna'), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });

  it('a project without a vault: no output, exit 0, nothing written', () => {
    const bare = mkdtempSync(join(tmpdir(), 'tsm-bare-'));
    try {
      const r = hook(promptPayload('antenna gain', bare), { cwd: bare });
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(readdirSync(bare)).toEqual([]);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('no index, or a corrupt one: no output, exit 0, one line in hook.log', () => {
    const v = join(work, 'broken');
    mkdirSync(join(v, '.tsm'), { recursive: true });
    const r1 = hook(promptPayload('antenna gain', v), { cwd: v });
    expect(r1).toMatchObject({ code: 0, stdout: '' });
    expect(logOf(v).trim().split('\n')).toHaveLength(1);
    writeFileSync(join(v, '.tsm', 'index.db'), 'this is not a database, just text that looks nothing like SQLite'.repeat(100));
    const r2 = hook(promptPayload('antenna gain', v), { cwd: v });
    expect(r2).toMatchObject({ code: 0, stdout: '' });
    expect(logOf(v).trim().split('\n')).toHaveLength(2);
  });

  it('an index held in an exclusive lock by a writer: no output, exit 0, within the deadline', async () => {
    const holder = await holdLock(join(vault, '.tsm', 'index.db'), 'exclusive');
    try {
      const started = Date.now();
      const r = await tsmAsync(['hook'], { cwd: vault, input: JSON.stringify(promptPayload('antenna gain')), env: { TSM_HOOK_TIMEOUT_MS: '400' } });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await release(holder);
    }
  });
});

describe('tsm hook Stop / SessionEnd: session notes', () => {
  const searchPaths = (query: string) => {
    const r = tsm(['search', '-f', 'json', '--type', 'session', query], { cwd: vault });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
  };

  it('Stop writes the session note and indexes it', () => {
    const transcript = join(work, `${SESSION}.jsonl`);
    cpSync(join(FIXTURES, 'synthetic-session.jsonl'), transcript);
    const r = hook({ session_id: SESSION, transcript_path: transcript, cwd: vault, hook_event_name: 'Stop', stop_hook_active: false });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const notes = readdirSync(join(vault, 'sessions')).filter((f) => f.includes(SESSION.slice(0, 8)));
    expect(notes).toHaveLength(1);
    expect(searchPaths('ranking bug')).toContain(`sessions/${notes[0]}`);
  });

  it('Stop records in the hook log the transcript lines that are not JSON objects, each once, and writes the rest', () => {
    const id = '5a0c9e2b-3d4f-4a1b-8c7d-6e5f4a3b2c1d';
    const transcript = join(work, `${id}.jsonl`);
    const real = readFileSync(join(FIXTURES, 'claude-code-2.0.76-main.jsonl'), 'utf8').trimEnd().split('\n');
    const stop = () => hook({ session_id: id, transcript_path: transcript, cwd: vault, hook_event_name: 'Stop', stop_hook_active: false });
    const warnings = () => logOf(vault).split('\n').filter((l) => l.includes(transcript));
    // Line 11 is something else printed into the file; line 12 a JSON number.
    writeFileSync(transcript, [...real.slice(0, 10), 'Killed', '42', ...real.slice(10, 40)].map((l) => `${l}\n`).join(''));
    expect(stop()).toMatchObject({ code: 0, stdout: '' });
    expect(warnings()).toEqual([expect.stringMatching(new RegExp(`Stop session=5a0c9e2b: ${transcript}: 2 lines are not JSON objects and were skipped \\(first: line 11\\)$`))]);
    // More lines, one of them junk (line 50), and a last line cut mid-write: only line 50 is new to tell.
    appendFileSync(transcript, [...real.slice(40, 47), '<html>', ...real.slice(47, 62)].map((l) => `${l}\n`).join('') + real[62].slice(0, 100));
    expect(stop()).toMatchObject({ code: 0, stdout: '' });
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatch(/: 1 line is not a JSON object and was skipped \(first: line 50\)$/);
    appendFileSync(transcript, `${real[62].slice(100)}\n`);
    expect(stop()).toMatchObject({ code: 0, stdout: '' });
    expect(warnings()).toHaveLength(2);
    const notes = readdirSync(join(vault, 'sessions')).filter((f) => f.includes(id.slice(0, 8)));
    expect(notes).toHaveLength(1);
    expect(readFileSync(join(vault, 'sessions', notes[0]), 'utf8')).toContain('## 5.'); // all five prompts
  });

  it('SessionEnd returns within 1 s and a detached worker writes and indexes the note', async () => {
    const id = '491e126e-1e71-469c-ade2-fcc8af567c74';
    const transcript = join(work, `${id}.jsonl`);
    cpSync(join(FIXTURES, 'claude-code-2.1.38-plan-subagent-session.jsonl'), transcript);
    const started = Date.now();
    const r = await tsmAsync(['hook'], {
      cwd: vault,
      input: JSON.stringify({ session_id: id, transcript_path: transcript, cwd: vault, hook_event_name: 'SessionEnd', reason: 'exit' }),
    });
    const took = Date.now() - started;
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(took).toBeLessThan(1000);
    const noteOf = () => readdirSync(join(vault, 'sessions')).find((f) => f.includes(id.slice(0, 8)));
    await waitFor(() => noteOf() !== undefined, 15_000);
    await waitFor(() => tsm(['search', '-f', 'json', '--type', 'session', 'plan'], { cwd: vault }).stdout.includes(noteOf() as string), 15_000);
  }, 40_000);
});

describe('tsm ingest-session', () => {
  it('turns a folder of transcripts into session notes, once', () => {
    const dir = join(work, 'transcripts');
    mkdirSync(join(dir, 'proj'), { recursive: true });
    cpSync(join(FIXTURES, 'claude-code-2.0.76-main.jsonl'), join(dir, 'proj', 'c45af7b1-cb7c-4e51-93db-8cbb250a877a.jsonl'));
    cpSync(join(FIXTURES, 'claude-code-2.0.76-sidechain.jsonl'), join(dir, 'proj', 'agent-af1ff21.jsonl'));
    const first = tsm(['ingest-session', dir], { cwd: vault });
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines).toHaveLength(1); // the sub-agent transcript is part of its session
    expect(lines[0]).toMatch(/→ sessions\/\d{4}-\d{2}-\d{2}-workspace-c45af7b1\.md \(\d+ prompts, written\)$/);
    const second = tsm(['ingest-session', '--json', dir], { cwd: vault });
    expect(second.code, second.stderr).toBe(0);
    const json = JSON.parse(second.stdout) as { transcripts: { changed: boolean; note: string; session_id: string }[]; index: unknown };
    expect(json.transcripts).toEqual([expect.objectContaining({ changed: false, session_id: 'c45af7b1-cb7c-4e51-93db-8cbb250a877a' })]);
    expect(json.index).toBeNull();
  });

  it('says a file with no prompt may not be a transcript at all, and writes nothing', () => {
    const notes = join(work, 'notes.md');
    writeFileSync(notes, '# Not a transcript\n\nJust markdown.\n');
    const r = tsm(['ingest-session', notes], { cwd: vault });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${notes}: no prompt in it (a session with none yet, or not a Claude Code transcript), no note written\n`);
  });

  it('reports a missing transcript and exits 1, still ingesting the others', () => {
    const t = join(work, 'other.jsonl');
    cpSync(join(FIXTURES, 'synthetic-nasty-values.jsonl'), t);
    const r = tsm(['ingest-session', join(work, 'missing.jsonl'), t], { cwd: vault });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing.jsonl: no such file or folder');
    expect(r.stdout).toContain('other.jsonl');
  });
});

describe('tsm init --claude', () => {
  // Claude Code's own config (local-scope MCP servers) goes to a folder of the test's, never ~/.claude.json.
  const claudeEnv = () => ({ CLAUDE_CONFIG_DIR: join(work, 'claude-config') });

  it('wires the project, idempotently', () => {
    const project = join(work, 'project');
    mkdirSync(project, { recursive: true });
    const r1 = tsm(['init', '--claude', '--shared', '--vault', vault], { cwd: project, env: claudeEnv() });
    expect(r1.code, r1.stderr).toBe(0);
    const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    const mcp = readFileSync(join(project, '.mcp.json'), 'utf8');
    expect(JSON.parse(settings).hooks.UserPromptSubmit[0].hooks[0]).toEqual({ type: 'command', command: `tsm hook --vault ${vault}`, timeout: 5 });
    const r2 = tsm(['init', '--claude', '--shared', '--vault', vault], { cwd: project, env: claudeEnv() });
    expect(r2.code).toBe(0);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    expect(readFileSync(join(project, '.mcp.json'), 'utf8')).toBe(mcp);
  });

  it('leaves an invalid settings.local.json untouched and says so', () => {
    const project = join(work, 'bad-project');
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{ "hooks": ');
    const r = tsm(['init', '--claude', '--vault', vault], { cwd: project, env: claudeEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/settings\.local\.json is not valid JSON/);
    expect(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')).toBe('{ "hooks": ');
    expect(existsSync(join(work, 'claude-config', '.claude.json'))).toBe(false);
  });
});
