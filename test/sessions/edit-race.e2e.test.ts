// A user's edit of a session note made while `tsm ingest-session` (as the Stop hook) is writing it. tsm checked
// the note against what it last wrote, then rendered the note and wrote the ingest state, and only then
// replaced the note: tens of ms for a 700 KB note, and an edit landing in between was overwritten (of 12
// edits made 0–150 ms after the ingest took its lock, the 4 made 20–70 ms in). Now the note is checked again just before the rename
// (files.ts writeNoteFile), and the ingest, finding it changed, goes on in a continuation note.
//
// The race is real: a built tsm ingests while this process edits the note as an editor would (read, write
// whole), at stepped moments after the ingest's lock appears, in a loop. An edit counts as raced when the
// lock was there before it and still there after it: the ingest held it throughout. On a loaded machine this
// process may not run at all while the lock is held (~100 ms): it waited 20 s for a lock long gone, spinning
// on existsSync all along, and such misses took the test past its timeout (one miss was 20 of a 57 s run).
// Now the lock is waited for by an fs.watch event, the wait ends when the ingest does, and a moment whose
// edit did not race is tried again.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, TSM } from '../helpers/cli.js';
import { NoteChangedError, sha256, writeNoteFile } from '../../src/sessions/files.js';

const SID = '11111111-2222-4333-8444-555555555555';
const base = { isSidechain: false, userType: 'external', cwd: '/home/me/proj', sessionId: SID, version: '2.0.76', gitBranch: 'main' };
let clock = Date.parse('2026-01-02T10:00:00Z');
const at = () => new Date((clock += 1000)).toISOString();
const user = (text: string) => JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: text }, uuid: `u${clock}`, timestamp: at() });
const answer = (text: string) =>
  JSON.stringify({ ...base, type: 'assistant', message: { id: `m${clock}`, role: 'assistant', content: [{ type: 'text', text }] }, uuid: `a${clock}`, timestamp: at() });
const words = (n: number, k: number) => Array.from({ length: n }, (_, i) => `word${(i * 7 + k) % 1000}`).join(' ');

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-edit-race-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ingest = (vault: string, transcript: string) =>
  new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [TSM, '--vault', vault, 'ingest-session', transcript], { env: cleanEnv(), stdio: 'ignore' });
    child.on('close', resolve);
  });
const tick = () => new Promise((r) => setImmediate(r));
/** How far a file's ctime (the kernel's coarse clock: 1–10 ms a tick) may lag Date.now(). */
const TICK_MS = 10;

/**
 * Resolves true once `lock` is there, told by the kernel (fs.watch on its folder, set before the ingest
 * starts): a poll spinning on existsSync took a core from the ingest it waited for, on a machine of two.
 */
function lockSeen(lock: string): { promise: Promise<boolean>; close: () => void } {
  let close = () => {};
  const promise = new Promise<boolean>((resolve) => {
    const watcher = watch(dirname(lock), () => {
      if (existsSync(lock)) resolve(true);
    });
    close = () => watcher.close();
  });
  return { promise, close };
}

describe('a session note edited while an ingest writes it', () => {
  it('keeps the edit, whenever it lands', async () => {
    assertBuilt();
    // 250 prompts: a 700 KB note (under the 1 MB a note is closed at), slow enough to render to open the window.
    const lines: string[] = [];
    for (let i = 0; i < 250; i++) lines.push(user(`prompt ${i} ${words(200, i)}`), answer(`answer ${i} ${words(150, i)}`));
    const transcript = join(work, `${SID}.jsonl`);
    const first = join(work, 'first');
    mkdirSync(first);
    writeFileSync(transcript, lines.join('\n') + '\n');
    expect(await ingest(first, transcript)).toBe(0);
    const [name] = readdirSync(join(first, 'sessions'));
    const grown = lines.join('\n') + '\n' + user('one more prompt') + '\n' + answer('one more answer') + '\n';

    const lost: number[] = [];
    const atRename: number[] = [];
    const raced: number[] = [];
    const delays = Array.from({ length: 19 }, (_, i) => i * 5);
    for (const delay of delays) {
      for (let attempt = 0; attempt < 3 && !raced.includes(delay); attempt++) {
        const vault = join(work, `v${delay}-${attempt}`);
        cpSync(first, vault, { recursive: true });
        writeFileSync(transcript, grown);
        const note = join(vault, 'sessions', name);
        const lock = join(vault, '.tsm', 'sessions', `${SID}.lock`);
        let ended = false;
        const seen = lockSeen(lock);
        const done = ingest(vault, transcript).then((code) => ((ended = true), code));
        const sawLock = await Promise.race([seen.promise, done.then(() => false)]);
        seen.close();
        const locked = Date.now();
        while (Date.now() - locked < delay && !ended) await tick();
        const mark = `\nmy own line ${delay}\n`;
        const text = readFileSync(note, 'utf8') + mark;
        const writing = Date.now();
        writeFileSync(note, text);
        const written = Date.now();
        if (sawLock && existsSync(lock)) raced.push(delay);
        expect(await done).toBe(0);
        if (!readFileSync(note, 'utf8').includes(mark)) {
          // The rename stamps the note's ctime (the kernel's clock, which moves in ticks of up to 10 ms).
          const renamed = Number(statSync(note, { bigint: true }).ctimeNs / 1_000_000n);
          (writing <= renamed + TICK_MS && written >= renamed - TICK_MS ? atRename : lost).push(delay);
        }
        rmSync(vault, { recursive: true, force: true });
      }
    }
    expect(lost, `edits made this many ms after the ingest's lock were overwritten`).toEqual([]);
    // The window tsm leaves (files.ts replaceIfStill: between its last stat of the note and its rename, a few
    // µs) is told apart, not hidden: at most one such edit in a run (none in over 150 raced edits here), named.
    if (atRename.length > 0) console.warn(`edit-race: the edit made ${atRename.join(', ')} ms after the lock met tsm's rename itself (the window replaceIfStill leaves)`);
    expect(atRename.length, `edits lost at the instant of tsm's rename`).toBeLessThanOrEqual(1);
    // Else the loop proved nothing: edits made once the ingest was over are kept by any tsm.
    expect(raced.length, `edits that landed while the ingest held its lock (of ${delays.join(', ')} ms)`).toBeGreaterThanOrEqual(delays.length / 2);
  }, 300_000);
});

describe('writeNoteFile', () => {
  it('replaces a note only while it holds what tsm wrote, and creates one only where no file is', () => {
    const vault = join(work, 'unit');
    const note = join(vault, 'sessions', 'n.md');
    mkdirSync(join(vault, 'sessions'), { recursive: true });
    writeFileSync(note, 'tsm wrote this\n');
    const was = sha256('tsm wrote this\n');
    writeFileSync(note, 'tsm wrote this\nand the user this\n');
    expect(() => writeNoteFile(vault, note, 'new\n', { newSession: false, was })).toThrow(NoteChangedError);
    expect(() => writeNoteFile(vault, note, 'new\n', { newSession: false, was: null })).toThrow(NoteChangedError);
    expect(readFileSync(note, 'utf8')).toBe('tsm wrote this\nand the user this\n');
    expect(readdirSync(join(vault, 'sessions'))).toEqual(['n.md']);

    writeNoteFile(vault, note, 'new\n', { newSession: false, was: sha256('tsm wrote this\nand the user this\n') });
    expect(readFileSync(note, 'utf8')).toBe('new\n');
    const fresh = join(vault, 'sessions', 'fresh.md');
    writeNoteFile(vault, fresh, 'fresh\n', { newSession: true, was: null });
    expect(readFileSync(fresh, 'utf8')).toBe('fresh\n');
    expect(readdirSync(join(vault, 'sessions')).sort()).toEqual(['fresh.md', 'n.md']);
  });
});
