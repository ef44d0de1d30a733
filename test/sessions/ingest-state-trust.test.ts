// An ingest state (.tsm/sessions/<id>.json) is a file in the vault: a sync, a copied vault or a hostile
// clone can bring any. What it records is what ingest rewrites and deletes — a note whose file still has the
// recorded sha256, which anyone who knows a file's content can give. Reproduced with tsm ingest-session: a
// state naming notesDir "/tmp/…/evil" and a note "../victim.txt" with victim.txt's hash made tsm write the
// session's note into /tmp/…/evil and delete victim.txt, a file outside the vault it never wrote. A state
// whose notes are not plain .md names in a folder of the vault (or the configured sessionsDir) is now read
// as a corrupt one: the transcript is read again, and nothing it names is touched.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript, keptNotes, type IngestOptions } from '../../src/sessions/ingest.js';

const ID = 'f1a2c3d4-0000-4000-8000-00000000eeee';
let root: string;
let vault: string;
let transcript: string;
let victim: string;
const VICTIM_TEXT = 'my precious file\n';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-state-trust-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, '.tsm', 'sessions'), { recursive: true });
  transcript = join(root, `${ID}.jsonl`);
  const line = (type: string, content: unknown, i: number) =>
    JSON.stringify({ sessionId: ID, cwd: '/w/proj', timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(), type, message: { id: `m${i}`, role: type, content } });
  writeFileSync(transcript, `${line('user', 'hello', 0)}\n${line('assistant', [{ type: 'text', text: 'hi' }], 1)}\n`);
  victim = join(root, 'victim.txt');
  writeFileSync(victim, VICTIM_TEXT);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const opts: () => IngestOptions = () => ({ vault, sessionsDir: join(vault, 'sessions'), stateDir: join(vault, '.tsm', 'sessions') });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A state as a planted file would have it: this transcript, nothing read yet, notes where the planter chose. */
function plant(notesDir: string | undefined, notes: object[]): void {
  const state = { version: 2, transcriptPath: transcript, offset: 0, firstLine: null, ...(notesDir === undefined ? {} : { notesDir }), notes, model: null };
  writeFileSync(join(vault, '.tsm', 'sessions', `${ID}.json`), JSON.stringify(state));
}
const record = (path: string) => ({ path, sha256: sha(VICTIM_TEXT), firstPrompt: 0, lastPrompt: 3 });

describe('a planted ingest state', () => {
  // [what, notesDir, note path]: functions, as the temp folder is made for each test.
  const cases: [string, () => string | undefined, () => string][] = [
    ['a notes folder outside the vault', () => join(root, 'evil'), () => 'victim.txt'],
    ['a note path that climbs out of its folder', () => 'sessions', () => '../../victim.txt'],
    ['an absolute note path', () => undefined, () => victim],
    ['a file that is no note, in a folder of the vault', () => '.', () => 'config.json'],
  ];
  for (const [what, dir, path] of cases) {
    it(`with ${what} neither writes nor deletes what it names`, () => {
      if (what.includes('no note')) writeFileSync(join(vault, 'config.json'), VICTIM_TEXT);
      plant(dir(), [record(path())]);
      const r = ingestTranscript(transcript, opts());
      expect(readFileSync(victim, 'utf8')).toBe(VICTIM_TEXT);
      if (what.includes('no note')) expect(readFileSync(join(vault, 'config.json'), 'utf8')).toBe(VICTIM_TEXT);
      expect(existsSync(join(root, 'evil'))).toBe(false);
      expect(readdirSync(root).sort()).toEqual([`${ID}.jsonl`, 'vault', 'victim.txt']);
      expect(r.notePath).toBe(join(vault, 'sessions', '2026-03-01-proj-f1a2c3d4.md'));
      expect(r.removed).toEqual([]);
      expect(keptNotes(opts().stateDir, opts()).filter((k) => !k.path.startsWith(vault))).toEqual([]);
    });
  }

  it('kept notes it records outside the vault are not listed by status or doctor', () => {
    plant(join(root, 'evil'), [{ ...record('gone.md'), kept: 'deleted', keptSince: '2026-03-01T00:00:00.000Z' }]);
    expect(keptNotes(opts().stateDir, opts())).toEqual([]);
  });

  it('a sessionsDir set outside the vault is still the notes folder of its sessions', () => {
    const outside = join(root, 'claude-notes');
    const out = { ...opts(), sessionsDir: outside };
    const first = ingestTranscript(transcript, out);
    expect(first.notePath).toBe(join(outside, '2026-03-01-proj-f1a2c3d4.md'));
    appendFileSync(transcript, JSON.stringify({ sessionId: ID, cwd: '/w/proj', timestamp: '2026-03-01T10:00:05.000Z', type: 'user', message: { role: 'user', content: 'again' } }) + '\n');
    const second = ingestTranscript(transcript, out);
    expect(second).toMatchObject({ notePath: first.notePath, changed: true, kept: [] });
    expect(readdirSync(outside)).toEqual(['2026-03-01-proj-f1a2c3d4.md']);
  });
});
