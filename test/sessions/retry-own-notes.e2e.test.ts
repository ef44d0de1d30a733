// An ingest that writes several notes (its note closed at its size, and continuations) and meets, at a later
// one, a file that appeared since it planned (NoteChangedError) runs once more. That second run compared the
// notes the first had already written with the state the first never saved, took each for a note its user
// had edited, left it so, and wrote the session again in new continuations. Now it knows them by what it
// wrote, and goes on past the file that appeared.
//
// The race is real: the built tsm ingests while this process, once it sees the first note replaced (the
// writes have begun), creates a note of its own where the last continuation goes, as a user's editor would
// (never over a file: `wx`).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, TSM, tsm } from '../helpers/cli.js';
import { longTranscript } from './helpers.js';

const SID = '66666666-2222-4333-8444-555555555555';
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-retry-own-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ingest = (vault: string, transcript: string) =>
  new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [TSM, '--vault', vault, 'ingest-session', transcript], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
  });
const tick = () => new Promise((r) => setImmediate(r));
const inode = (path: string) => statSync(path).ino;

/** Each prompt number of the session's notes, with the notes holding it. */
function promptsIn(sessions: string, mine: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const name of readdirSync(sessions).filter((n) => n !== mine)) {
    for (const m of readFileSync(join(sessions, name), 'utf8').matchAll(/^## (\d+)\. /gm)) out.set(Number(m[1]), [...(out.get(Number(m[1])) ?? []), name]);
  }
  return out;
}

it("a later note's write that meets a new file does not make the retry take the notes it wrote for the user's", async () => {
  assertBuilt();
  // Notes closed at 40 KB: 8 prompts (22 KB) make one open note; 300 make it closed and 20-odd continuations.
  const first = join(work, 'first');
  mkdirSync(join(first, '.tsm'), { recursive: true });
  writeFileSync(join(first, '.tsm', 'config.json'), JSON.stringify({ maxFileBytes: 40_000 }));
  const transcript = join(work, `${SID}.jsonl`);
  writeFileSync(transcript, longTranscript(SID, 8));
  expect(tsm(['--vault', first, 'ingest-session', transcript]).code).toBe(0);
  const [note] = readdirSync(join(first, 'sessions'));
  writeFileSync(transcript, longTranscript(SID, 300));

  // Where the last continuation goes, as an ingest without the race writes it.
  const plain = join(work, 'plain');
  cpSync(first, plain, { recursive: true });
  expect((await ingest(plain, transcript)).code).toBe(0);
  const names = readdirSync(join(plain, 'sessions'));
  expect(names.length).toBeGreaterThan(15);
  const last = note.replace(/\.md$/, `-${names.length}.md`);
  expect(names).toContain(last);

  let raced = 0;
  for (let round = 0; round < 6; round++) {
    const vault = join(work, `v${round}`);
    cpSync(first, vault, { recursive: true });
    const sessions = join(vault, 'sessions');
    const before = inode(join(sessions, note));
    const done = ingest(vault, transcript);
    let exited = false;
    void done.then(() => (exited = true));
    // The first note replaced: the plan is made, and its writes have begun.
    while (!exited && inode(join(sessions, note)) === before) await tick();
    const mine = join(sessions, last);
    let made = false;
    try {
      writeFileSync(mine, '# my own note\n', { flag: 'wx' });
      made = !exited;
    } catch {
      // tsm wrote it first: no race this round
    }
    const r = await done;
    expect(r.code).toBe(0);
    if (!made) continue;
    raced++;
    expect(readFileSync(mine, 'utf8')).toBe('# my own note\n');
    expect(r.stdout).not.toContain('left alone');
    const held = promptsIn(sessions, last);
    expect([...held.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect([...held].filter(([, in_]) => in_.length > 1), 'prompts written twice').toEqual([]);
    // The index was given every note the ingest wrote, the first run's too (the user's own is not one).
    const status = JSON.parse(tsm(['--vault', vault, 'status', '--json']).stdout);
    expect(status.warnings, JSON.stringify(status)).toBe(0);
    expect(status.notes).toBe(readdirSync(sessions).length - 1);
  }
  expect(raced, 'rounds whose file appeared after the writes began').toBeGreaterThan(0);
}, 120_000);
