// `sessionsDir` changed (in .tsm/config.json, or TSM_SESSIONS_DIR) while a session goes on: its note is
// updated where it is, new sessions go to the new folder, and nothing is moved or deleted. It was taken for
// a note its user deleted: "… was deleted, so tsm writes nothing more for this session", for good (the state
// recorded it), and `tsm status` / `tsm doctor` listed it as deleted.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript, keptNotes, type IngestOptions } from '../../src/sessions/ingest.js';
import { assertBuilt, tsm } from '../helpers/cli.js';

const ID = 'dddddddd-0000-4000-8000-000000000004';
const OTHER = 'eeeeeeee-0000-4000-8000-000000000005';
let root: string;
let vault: string;
let transcript: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-sdir-'));
  vault = join(root, 'vault');
  mkdirSync(vault);
  transcript = join(root, `${ID}.jsonl`);
  writeFileSync(transcript, '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let clock = 0;
const at = () => new Date(Date.UTC(2026, 4, 21, 12, 0, clock++)).toISOString();
function turn(file: string, sessionId: string, prompt: string, answer: string): void {
  const base = () => ({ sessionId, cwd: '/w/proj', timestamp: at() });
  appendFileSync(file, JSON.stringify({ ...base(), type: 'user', message: { role: 'user', content: prompt } }) + '\n');
  appendFileSync(file, JSON.stringify({ ...base(), type: 'assistant', message: { id: `m${clock}`, role: 'assistant', content: [{ type: 'text', text: answer }] } }) + '\n');
}
const optsFor = (folder: string): IngestOptions => ({ vault, sessionsDir: join(vault, folder), stateDir: join(vault, '.tsm', 'sessions') });
const files = (folder: string) => (existsSync(join(vault, folder)) ? readdirSync(join(vault, folder)).sort() : []);

describe('sessionsDir changed during a session', () => {
  it('the session already written is updated where its note is; a new session goes to the new folder', () => {
    turn(transcript, ID, 'first question', 'first answer');
    const a = ingestTranscript(transcript, optsFor('sessions'));
    expect(a.notePath).toBe(join(vault, 'sessions', '2026-05-21-proj-dddddddd.md'));

    turn(transcript, ID, 'second question', 'second answer');
    const b = ingestTranscript(transcript, optsFor('notes/claude'));
    expect(b).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(readFileSync(a.notePath, 'utf8')).toContain('second answer');
    expect(files('notes/claude')).toEqual([]);
    expect(keptNotes(optsFor('notes/claude').stateDir, optsFor('notes/claude'))).toEqual([]);

    // Again, and after switching back: always the same one note.
    turn(transcript, ID, 'third question', 'third answer');
    expect(ingestTranscript(transcript, optsFor('notes/claude'))).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(ingestTranscript(transcript, optsFor('sessions'))).toMatchObject({ notePath: a.notePath, changed: false, kept: [] });

    const other = join(root, `${OTHER}.jsonl`);
    turn(other, OTHER, 'a new session', 'its answer');
    expect(ingestTranscript(other, optsFor('notes/claude')).notePath).toBe(join(vault, 'notes/claude', '2026-05-21-proj-eeeeeeee.md'));
    expect(files('sessions')).toEqual(['2026-05-21-proj-dddddddd.md']);
  });

  it('a note the user moved to the new folder, unchanged, is followed there (and never written back)', () => {
    turn(transcript, ID, 'first question', 'first answer');
    ingestTranscript(transcript, optsFor('sessions'));
    mkdirSync(join(vault, 'archive'));
    renameSync(join(vault, 'sessions'), join(vault, 'archive', 'claude'));
    turn(transcript, ID, 'second question', 'second answer');
    const b = ingestTranscript(transcript, optsFor('archive/claude'));
    expect(b).toMatchObject({ notePath: join(vault, 'archive/claude', '2026-05-21-proj-dddddddd.md'), changed: true, kept: [] });
    expect(readFileSync(b.notePath, 'utf8')).toContain('second answer');
    expect(existsSync(join(vault, 'sessions'))).toBe(false);
  });

  it('a note deleted from the old folder stays deleted (the new folder does not bring it back)', () => {
    turn(transcript, ID, 'first question', 'first answer');
    const a = ingestTranscript(transcript, optsFor('sessions'));
    rmSync(a.notePath);
    turn(transcript, ID, 'second question', 'second answer');
    const b = ingestTranscript(transcript, optsFor('notes/claude'));
    expect(b.kept).toMatchObject([{ path: a.notePath, reason: 'deleted' }]);
    expect(files('notes/claude')).toEqual([]);
  });
});

describe('tsm ingest-session after sessionsDir changed in .tsm/config.json', () => {
  it('updates the session where its note is, and the index finds its later prompt', () => {
    assertBuilt();
    mkdirSync(join(vault, '.tsm'));
    const config = (dir: string) => writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ sessionsDir: dir }));
    config('sessions');
    turn(transcript, ID, 'first question', 'first answer');
    const first = tsm(['ingest-session', '--vault', vault, transcript]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('→ sessions/2026-05-21-proj-dddddddd.md (1 prompt, written)');

    config('notes/claude');
    turn(transcript, ID, 'what about the zeppelin antenna', 'use the zeppelin antenna on the gateway');
    const second = tsm(['ingest-session', '--vault', vault, transcript]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('→ sessions/2026-05-21-proj-dddddddd.md (2 prompts, written)');
    expect(files('notes/claude')).toEqual([]);
    const found = tsm(['search', '--vault', vault, '-f', 'json', 'zeppelin']);
    expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['sessions/2026-05-21-proj-dddddddd.md']);
  });
});
