// A session note written into a vault whose disk fills up (a real tmpfs, filled to a few pages short of
// full, at every size that splits the ingest's writes differently): `tsm ingest-session` exits 1 with one
// `tsm: …` line naming the full disk, and once there is room the next ingest writes the whole note, in
// place, equal to a clean ingest. Before: with room for the note but not for the ingest state, the note was
// written and the state kept its older record of it, so the next ingest took tsm's own note for one its
// user had edited, froze it, and went on in a `-2` note; and the error was printed raw (`ENOSPC: no space
// left on device, write`), in hook.log as a bug (`Error: ENOSPC … (at writeSync …)`).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureText } from '../sessions/helpers.js';
import { useSmallDisk, type SmallDisk } from '../helpers/small-disk.js';
import { runTsm } from './processes.js';

const SID = '11111111-2222-4333-8444-555555555555';
const NOTE = 'sessions/2026-01-01-tsm-demo-11111111.md';
const lines = fixtureText('synthetic-session.jsonl').split('\n').filter((l) => l !== '');
const part = (from: number, to: number) => lines.slice(from, to).map((l) => l + '\n').join('');

let disk: SmallDisk;
let transcript: string;
/** The vault after an ingest of the first half of the transcript (the session's note and state). */
let before: string;
/** The note a clean ingest of the whole transcript writes. */
let clean: string;

function ingest(vault: string) {
  // The index lives off the small disk: what is under test is the note and the ingest state.
  return runTsm(['ingest-session', '--vault', vault, '--db', join(disk.root, `${basename(vault)}.db`), transcript]);
}

describe('a session note on a full disk', { timeout: 120_000 }, () => {
  disk = useSmallDisk('1m', 'session note on a full disk');
  beforeAll(() => {
    if (!disk.mounted) return;
    const root = disk.root;
    const ref = join(root, 'ref');
    mkdirSync(ref);
    transcript = join(root, `${SID}.jsonl`);
    writeFileSync(transcript, part(0, lines.length));
    expect(runTsm(['ingest-session', '--vault', ref, transcript]).code).toBe(0);
    clean = readFileSync(join(ref, NOTE), 'utf8');

    before = join(root, 'before');
    mkdirSync(before);
    writeFileSync(transcript, part(0, Math.floor(lines.length / 2)));
    const first = ingest(before);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(before, NOTE), 'utf8')).not.toBe(clean);
    writeFileSync(transcript, part(0, lines.length)); // the session goes on
  });

  it('fails with one line naming the full disk, then writes the whole note in place once there is room', (ctx) => {
    if (!disk.mounted) ctx.skip();
    const vault = join(disk.path, 'vault');
    const outcomes = new Set<string>();
    // 0 to 24 KiB free: no room at all, room for the note but not the state (the case that split the
    // session), room for both (the note is 4 KiB, the state 8 KiB).
    for (let freeKb = 0; freeKb <= 24; freeKb += 4) {
      disk.room();
      rmSync(vault, { recursive: true, force: true });
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(disk.root, `vault.db${suffix}`), { force: true });
      cpSync(before, vault, { recursive: true });
      disk.fillAllBut(freeKb);
      const full = ingest(vault);
      outcomes.add(String(full.code));
      if (full.code !== 0) {
        expect(full.stderr, `${freeKb} KiB free`).toMatch(/^tsm: [^\n]*the disk is full[^\n]*free some space[^\n]*nothing is lost[^\n]*\n$/);
        expect(full.stderr).not.toMatch(/Error: |\(at /);
        const left = readdirSync(join(vault, 'sessions')).concat(readdirSync(join(vault, '.tsm', 'sessions')));
        expect(left.filter((name) => name.endsWith('.tmp')), `${freeKb} KiB free: temp files left`).toEqual([]);
      }
      disk.room();
      const after = ingest(vault);
      expect(after.code, `${freeKb} KiB free, then room: ${after.stderr}`).toBe(0);
      expect(after.stdout, `${freeKb} KiB free, then room`).toMatch(new RegExp(`→ ${NOTE} \\(5 prompts, (written|unchanged)\\)\\n$`));
      expect(readFileSync(join(vault, NOTE), 'utf8'), `${freeKb} KiB free, then room`).toBe(clean);
      expect(existsSync(join(vault, NOTE.replace(/\.md$/, '-2.md'))), `${freeKb} KiB free: a -2 note`).toBe(false);
    }
    expect([...outcomes].sort(), 'some runs failed, and the last one had room').toEqual(['0', '1']);
  });
});
