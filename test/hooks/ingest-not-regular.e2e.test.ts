// End to end, the built `tsm hook`: a session hook meets a FIFO (or a file) where ingest keeps its own files
// — the ingest state `.tsm/sessions/<sid>.json`, its lock `<sid>.lock`, the session note, the notes' folder.
// Opening the FIFO blocked the process: Stop was killed by Claude Code at 30 s, and SessionEnd's detached
// worker waited for good. Now each is one log line naming the file and the fix, at once, and exit 0.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tsm, type RunResult } from '../helpers/cli.js';
import { DETACHED_ENV, PAYLOAD_ENV } from '../../src/hooks/detach.js';
import { INGEST_DEADLINE_MS } from '../../src/hooks/dispatch.js';
import { logLines } from './hook-harness.js';

const SESSION = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';
/** Past the ingest deadline, short of a hang: the old code was killed here (code null). */
const KILL_MS = INGEST_DEADLINE_MS + 5_000;

let work: string;
let noteName: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-ingest-fifo-'));
  copyFileSync(join(ROOT, 'test', 'sessions', 'fixtures', 'synthetic-session.jsonl'), join(work, `${SESSION}.jsonl`));
  // The note's name (its date is local time): from one ingest as it goes when nothing is in the way.
  const v = vaultAt('name');
  expect(stop(v).code).toBe(0);
  noteName = readdirSync(join(v, 'sessions'))[0];
  expect(noteName).toMatch(/7f3c2a91\.md$/);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function vaultAt(name: string): string {
  const v = join(work, name);
  mkdirSync(join(v, '.tsm', 'sessions'), { recursive: true });
  return v;
}

const payload = (v: string, event: string) => JSON.stringify({ hook_event_name: event, session_id: SESSION, transcript_path: join(work, `${SESSION}.jsonl`), cwd: v });
const stop = (v: string, event = 'Stop'): RunResult & { ms: number } => {
  const started = Date.now();
  const r = tsm(['hook', '--vault', v], { cwd: v, input: payload(v, event), timeoutMs: KILL_MS });
  return { ...r, ms: Date.now() - started };
};
const mkfifo = (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0);

describe('a FIFO where a session hook keeps its files', () => {
  it.each([
    ['the ingest state', `.tsm/sessions/${SESSION}.json`, /tsm keeps this session's ingest state there: move it aside/],
    ['the ingest lock', `.tsm/sessions/${SESSION}.lock`, /tsm keeps a lock there: move it aside/],
    ['the session note', 'NOTE', /tsm keeps a session note there: move it aside/],
  ])('%s: Stop logs it and exits 0 at once', (_what, rel, why) => {
    const v = vaultAt(`fifo-${rel.replace(/\W/g, '_')}`);
    const path = join(v, rel === 'NOTE' ? join('sessions', noteName) : rel);
    mkdirSync(join(path, '..'), { recursive: true });
    mkfifo(path);
    const r = stop(v);
    expect(r.code, 'killed: the hook hung on the FIFO').toBe(0);
    expect(r.ms).toBeLessThan(INGEST_DEADLINE_MS);
    expect(r.stdout).toBe('');
    const lines = logLines(v);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path} is not a plain file`);
    expect(lines[0]).toMatch(why);
  }, KILL_MS + 5_000);

  it("a note tsm wrote, replaced by a FIFO: the next Stop logs it and leaves the FIFO where it is", () => {
    const v = vaultAt('fifo-written-note');
    expect(stop(v).code).toBe(0);
    const note = join(v, 'sessions', noteName);
    rmSync(note);
    mkfifo(note);
    const r = stop(v);
    expect(r.code, 'killed: the hook hung on the FIFO').toBe(0);
    expect(logLines(v).at(-1)).toContain(`${note} is not a plain file`);
    expect(spawnSync('test', ['-p', note]).status).toBe(0); // still the user's FIFO
  }, KILL_MS + 10_000);

  it("SessionEnd's detached worker logs it and ends", () => {
    const v = vaultAt('fifo-session-end');
    const state = join(v, '.tsm', 'sessions', `${SESSION}.json`);
    mkfifo(state);
    // The worker as the SessionEnd hook starts it: the payload in its environment, no stdin.
    const r = tsm(['hook', 'SessionEnd', '--vault', v], { cwd: v, env: { [DETACHED_ENV]: '1', [PAYLOAD_ENV]: payload(v, 'SessionEnd') }, timeoutMs: KILL_MS });
    expect(r.code, 'killed: the worker hung on the FIFO').toBe(0);
    expect(logLines(v)).toEqual([expect.stringContaining(`SessionEnd session=7f3c2a91: ${state} is not a plain file`)]);
  }, KILL_MS + 5_000);
});

describe('a file where the session notes folder goes', () => {
  it('is one log line naming it and the fix, not a bare ENOTDIR', () => {
    const v = vaultAt('sessions-file');
    writeFileSync(join(v, 'sessions'), 'my own file\n');
    const r = stop(v);
    expect(r.code).toBe(0);
    const lines = logLines(v);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${join(v, 'sessions')} is not a folder, and tsm writes its files into a folder of that name: move it aside`);
    expect(lines[0]).not.toMatch(/ENOTDIR|writeFileSync|node:fs/);
  });
});
