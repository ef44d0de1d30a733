// `tsm hook` in-process: SessionStart context and the Stop / PreCompact / SessionEnd ingest.
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/hooks/deadline.js';
import { handleHook } from '../../src/hooks/dispatch.js';
import { child, elements, parseXml, textOf } from '../format/xml-tree.js';
import { makeIndexedVault, SAMPLE_NOTES, type TestNote } from './fixture-index.js';
import { FIXTURES, injected, logLines, prompt, request, silent, state, useFreshVault } from './hook-harness.js';

useFreshVault();

describe('SessionStart', () => {
  const start = (source: string | undefined, extra: Record<string, unknown> = {}) => ({
    session_id: 'sess-2',
    transcript_path: '/nowhere/sess-2.jsonl',
    cwd: '/home/me/src/dog-tracker-fw',
    hook_event_name: 'SessionStart',
    ...(source === undefined ? {} : { source }),
    ...extra,
  });

  it('injects recent intents with action counts and a table of recent notes', async () => {
    const out = await handleHook(request(start('startup'), { vaultFlag: state.vault.dir }));
    const md = injected(out, 'SessionStart');
    expect(md).toContain('## tsm: recent context');
    expect(md).toContain('"直して、テストも追加して" → 3 actions');
    expect(md).toContain('"受信機の距離表示がおかしい" → 2 actions');
    expect(md).not.toContain('ありがとう'); // a turn without actions is conversation, not an intent
    expect(md).toContain('| daily/2026-11-19.md |');
    expect(md.indexOf('直して')).toBeLessThan(md.indexOf('受信機')); // later prompt first
    expect(md.split('\n').length).toBeLessThanOrEqual(50);
    expect(md.length).toBeLessThanOrEqual(4000);
  });

  it.each([undefined, 'resume', 'something-new'])('works with source %j', async (source) => {
    injected(await handleHook(request(start(source), { vaultFlag: state.vault.dir })), 'SessionStart');
  });

  it('compact and clear get a larger allowance than startup, within 50 lines and 4,000 characters', async () => {
    const many: TestNote[] = Array.from({ length: 80 }, (_, i) => ({
      path: `daily/2026-10-${String((i % 28) + 1).padStart(2, '0')}-${i}.md`,
      title: `Day note ${i} with a reasonably long title for the table`,
      type: 'daily',
      date: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`,
      sections: [{ heading: 'Log', level: 2, text: `entry ${i}` }],
    }));
    state.vault.cleanup();
    state.vault = await makeIndexedVault([...SAMPLE_NOTES, ...many]);
    const rows = (md: string) => md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| When')).length;
    const normal = injected(await handleHook(request(start('startup'), { vaultFlag: state.vault.dir })), 'SessionStart');
    for (const source of ['compact', 'clear']) {
      const recovery = injected(await handleHook(request(start(source), { vaultFlag: state.vault.dir })), 'SessionStart');
      expect(rows(recovery)).toBeGreaterThan(rows(normal));
      expect(recovery.split('\n').length).toBeLessThanOrEqual(50);
      expect(recovery.length).toBeLessThanOrEqual(4000);
    }
  });

  it('an empty index: no output, exit 0', async () => {
    state.vault.cleanup();
    state.vault = await makeIndexedVault([]);
    silent(await handleHook(request(start('startup'), { vaultFlag: state.vault.dir })));
    expect(logLines()).toEqual([]);
  });

  it('no index: no output, exit 0, logged', async () => {
    rmSync(state.vault.db);
    silent(await handleHook(request(start('startup'), { vaultFlag: state.vault.dir })));
    expect(logLines()[0]).toMatch(/SessionStart session=sess-2: no index/);
  });

  it('a deadline already passed: no output, logged', async () => {
    silent(await handleHook(request(start('startup'), { vaultFlag: state.vault.dir, deadline: new Deadline(50, 0, () => 1000) })));
    expect(logLines()[0]).toMatch(/deadline of 50 ms passed/);
  });
});

describe('Stop / PreCompact / SessionEnd', () => {
  const transcriptIn = (dir: string, name = 'synthetic-session.jsonl', as = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37.jsonl') => {
    const path = join(dir, as);
    copyFileSync(join(FIXTURES, name), path);
    return path;
  };
  const end = (event: string, transcript: string | undefined) => ({
    session_id: '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37',
    cwd: state.vault.dir,
    hook_event_name: event,
    ...(transcript === undefined ? {} : { transcript_path: transcript }),
    stop_hook_active: false,
    reason: 'exit',
    trigger: 'auto',
  });
  /** The warning for the synthetic transcript's invalid JSON line, logged by the first ingest that reads it. */
  const SKIPPED = /Stop session=7f3c2a91: .*7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37\.jsonl: 1 line is not a JSON object and was skipped \(first: line 29\)$/;
  // The notes the hooks wrote: the fixture's own sample session note is on disk too, and is not counted.
  const fixtureNotes = new Set(SAMPLE_NOTES.map((n) => n.path));
  const sessionNotes = () =>
    existsSync(join(state.vault.dir, 'sessions'))
      ? readdirSync(join(state.vault.dir, 'sessions')).filter((f) => f.endsWith('.md') && !fixtureNotes.has(`sessions/${f}`))
      : [];

  it.each(['Stop', 'PreCompact', 'SessionEnd'])('%s without transcript_path: no output, exit 0, logged', async (event) => {
    silent(await handleHook(request(end(event, undefined))));
    expect(logLines()[0]).toContain('no transcript_path');
  });

  it('a transcript_path that is not a .jsonl file is not read', async () => {
    const secret = join(state.vault.dir, 'secret.txt');
    writeFileSync(secret, 'password');
    silent(await handleHook(request(end('Stop', secret))));
    expect(logLines()[0]).toContain('not a .jsonl transcript');
    expect(sessionNotes()).toEqual([]);
  });

  it('a transcript that does not exist: no output, exit 0, logged', async () => {
    silent(await handleHook(request(end('Stop', join(state.vault.dir, 'gone.jsonl')))));
    // Said for the reader, as tsm's own errors are: no error class, no stack frame of the bundle.
    expect(logLines()).toHaveLength(1);
    expect(logLines()[0]).toMatch(/Stop session=\S+: cannot read transcript .*gone\.jsonl: no such file \(ENOENT\)$/);
  });

  it('without an index, Stop writes the session note and asks for `tsm index` instead of building one', async () => {
    rmSync(state.vault.db);
    const t = transcriptIn(state.vault.dir);
    silent(await handleHook(request(end('Stop', t))));
    expect(sessionNotes()).toHaveLength(1);
    expect(existsSync(state.vault.db)).toBe(false);
    expect(logLines()[0]).toMatch(SKIPPED);
    expect(logLines()[1]).toMatch(/no index at .* run `tsm index`/);
    // Again with nothing new: nothing written, nothing logged.
    silent(await handleHook(request(end('PreCompact', t))));
    expect(logLines()).toHaveLength(2);
  });

  it('with a corrupt index, Stop writes the note but leaves the index file alone (no rebuild inside a hook)', async () => {
    for (const suffix of ['-wal', '-shm']) rmSync(state.vault.db + suffix, { force: true });
    writeFileSync(state.vault.db, 'not a database');
    const t = transcriptIn(state.vault.dir);
    silent(await handleHook(request(end('Stop', t))));
    expect(sessionNotes()).toHaveLength(1);
    expect(readFileSync(state.vault.db, 'utf8')).toBe('not a database');
    expect(readdirSync(join(state.vault.dir, '.tsm')).filter((f) => f.includes('corrupt'))).toEqual([]);
    expect(logLines()[0]).toMatch(SKIPPED);
    expect(logLines()[1]).toMatch(/not indexed: .*index/);
  });

  it('SessionEnd without a transcript does not start a worker', async () => {
    const calls: unknown[] = [];
    silent(await handleHook(request(end('SessionEnd', undefined), { detach: (r) => calls.push(r) })));
    expect(calls).toEqual([]);
    expect(logLines()[0]).toContain('no transcript_path');
  });

  it('SessionEnd hands the work to a detached worker and returns at once', async () => {
    const t = transcriptIn(state.vault.dir);
    const calls: unknown[] = [];
    const out = await handleHook(request({ ...end('SessionEnd', t), last_assistant_message: 'x'.repeat(10_000) }, { detach: (r) => calls.push(r) }));
    expect(out).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(sessionNotes()).toEqual([]); // not done here
    expect(calls).toHaveLength(1);
    const call = calls[0] as { event: string; vault: string; payload: string };
    expect(call.event).toBe('SessionEnd');
    expect(call.vault).toBe(state.vault.dir);
    expect(JSON.parse(call.payload)).toMatchObject({ transcript_path: t, session_id: end('SessionEnd', t).session_id });
    expect(call.payload.length).toBeLessThan(1000);
  });

  it('the detached worker (TSM_HOOK_DETACHED=1) does the SessionEnd work itself', async () => {
    rmSync(state.vault.db);
    const t = transcriptIn(state.vault.dir);
    const calls: unknown[] = [];
    silent(await handleHook(request(end('SessionEnd', t), { detach: (r) => calls.push(r), env: { TSM_HOOK_DETACHED: '1' } })));
    expect(calls).toEqual([]);
    expect(sessionNotes()).toHaveLength(1);
  });

  it('Stop ingests the transcript and indexes the note, so the next prompt finds it', async () => {
    const t = transcriptIn(state.vault.dir);
    silent(await handleHook(request(end('Stop', t))));
    expect(sessionNotes()).toHaveLength(1);
    expect(logLines()).toEqual([expect.stringMatching(SKIPPED)]);
    const out = await handleHook(request(prompt('ranking bug rank.ts')));
    const paths = elements(parseXml(injected(out)), 'result').map((r) => textOf(child(r, 'source')));
    expect(paths.some((p) => p.startsWith('sessions/'))).toBe(true);
  });
});
