// tsm only rewrites what it wrote: a session note its user edited or deleted is left alone.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript, keptNotes, type IngestOptions } from '../../src/sessions/ingest.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { renderSessionNote } from '../../src/sessions/render.js';
import { frontmatterOf, headingsOf } from './helpers.js';

const ID = 'bbbbbbbb-0000-4000-8000-000000000002';
let root: string;
let opts: IngestOptions;
let transcript: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-kept-'));
  mkdirSync(join(root, 'vault'));
  opts = { vault: join(root, 'vault'), sessionsDir: join(root, 'vault', 'sessions'), stateDir: join(root, 'vault', '.tsm', 'sessions') };
  transcript = join(root, `${ID}.jsonl`);
  writeFileSync(transcript, '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let clock = 0;
const at = () => new Date(Date.UTC(2026, 4, 20, 12, 0, clock++)).toISOString();
const base = () => ({ sessionId: ID, cwd: '/w/proj', timestamp: at() });
/** One turn: the prompt, then the assistant's answer. */
function turn(prompt: string, answer: string): void {
  appendFileSync(transcript, JSON.stringify({ ...base(), type: 'user', message: { role: 'user', content: prompt } }) + '\n');
  const message = { id: `m${clock}`, role: 'assistant', content: [{ type: 'text', text: answer }] };
  appendFileSync(transcript, JSON.stringify({ ...base(), type: 'assistant', message }) + '\n');
}
const notes = () => (existsSync(opts.sessionsDir) ? readdirSync(opts.sessionsDir).sort() : []);
const read = (name: string) => readFileSync(join(opts.sessionsDir, name), 'utf8');

describe('ingest keeps what the user changed', () => {
  it('updates a note nobody touched, in place', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    turn('second question', 'second answer');
    const b = ingestTranscript(transcript, opts);
    expect(b).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toContain('second answer');
  });

  it('never overwrites an edited note: later prompts go to a continuation note that links back', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    const edited = readFileSync(a.notePath, 'utf8').replace('first answer', 'first answer, and my own remark');
    writeFileSync(a.notePath, edited);

    const same = ingestTranscript(transcript, opts); // nothing new yet: nothing to write
    expect(same.changed).toBe(false);
    expect(same.kept).toEqual([{ sessionId: ID, path: a.notePath, reason: 'edited', since: expect.any(String) }]);
    expect(readFileSync(a.notePath, 'utf8')).toBe(edited);

    turn('second question', 'second answer');
    const b = ingestTranscript(transcript, opts);
    expect(readFileSync(a.notePath, 'utf8')).toBe(edited);
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb-2.md', '2026-05-20-proj-bbbbbbbb.md']);
    expect(b.notePath).toBe(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb-2.md'));
    const cont = read('2026-05-20-proj-bbbbbbbb-2.md');
    expect(frontmatterOf(cont)).toMatchObject({ type: 'session', session_id: ID, continues: '2026-05-20-proj-bbbbbbbb.md' });
    expect(headingsOf(cont).map((h) => h.text)).toEqual(['proj: second question (part 2)', '2. second question', 'Answer']);
    expect(cont).not.toContain('first answer');

    // The continuation is tsm's own and goes on being updated.
    turn('third question', 'third answer');
    ingestTranscript(transcript, opts);
    expect(read('2026-05-20-proj-bbbbbbbb-2.md')).toContain('third answer');
    expect(notes()).toHaveLength(2);
  });

  it('repeats the last prompt in the continuation when it went on after the note was edited (mid-turn)', () => {
    appendFileSync(transcript, JSON.stringify({ ...base(), type: 'user', message: { role: 'user', content: 'long task' } }) + '\n');
    const a = ingestTranscript(transcript, opts); // written before the answer arrived (e.g. PreCompact)
    writeFileSync(a.notePath, readFileSync(a.notePath, 'utf8') + '\nmy remark\n');
    const message = { id: 'late', role: 'assistant', content: [{ type: 'text', text: 'the late answer' }] };
    appendFileSync(transcript, JSON.stringify({ ...base(), type: 'assistant', message }) + '\n');
    const b = ingestTranscript(transcript, opts);
    expect(b.notePath.endsWith('-2.md')).toBe(true);
    expect(readFileSync(b.notePath, 'utf8')).toContain('the late answer');
    expect(headingsOf(readFileSync(b.notePath, 'utf8')).map((h) => h.text)).toEqual(['proj: long task (part 2)', '1. long task', 'Answer']);
  });

  it('never recreates a deleted note, nor writes the rest of that session anywhere', () => {
    turn('my secret is in here', 'noted');
    const a = ingestTranscript(transcript, opts);
    unlinkSync(a.notePath);
    const again = ingestTranscript(transcript, opts);
    expect(again.changed).toBe(false);
    expect(again.kept).toMatchObject([{ path: a.notePath, reason: 'deleted' }]);
    turn('another question', 'another answer');
    ingestTranscript(transcript, opts);
    // A replaced transcript (read again from the start) does not bring it back either.
    writeFileSync(transcript, '');
    turn('my secret is in here', 'noted');
    ingestTranscript(transcript, opts);
    expect(notes()).toEqual([]);
    expect(keptNotes(opts.stateDir, opts)).toMatchObject([{ sessionId: ID, path: a.notePath, reason: 'deleted' }]);
  });

  // The session id the lines carry is the session: its notes' record is one, whatever the file's name. Keyed by
  // the file's path, a renamed transcript's record was its own, and a copy named by the session id wrote the
  // note its user had deleted again (secret and all).
  it.each([
    ['a renamed transcript, then a copy named by the session id', 't1.jsonl', `${ID}.jsonl`],
    ['the transcript named by the session id, then a renamed copy', `${ID}.jsonl`, 't1.jsonl'],
    ['two renamed copies', 't1.jsonl', 't2.jsonl'],
  ])('never writes a deleted note again from another file of the session: %s', (_how, first, second) => {
    turn('my secret is in here', 'noted');
    mkdirSync(join(root, 'a'));
    mkdirSync(join(root, 'b'));
    const one = join(root, 'a', first);
    writeFileSync(one, readFileSync(transcript));
    const a = ingestTranscript(one, opts);
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
    unlinkSync(a.notePath); // and no ingest of that file since: its deletion is not recorded yet
    turn('another question', 'another answer');
    const two = join(root, 'b', second);
    writeFileSync(two, readFileSync(transcript));
    const b = ingestTranscript(two, opts);
    expect(b).toMatchObject({ changed: false, written: [], kept: [{ path: a.notePath, reason: 'deleted' }] });
    expect(notes()).toEqual([]);
    expect(ingestTranscript(one, opts)).toMatchObject({ changed: false, written: [] });
    expect(notes()).toEqual([]);
    expect(keptNotes(opts.stateDir, opts)).toMatchObject([{ sessionId: ID, path: a.notePath, reason: 'deleted' }]);
  });

  it("takes over a renamed transcript's state an older tsm keyed by its path: its deleted note stays deleted for every copy", () => {
    turn('my secret is in here', 'noted');
    const renamed = join(root, 't1.jsonl');
    writeFileSync(renamed, readFileSync(transcript));
    const a = ingestTranscript(renamed, opts);
    unlinkSync(a.notePath);
    ingestTranscript(renamed, opts);
    // As an older tsm left it: the state named by a hash of the transcript's path.
    const pathKey = `file-${createHash('sha256').update(realpathSync(renamed)).digest('hex').slice(0, 16)}.json`;
    renameSync(join(opts.stateDir, `${ID}.json`), join(opts.stateDir, pathKey));
    expect(ingestTranscript(renamed, opts)).toMatchObject({ changed: false, kept: [{ path: a.notePath, reason: 'deleted' }] });
    expect(readdirSync(opts.stateDir)).toEqual([`${ID}.json`]);
    expect(ingestTranscript(transcript, opts)).toMatchObject({ changed: false, written: [] });
    expect(notes()).toEqual([]);
  });

  it('does not overwrite a note of this session it has no record of writing (lost state), and still records the session', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    const edited = read('2026-05-20-proj-bbbbbbbb.md').replace('first answer', 'first answer, and my note on it');
    writeFileSync(a.notePath, edited);
    rmSync(opts.stateDir, { recursive: true });
    const b = ingestTranscript(transcript, opts);
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toBe(edited);
    expect(b.notePath).toBe(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb-2.md'));
    expect(read('2026-05-20-proj-bbbbbbbb-2.md')).toContain('first answer');
    expect(b.kept).toMatchObject([{ path: a.notePath, reason: 'edited' }]);
  });

  it("passes by the user's own file at the note's name: not this session's, so neither 'edited' nor continued", () => {
    mkdirSync(opts.sessionsDir, { recursive: true });
    const mine = '# my own note that happens to have this name\n';
    writeFileSync(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb.md'), mine);
    turn('first question', 'first answer');
    const b = ingestTranscript(transcript, opts);
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toBe(mine);
    expect(b.notePath).toBe(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb00004000.md'));
    expect(frontmatterOf(read('2026-05-20-proj-bbbbbbbb00004000.md'))).not.toHaveProperty('continues');
    expect(b.kept).toEqual([]);
    expect(keptNotes(opts.stateDir, opts)).toEqual([]);
    turn('second question', 'second answer');
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: b.notePath, changed: true, kept: [] });
  });

  it('leaves a link the user put in place of the note alone, and what it leads to: later prompts go to a continuation', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    const moved = join(root, 'elsewhere.md');
    renameSync(a.notePath, moved);
    symlinkSync(moved, a.notePath);
    const was = readFileSync(moved, 'utf8');
    turn('second question', 'second answer');
    const b = ingestTranscript(transcript, opts);
    expect(readlinkSync(a.notePath)).toBe(moved);
    expect(readFileSync(moved, 'utf8')).toBe(was);
    expect(b.notePath).toBe(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb-2.md'));
    expect(read('2026-05-20-proj-bbbbbbbb-2.md')).toContain('second answer');
    expect(b.kept).toMatchObject([{ path: a.notePath, reason: 'edited' }]);
  });

  it('passes by a link at the note\'s name that leads nowhere, as by any file not of this session', () => {
    mkdirSync(opts.sessionsDir, { recursive: true });
    const link = join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb.md');
    symlinkSync(join(root, 'gone', 'elsewhere.md'), link);
    turn('first question', 'first answer');
    const b = ingestTranscript(transcript, opts);
    expect(b.notePath).toBe(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb00004000.md'));
    expect(b.kept).toEqual([]);
    expect(readFileSync(b.notePath, 'utf8')).toContain('first question');
    expect(readlinkSync(link)).toBe(join(root, 'gone', 'elsewhere.md'));
    turn('second question', 'second answer');
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: b.notePath, changed: true, kept: [] });
  });

  it('adopts a note that is exactly what it would write after losing its state, and updates it from then on', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    rmSync(opts.stateDir, { recursive: true });
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: a.notePath, changed: false, kept: [] });
    turn('second question', 'second answer');
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
  });

  it('keeps its record when the vault is moved (the state names notes relative to the sessions folder)', () => {
    turn('first question', 'first answer');
    ingestTranscript(transcript, opts);
    renameSync(join(root, 'vault'), join(root, 'moved'));
    opts = { vault: join(root, 'moved'), sessionsDir: join(root, 'moved', 'sessions'), stateDir: join(root, 'moved', '.tsm', 'sessions') };
    turn('second question', 'second answer');
    const b = ingestTranscript(transcript, opts);
    expect(b).toMatchObject({ notePath: join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb.md'), changed: true, kept: [] });
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
  });

  it('takes a copy of the transcript (another path, the same session) for the same session: no false edit, no second note', () => {
    // A backup or another machine's copy of ~/.claude/projects, ingested while the hooks ingest the original.
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    turn('second question', 'second answer');
    mkdirSync(join(root, 'copy'));
    const copy = join(root, 'copy', `${ID}.jsonl`);
    writeFileSync(copy, readFileSync(transcript));
    expect(ingestTranscript(copy, opts)).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    turn('third question', 'third answer');
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toContain('third answer');
    expect(keptNotes(opts.stateDir, opts)).toEqual([]);
  });

  it('an older copy of the transcript (a backup) leaves the note as the longer one wrote it', () => {
    turn('first question', 'first answer');
    mkdirSync(join(root, 'backup'));
    const backup = join(root, 'backup', `${ID}.jsonl`);
    writeFileSync(backup, readFileSync(transcript));
    turn('second question', 'second answer');
    const a = ingestTranscript(transcript, opts);
    const written = read('2026-05-20-proj-bbbbbbbb.md');
    expect(written).toContain('second answer');
    expect(ingestTranscript(backup, opts)).toMatchObject({ notePath: a.notePath, changed: false, kept: [] });
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toBe(written);
    turn('third question', 'third answer');
    expect(ingestTranscript(transcript, opts)).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(read('2026-05-20-proj-bbbbbbbb.md')).toContain('third answer');
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
  });

  it('reads a transcript named through a symlinked folder as the file it is, from where it left off', () => {
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    transcript = join(root, 'real', `${ID}.jsonl`);
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    turn('second question', 'second answer');
    expect(ingestTranscript(join(root, 'link', `${ID}.jsonl`), opts)).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    const [stateName] = readdirSync(opts.stateDir);
    expect(JSON.parse(readFileSync(join(opts.stateDir, stateName), 'utf8')).transcriptPath).toBe(transcript);
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
  });

  it('carries a version-1 state over: its note, still as written, stays tsm\'s to update', () => {
    turn('first question', 'first answer');
    const a = ingestTranscript(transcript, opts);
    const [stateName] = readdirSync(opts.stateDir);
    const statePath = join(opts.stateDir, stateName);
    const v2 = JSON.parse(readFileSync(statePath, 'utf8'));
    writeFileSync(statePath, JSON.stringify({ ...v2, version: 1, notes: undefined, notePath: a.notePath }));
    expect(readFileSync(a.notePath, 'utf8')).toBe(renderSessionNote(applyTranscriptLines(null, readFileSync(transcript, 'utf8').split('\n'), ID), { answerChars: 1200 }));
    turn('second question', 'second answer');
    const b = ingestTranscript(transcript, opts);
    expect(b).toMatchObject({ notePath: a.notePath, changed: true, kept: [] });
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);
  });
});

describe('tsm ingest-session with several Stop hooks at once', () => {
  it('keeps the edit, writes one continuation, and says so', async () => {
    const { tsm, tsmAsync } = await import('../helpers/cli.js');
    const vault = join(root, 'vault');
    mkdirSync(vault, { recursive: true });
    turn('first question', 'first answer');
    expect(tsm(['--vault', vault, 'ingest-session', transcript]).code).toBe(0);
    const first = join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb.md');
    const edited = `${readFileSync(first, 'utf8')}\nMy own conclusion.\n`;
    writeFileSync(first, edited);
    turn('second question', 'second answer');

    const runs = await Promise.all([1, 2, 3, 4].map(() => tsmAsync(['--vault', vault, 'ingest-session', transcript])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(first, 'utf8')).toBe(edited);
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb-2.md', '2026-05-20-proj-bbbbbbbb.md']);
    expect(read('2026-05-20-proj-bbbbbbbb-2.md')).toContain('second answer');
    expect(runs.map((r) => r.stdout).join('')).toContain('left alone, edited since tsm wrote it: sessions/2026-05-20-proj-bbbbbbbb.md');

    unlinkSync(join(opts.sessionsDir, '2026-05-20-proj-bbbbbbbb-2.md'));
    turn('third question', 'third answer');
    const after = await Promise.all([1, 2].map(() => tsmAsync(['--vault', vault, 'ingest-session', transcript])));
    expect(after.map((r) => r.stdout).join('')).toContain('was deleted, so tsm writes nothing more for this session');
    expect(notes()).toEqual(['2026-05-20-proj-bbbbbbbb.md']);

    // tsm status and tsm doctor say which notes tsm leaves alone, and why.
    expect(tsm(['--vault', vault, 'index']).code).toBe(0);
    const status = tsm(['--vault', vault, 'status']);
    expect(status.stdout).toMatch(/^sessions {2}2 session notes left as you left them \(1 edited: .*; 1 deleted: not written again\)$/m);
    const json = JSON.parse(tsm(['--vault', vault, 'status', '--json']).stdout);
    expect(json.keptSessionNotes.map((k: { path: string; reason: string }) => [k.path, k.reason])).toEqual([
      ['sessions/2026-05-20-proj-bbbbbbbb.md', 'edited'],
      ['sessions/2026-05-20-proj-bbbbbbbb-2.md', 'deleted'],
    ]);
    const doctor = JSON.parse(tsm(['--vault', vault, 'doctor', '--json']).stdout);
    const kept = doctor.problems.find((p: { check: string }) => p.check === 'sessions');
    expect(kept.message).toContain('sessions/2026-05-20-proj-bbbbbbbb.md (edited), sessions/2026-05-20-proj-bbbbbbbb-2.md (deleted)');
  });
});
