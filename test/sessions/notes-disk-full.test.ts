// An ingest that writes several notes (its note closed at its size, and continuations) on a disk that fills
// up before the last of them (a real tmpfs, filled to a few sizes short of full): it fails with one line
// naming the full disk, having placed none of them, and once there is room the next ingest writes the
// notes a clean ingest writes. Before, the notes were placed one by one: the first was replaced (closed)
// when a continuation found no room, the state kept the first note's older hash, and the next ingest took
// tsm's own notes for ones their user had edited ("left alone, edited since tsm wrote it") and wrote their
// prompts again in new continuations.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { useSmallDisk, type SmallDisk } from '../helpers/small-disk.js';
import { longTranscript } from './helpers.js';

const SID = '77777777-2222-4333-8444-555555555555';

let disk: SmallDisk;
let transcript: string;
/** The vault with the session's first 8 prompts in one open note (notes closed at 40 KB). */
let before: string;
/** Each note a clean ingest of 40 prompts writes, by name. */
let clean: Map<string, string>;

const notesOf = (vault: string) => new Map(readdirSync(join(vault, 'sessions')).map((n) => [n, readFileSync(join(vault, 'sessions', n), 'utf8')]));
// The index lives off the small disk: what is under test is the notes and the ingest state.
const ingest = (vault: string) => tsm(['--vault', vault, '--db', join(disk.root, `${vault.split('/').pop()}.db`), 'ingest-session', transcript]);

describe('a session written as several notes on a disk that fills up', { timeout: 120_000 }, () => {
  disk = useSmallDisk('2m', 'several session notes on a full disk');
  beforeAll(() => {
    if (!disk.mounted) return;
    const vaultAt = (name: string) => {
      const vault = join(disk.root, name);
      mkdirSync(join(vault, '.tsm'), { recursive: true });
      writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ maxFileBytes: 40_000 }));
      return vault;
    };
    transcript = join(disk.root, `${SID}.jsonl`);
    const ref = vaultAt('ref');
    writeFileSync(transcript, longTranscript(SID, 40));
    expect(ingest(ref).code).toBe(0);
    clean = notesOf(ref);
    expect(clean.size).toBeGreaterThan(2);

    before = vaultAt('before');
    writeFileSync(transcript, longTranscript(SID, 8));
    expect(ingest(before).code).toBe(0);
    expect(notesOf(before).size).toBe(1);
    writeFileSync(transcript, longTranscript(SID, 40)); // the session goes on: its note closes, continuations follow
  });

  it('places none of them, then writes all of them, none taken for edited, once there is room', (ctx) => {
    if (!disk.mounted) ctx.skip();
    const vault = join(disk.path, 'vault');
    const start = notesOf(before);
    let failed = 0;
    // The notes are 40 KB each, the state about as much again: from no room at all to room for everything.
    for (let freeKb = 0; freeKb <= 240; freeKb += 20) {
      disk.room();
      rmSync(vault, { recursive: true, force: true });
      cpSync(before, vault, { recursive: true });
      disk.fillAllBut(freeKb);
      const full = ingest(vault);
      if (full.code !== 0) {
        failed++;
        expect(full.stderr, `${freeKb} KiB free`).toMatch(/^tsm: [^\n]*the disk is full[^\n]*nothing is lost[^\n]*\n$/);
        expect(notesOf(vault), `${freeKb} KiB free: notes placed`).toEqual(start);
        expect(readdirSync(join(vault, 'sessions'), { recursive: true }).filter((n) => String(n).startsWith('.')), `${freeKb} KiB free: temp files left`).toEqual([]);
      }
      disk.room();
      const after = ingest(vault);
      expect(after.code, `${freeKb} KiB free, then room: ${after.stderr}`).toBe(0);
      expect(after.stdout, `${freeKb} KiB free, then room`).not.toContain('left alone');
      expect(notesOf(vault), `${freeKb} KiB free, then room`).toEqual(clean);
    }
    expect(failed, 'runs that found the disk full').toBeGreaterThan(2);
  });
});
