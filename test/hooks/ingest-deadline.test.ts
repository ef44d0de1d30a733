// The session-note hooks (Stop, PreCompact, SessionEnd) keep a deadline of their own: a wait for another
// writer of the index, or for another ingest of the same transcript, gives up there. Before, Stop waited up
// to 10 minutes for the index (WRITER_WAIT_MS) and 20 s for the transcript's lock, past Claude Code's 30 s kill.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/hooks/deadline.js';
import { handleHook } from '../../src/hooks/dispatch.js';
import { stateKey } from '../../src/sessions/ingest.js';
import { FIXTURES, holdLock, logLines, release, request, silent, state, useFreshVault } from './hook-harness.js';

useFreshVault();

const SESSION = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';
const transcript = () => {
  const path = join(state.vault.dir, `${SESSION}.jsonl`);
  copyFileSync(join(FIXTURES, 'synthetic-session.jsonl'), path);
  return path;
};
const stop = (path: string) => ({ session_id: SESSION, cwd: state.vault.dir, hook_event_name: 'Stop', transcript_path: path });
const sessionNotes = () => readdirSync(join(state.vault.dir, 'sessions')).filter((f) => f.includes('7f3c2a91'));
/** A deadline of `ms` from now (the default counts 20 s from the start of the process). */
const soon = (ms: number) => new Deadline(ms, performance.now());

describe('the ingest deadline', () => {
  it('Stop writes the note and gives up indexing it when another writer holds the index past the deadline', async () => {
    const holder = await holdLock(state.vault.db, 'transaction');
    try {
      silent(await handleHook(request(stop(transcript()), { ingestDeadline: soon(600) })));
    } finally {
      await release(holder);
    }
    expect(sessionNotes()).toHaveLength(1);
    const lines = logLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/: 1 line is not a JSON object and was skipped \(first: line 29\)$/); // the fixture's invalid JSON line
    expect(lines[1]).toMatch(/wrote .*7f3c2a91.*; not indexed: the index at .* stayed locked by another writer .* past this run's deadline: .*`tsm index`/);
  });

  it("Stop gives up at its deadline on a transcript another live process is ingesting", async () => {
    const path = transcript();
    const lockDir = join(state.vault.dir, '.tsm', 'sessions');
    mkdirSync(lockDir, { recursive: true });
    // The lock ingest-and-index.ts takes for this transcript, held by a live process (this one).
    writeFileSync(join(lockDir, `${stateKey(path)}.lock`), String(process.pid));
    silent(await handleHook(request(stop(path), { ingestDeadline: soon(300) })));
    expect(logLines()[0]).toMatch(/is held by another tsm process/);
  });
});
