// A session note its user renamed in its folder (as Obsidian renames) is followed, not taken for deleted:
// tsm wrote nothing more of the session once its note was gone from where tsm wrote it. Found again only
// when exactly one unrecorded note of the folder carries the session's id; a note truly deleted (or one
// of which two copies are left) still stops the session. The built tsm, the real 2.0.76 transcript.
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixtureText, longTranscript } from './helpers.js';

const SESSION = 'c45af7b1-cb7c-4e51-93db-8cbb250a877a';
const NOTE = '2026-01-02-workspace-c45af7b1.md';
const LINES = fixtureText('claude-code-2.0.76-main.jsonl').trimEnd().split('\n');
// Line 30 ends prompt 3's turn; prompts 4 and 5 (and the /compact) come after.
const [EARLY, LATER] = [LINES.slice(0, 30), LINES.slice(30)];

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-renamed-note-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A vault with the session's note written from its first 30 lines, and its transcript. */
function sessionVault(name: string): { vault: string; sessions: string; transcript: string; ingest: () => ReturnType<typeof tsm> } {
  const vault = join(work, name, 'vault');
  mkdirSync(vault, { recursive: true });
  const transcript = join(work, name, `${SESSION}.jsonl`);
  writeFileSync(transcript, EARLY.join('\n') + '\n');
  const ingest = () => tsm(['--vault', vault, 'ingest-session', transcript]);
  const first = ingest();
  expect(first.code, first.stderr).toBe(0);
  return { vault, sessions: join(vault, 'sessions'), transcript, ingest };
}

const grow = (transcript: string, lines: string[]) => appendFileSync(transcript, lines.join('\n') + '\n');

describe('a session note renamed by its user', () => {
  it('unchanged: tsm goes on writing it under its new name, and the search finds it there', () => {
    const { vault, sessions, transcript, ingest } = sessionVault('unchanged');
    renameSync(join(sessions, NOTE), join(sessions, 'Hello world session.md'));
    grow(transcript, LATER);
    const r = ingest();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${transcript} → sessions/Hello world session.md (6 prompts, written)\n`);
    expect(readdirSync(sessions)).toEqual(['Hello world session.md']);
    const note = readFileSync(join(sessions, 'Hello world session.md'), 'utf8');
    expect(note).toMatch(/^## 4\. can you run `cat nonexistent\.txt`$/m);
    expect(note).toMatch(/^## 6\. \/compact$/m);
    const found = tsm(['--vault', vault, 'search', '-f', 'json', 'nonexistent']);
    expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['sessions/Hello world session.md']);
    // Nothing new: nothing written, and still no note under the old name.
    expect(ingest().stdout).toBe(`${transcript} → sessions/Hello world session.md (6 prompts, unchanged)\n`);
    expect(readdirSync(sessions)).toEqual(['Hello world session.md']);
  });

  it('and edited: it is left alone, and the session goes on in a continuation of it', () => {
    const { sessions, transcript, ingest } = sessionVault('edited');
    renameSync(join(sessions, NOTE), join(sessions, 'mine.md'));
    appendFileSync(join(sessions, 'mine.md'), '\nmy own words\n');
    grow(transcript, LATER);
    const r = ingest();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${transcript} → sessions/mine-2.md (6 prompts, written; left alone, edited since tsm wrote it: sessions/mine.md)\n`);
    expect(readFileSync(join(sessions, 'mine.md'), 'utf8')).toMatch(/my own words\n$/);
    expect(readFileSync(join(sessions, 'mine-2.md'), 'utf8')).toMatch(/^continues: "mine\.md"$/m);
  });

  it('deleted, or left as two copies: the session stops, as before', () => {
    for (const [name, change] of [
      ['deleted', (s: string) => rmSync(join(s, NOTE))],
      ['two-copies', (s: string) => (copyFileSync(join(s, NOTE), join(s, 'a.md')), renameSync(join(s, NOTE), join(s, 'b.md')))],
    ] as const) {
      const { sessions, transcript, ingest } = sessionVault(name);
      change(sessions);
      const before = readdirSync(sessions).map((f) => [f, readFileSync(join(sessions, f), 'utf8')]);
      grow(transcript, LATER);
      const r = ingest();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${transcript}: sessions/${NOTE} was deleted, so tsm writes nothing more for this session\n`);
      expect(readdirSync(sessions).map((f) => [f, readFileSync(join(sessions, f), 'utf8')])).toEqual(before);
    }
  });
});

describe('a renamed session note is dated', () => {
  it("by its session's start, not by the day its file was last written", () => {
    const { vault, sessions } = sessionVault('dated');
    renameSync(join(sessions, NOTE), join(sessions, 'Hello world session.md'));
    expect(tsm(['--vault', vault, 'index']).code).toBe(0);
    const found = tsm(['--vault', vault, 'search', '-f', 'json', 'nonexistent']);
    const hits = JSON.parse(found.stdout) as { path: string; date: string }[];
    expect(hits.map((h) => [h.path, h.date])).toEqual([['sessions/Hello world session.md', '2026-01-02']]);
  });
});

/**
 * The vault as a tsm before renamedNote (before 2026-11-29) left it when its user had renamed the note: its
 * state records the note 'deleted' (path, sha256, prompts, kept, keptSince: the fields that tsm wrote,
 * checked by building it and renaming its note), with no `sought`, and the session stopped.
 */
function stoppedByOlderTsm(name: string, rename: (sessions: string) => void) {
  const v = sessionVault(name);
  rename(v.sessions);
  const statePath = join(v.vault, '.tsm', 'sessions', `${SESSION}.json`);
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  expect(state.notes).toHaveLength(1);
  Object.assign(state.notes[0], { kept: 'deleted', keptSince: '2026-11-20T09:00:00.000Z' });
  writeFileSync(statePath, JSON.stringify(state));
  grow(v.transcript, LATER);
  return v;
}

describe('a renamed session note an older tsm took for deleted', () => {
  it('is looked for once more: unchanged, tsm goes on writing it under its new name', () => {
    const { sessions, transcript, ingest } = stoppedByOlderTsm('older-unchanged', (s) => renameSync(join(s, NOTE), join(s, 'Hello world session.md')));
    const r = ingest();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${transcript} → sessions/Hello world session.md (6 prompts, written)\n`);
    expect(readdirSync(sessions)).toEqual(['Hello world session.md']);
    expect(readFileSync(join(sessions, 'Hello world session.md'), 'utf8')).toMatch(/^## 6\. \/compact$/m);
  });

  it('edited as well: left alone, and the session goes on in a continuation of it', () => {
    const { sessions, transcript, ingest } = stoppedByOlderTsm('older-edited', (s) => {
      renameSync(join(s, NOTE), join(s, 'mine.md'));
      appendFileSync(join(s, 'mine.md'), '\nmy own words\n');
    });
    const r = ingest();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${transcript} → sessions/mine-2.md (6 prompts, written; left alone, edited since tsm wrote it: sessions/mine.md)\n`);
    expect(readFileSync(join(sessions, 'mine.md'), 'utf8')).toMatch(/my own words\n$/);
  });

  it('truly deleted, two copies, or back under its old name: it stays deleted, and is not looked for again', () => {
    for (const [name, change] of [
      ['older-deleted', (s: string) => rmSync(join(s, NOTE))],
      ['older-two-copies', (s: string) => (copyFileSync(join(s, NOTE), join(s, 'a.md')), renameSync(join(s, NOTE), join(s, 'b.md')))],
      ['older-restored', (s: string) => copyFileSync(join(s, NOTE), join(s, 'a.md'))],
    ] as const) {
      const { sessions, transcript, ingest } = stoppedByOlderTsm(name, change);
      const before = readdirSync(sessions).map((f) => [f, readFileSync(join(sessions, f), 'utf8')]);
      const r = ingest();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, name).toBe(`${transcript}: sessions/${NOTE} was deleted, so tsm writes nothing more for this session\n`);
      expect(readdirSync(sessions).map((f) => [f, readFileSync(join(sessions, f), 'utf8')])).toEqual(before);
      // Looked for once: a copy left alone afterwards is not taken for the note.
      if (name === 'older-two-copies') {
        rmSync(join(sessions, 'a.md'));
        expect(ingest().stdout).toBe(`${transcript}: sessions/${NOTE} was deleted, so tsm writes nothing more for this session\n`);
        expect(readdirSync(sessions)).toEqual(['b.md']);
      }
    }
  });
});

describe('a session of several notes, its first renamed and its open continuation deleted', () => {
  it('counts the continuation deleted: the renamed first note is not taken for it, and the session stops', () => {
    const id = '88888888-2222-4333-8444-555555555555';
    const vault = join(work, 'parts', 'vault');
    mkdirSync(join(vault, '.tsm'), { recursive: true });
    writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ maxFileBytes: 40_000 }));
    const transcript = join(work, 'parts', `${id}.jsonl`);
    const ingest = () => tsm(['--vault', vault, 'ingest-session', transcript]);
    writeFileSync(transcript, longTranscript(id, 20));
    expect(ingest().code).toBe(0);
    const sessions = join(vault, 'sessions');
    expect(readdirSync(sessions).sort()).toEqual(['2026-01-02-proj-88888888-2.md', '2026-01-02-proj-88888888.md']);
    renameSync(join(sessions, '2026-01-02-proj-88888888.md'), join(sessions, 'My session.md'));
    rmSync(join(sessions, '2026-01-02-proj-88888888-2.md'));
    const mine = readFileSync(join(sessions, 'My session.md'), 'utf8');
    writeFileSync(transcript, longTranscript(id, 25));
    const r = ingest();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${transcript}: sessions/2026-01-02-proj-88888888-2.md was deleted, so tsm writes nothing more for this session\n`);
    expect(readdirSync(sessions)).toEqual(['My session.md']);
    expect(readFileSync(join(sessions, 'My session.md'), 'utf8')).toBe(mine);
  });
});
