// End to end: a sub-agent's transcript named to `tsm ingest-session` (Claude Code 2.1's
// `<session id>/subagents/agent-<id>.jsonl`, lines `isSidechain: true` carrying the parent session's id) is
// refused, naming the session's own transcript, and leaves that session's ingest state and note as they
// were. It was keyed by the parent's session id and took the state over (its path, offset and model of 0
// prompts): the session's next ingest read its whole transcript again.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixturePath } from './helpers.js';

const SESSION = 'c45af7b1-cb7c-4e51-93db-8cbb250a877a';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-sub-agent-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('tsm ingest-session: a sub-agent transcript named on its own', () => {
  it("is refused with the session's transcript named, and the session's state and note stay as they were", () => {
    const vault = join(work, 'vault');
    const project = join(work, 'projects', '-workspace');
    const agents = join(project, SESSION, 'subagents');
    mkdirSync(vault, { recursive: true });
    mkdirSync(agents, { recursive: true });
    const parent = join(project, `${SESSION}.jsonl`);
    const agent = join(agents, 'agent-af1ff21.jsonl');
    copyFileSync(fixturePath('claude-code-2.0.76-main.jsonl'), parent);
    copyFileSync(fixturePath('claude-code-2.0.76-sidechain.jsonl'), agent);

    const first = tsm(['--vault', vault, 'ingest-session', parent]);
    expect(first.code, first.stderr).toBe(0);
    const stateDir = join(vault, '.tsm', 'sessions');
    const statePath = join(stateDir, `${SESSION}.json`);
    const state = readFileSync(statePath, 'utf8');
    const note = join(vault, 'sessions', '2026-01-02-workspace-c45af7b1.md');
    const noteText = readFileSync(note, 'utf8');

    const r = tsm(['--vault', vault, 'ingest-session', agent]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`cannot ingest transcript ${agent}: it is sub-agent af1ff21's, of session ${SESSION}`);
    expect(r.stderr).toContain(`: ingest ${parent}\n`);
    expect(readFileSync(statePath, 'utf8')).toBe(state);
    expect(readFileSync(note, 'utf8')).toBe(noteText);
    expect(readdirSync(stateDir).filter((f) => f.endsWith('.json'))).toEqual([`${SESSION}.json`]);

    // The session's own transcript is still read from where it was: nothing new, nothing written.
    const again = tsm(['--vault', vault, 'ingest-session', '--json', parent]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).transcripts[0]).toMatchObject({ changed: false, prompts: 6, written: [] });
    expect(readFileSync(statePath, 'utf8')).toBe(state);
  });
});

describe('tsm ingest-session: a sub-agent transcript of another name in a folder', () => {
  // A copy or a fixture (the real sidechain sample's own name upstream is sample_agent_sidechain.jsonl) is not
  // `agent-*.jsonl`, so the folder walk listed it; it failed the run (exit 1) with an error telling to ingest
  // the session's transcript, which the same run had just ingested from the same folder.
  it('is skipped as agent-*.jsonl is: the run exits 0, the session is ingested, nothing is said of the agent', () => {
    const dir = join(work, 'copies');
    const vault = join(work, 'vault-copies');
    mkdirSync(dir, { recursive: true });
    mkdirSync(vault, { recursive: true });
    copyFileSync(fixturePath('claude-code-2.0.76-main.jsonl'), join(dir, 'claude-code-2.0.76-main.jsonl'));
    const agent = join(dir, 'claude-code-2.0.76-sidechain.jsonl');
    copyFileSync(fixturePath('claude-code-2.0.76-sidechain.jsonl'), agent);

    const r = tsm(['--vault', vault, 'ingest-session', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(dir, 'claude-code-2.0.76-main.jsonl')} → sessions/2026-01-02-workspace-c45af7b1.md (6 prompts, written)\n`);
    expect(r.stderr).not.toContain('sidechain');
    const json = tsm(['--vault', vault, 'ingest-session', '--json', dir]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).transcripts.map((t: { transcript: string }) => t.transcript)).toEqual([join(dir, 'claude-code-2.0.76-main.jsonl')]);
    expect(readdirSync(join(vault, '.tsm', 'sessions')).filter((f) => f.endsWith('.json'))).toEqual([`${SESSION}.json`]);

    // Named, it is still refused, with the error.
    const named = tsm(['--vault', vault, 'ingest-session', dir, agent]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain(`cannot ingest transcript ${agent}: it is sub-agent af1ff21's`);
  });
});
