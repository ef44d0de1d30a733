// End to end: `tsm ingest-session` whose notes are written but whose index cannot take them (here the index
// file is a folder; a disk full or a lock held past the deadline go the same way). The notes are the user's
// result: each transcript's row is printed (text or --json), then the index's error, and the exit code is 1.
// Before, the error alone was printed: nothing said which notes had been written.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixtureText } from './helpers.js';

const ID = '491e126e-1e71-469c-ade2-fcc8af567c74';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-ingest-index-fails-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function setup(name: string): { vault: string; transcript: string } {
  const vault = join(work, name);
  mkdirSync(join(vault, '.tsm', 'index.db'), { recursive: true }); // not a plain file: no index can open
  const transcript = join(work, `${name}-${ID}.jsonl`);
  writeFileSync(transcript, fixtureText('claude-code-2.1.38-plan-subagent-session.jsonl'));
  return { vault, transcript };
}

it('prints what it wrote, then why the index did not take it, and exits 1', () => {
  const { vault, transcript } = setup('text');
  const r = tsm(['--vault', vault, 'ingest-session', transcript]);
  expect(r.code).toBe(1);
  const note = readdirSync(join(vault, 'sessions'));
  expect(note).toHaveLength(1);
  expect(r.stdout).toBe(`${transcript} → sessions/${note[0]} (2 prompts, written)\n`);
  expect(r.stderr).toMatch(/^tsm: .*index\.db is not a plain file \(a folder, FIFO or device\?\): move it aside and run `tsm index --vault \S+`\n$/);
});

it('--json: the transcripts and a null index on stdout, well-formed; the error on stderr', () => {
  const { vault, transcript } = setup('json');
  const r = tsm(['--vault', vault, 'ingest-session', '--json', transcript]);
  expect(r.code).toBe(1);
  const out = JSON.parse(r.stdout);
  expect(out.index).toBeNull();
  expect(out.transcripts).toHaveLength(1);
  expect(out.transcripts[0]).toMatchObject({ transcript, session_id: ID, prompts: 2, changed: true, error: null });
  expect(out.transcripts[0].note).toMatch(/^sessions\/.*\.md$/);
  expect(r.stderr).toMatch(/is not a plain file/);
});
