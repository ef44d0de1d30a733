import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import fc from 'fast-check';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestTranscript, type IngestOptions } from '../../src/sessions/ingest.js';
import { fixturePath, GOLDEN } from './helpers.js';

const PLAN = 'claude-code-2.1.38-plan-subagent-session.jsonl';
const SYNTHETIC = 'synthetic-session.jsonl';
const MAIN = 'claude-code-2.0.76-main.jsonl';

let root: string;
let opts: IngestOptions;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-ingest-'));
  mkdirSync(join(root, 'vault'));
  opts = { vault: join(root, 'vault'), sessionsDir: join(root, 'vault', 'sessions'), stateDir: join(root, 'vault', '.tsm', 'sessions') };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const bytesOf = (name: string) => readFileSync(fixturePath(name));
const golden = (name: string) => readFileSync(join(GOLDEN, name.replace(/\.jsonl$/, '.md')), 'utf8');
const notes = () => (existsSync(opts.sessionsDir) ? readdirSync(opts.sessionsDir) : []);
const allFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** A transcript file named like Claude Code names them. */
function transcriptFile(bytes: Buffer | string, name = '491e126e-1e71-469c-ade2-fcc8af567c74.jsonl'): string {
  const path = join(root, name);
  writeFileSync(path, bytes);
  return path;
}

/** The note a single ingest of the complete bytes gives, in a fresh vault. */
function oneShot(bytes: Buffer): string {
  const fresh = mkdtempSync(join(tmpdir(), 'tsm-oneshot-'));
  try {
    const path = join(fresh, 'session.jsonl');
    writeFileSync(path, bytes);
    const result = ingestTranscript(path, { vault: fresh, sessionsDir: join(fresh, 's'), stateDir: join(fresh, 'st') });
    return readFileSync(result.notePath, 'utf8');
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

describe('ingestTranscript', () => {
  it('writes the session note into the sessions folder, named after the session', () => {
    const result = ingestTranscript(transcriptFile(bytesOf(PLAN)), opts);
    expect(result.sessionId).toBe('491e126e-1e71-469c-ade2-fcc8af567c74');
    expect(result.prompts).toBe(2);
    expect(result.changed).toBe(true);
    expect(result.notePath).toMatch(/\/vault\/sessions\/2026-02-1\d-spotter-491e126e\.md$/);
    expect(readFileSync(result.notePath, 'utf8')).toBe(golden(PLAN));
    expect(notes()).toHaveLength(1);
  });

  it('keeps state named by the session id, without private text or secrets', () => {
    ingestTranscript(transcriptFile(bytesOf(SYNTHETIC), '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37.jsonl'), opts);
    expect(allFiles(opts.stateDir)).toEqual(['7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37.json']);
    const state = readFileSync(join(opts.stateDir, '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37.json'), 'utf8');
    for (const leaked of ['hunter2', 'sk-ant-api03', 'ghp_aB3dE5', 'AKIAIOSFODNN7EXAMPLE', 'system-reminder']) {
      expect(state, leaked).not.toContain(leaked);
    }
  });

  it('keys the state of a file not named by a session id by the session id its lines carry', () => {
    const r = ingestTranscript(transcriptFile(bytesOf(MAIN), 'claude-code-2.0.76-main.jsonl'), opts);
    expect(allFiles(opts.stateDir)).toEqual([`${r.sessionId}.json`]);
  });

  it('keys the state of a file whose lines carry no session id by a hash of its path', () => {
    const lines = bytesOf(MAIN).toString('utf8').split('\n').map((l) => l.replace(/"sessionId":"[^"]*",?/g, ''));
    ingestTranscript(transcriptFile(lines.join('\n'), 'claude-code-2.0.76-main.jsonl'), opts);
    expect(allFiles(opts.stateDir)).toEqual([expect.stringMatching(/^file-[0-9a-f]{16}\.json$/)]);
  });

  it('is idempotent: a second ingest changes nothing and never duplicates the note', () => {
    const path = transcriptFile(bytesOf(SYNTHETIC));
    const first = ingestTranscript(path, opts);
    const before = readFileSync(first.notePath, 'utf8');
    const second = ingestTranscript(path, opts);
    expect(first.skipped).toEqual({ count: 1, firstLine: 29 }); // the fixture's invalid JSON line, told once
    expect(second).toEqual({ ...first, changed: false, skipped: null, written: [] });
    expect(first.written).toEqual([first.notePath]);
    expect(readFileSync(second.notePath, 'utf8')).toBe(before);
    expect(notes()).toHaveLength(1);
  });

  it('ingesting part of a file, then the rest, gives the same note as ingesting it whole', () => {
    for (const name of [PLAN, SYNTHETIC, MAIN]) {
      const bytes = bytesOf(name);
      const whole = oneShot(bytes);
      if (name === SYNTHETIC) expect(whole).toBe(golden(SYNTHETIC));
      // Cuts mid-line, at a newline, just after one, and inside a multi-byte character.
      const firstNewline = bytes.indexOf(0x0a);
      const multiByte = bytes.findIndex((b) => b >= 0x80);
      const cuts = [1, firstNewline, firstNewline + 1, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2), bytes.length - 1];
      if (multiByte > 0) cuts.push(multiByte + 1);
      for (const cut of cuts) {
        rmSync(join(root, 'vault'), { recursive: true, force: true });
        mkdirSync(join(root, 'vault'));
        const path = transcriptFile(bytes.subarray(0, cut), 'growing.jsonl');
        ingestTranscript(path, opts);
        appendFileSync(path, bytes.subarray(cut));
        const result = ingestTranscript(path, opts);
        expect(readFileSync(result.notePath, 'utf8'), `${name} cut at byte ${cut}`).toBe(whole);
        expect(notes(), `${name} cut at byte ${cut}`).toHaveLength(1);
      }
    }
  });

  it('grows the note over many small appends, as hooks would see it', () => {
    const bytes = bytesOf(MAIN);
    const path = transcriptFile(Buffer.alloc(0), 'growing.jsonl');
    let changes = 0;
    for (let at = 0; at < bytes.length; at += 7000) {
      appendFileSync(path, bytes.subarray(at, Math.min(bytes.length, at + 7000)));
      if (ingestTranscript(path, opts).changed) changes++;
    }
    expect(changes).toBeGreaterThan(1);
    expect(notes().map((n) => readFileSync(join(opts.sessionsDir, n), 'utf8'))).toEqual([oneShot(bytes)]);
  });

  it('shows a complete last line that lacks its newline, and reads it again once the newline arrives', () => {
    const lines = bytesOf(MAIN).toString('utf8').trimEnd().split('\n');
    const path = transcriptFile(lines.slice(0, 2).join('\n'), 'growing.jsonl');
    const first = ingestTranscript(path, opts);
    expect(first.prompts).toBe(1);
    expect(readFileSync(first.notePath, 'utf8')).toContain('can you run a command ls -la');
    appendFileSync(path, '\n' + lines.slice(2).join('\n') + '\n');
    ingestTranscript(path, opts);
    expect(readFileSync(first.notePath, 'utf8')).toBe(oneShot(bytesOf(MAIN)));
  });

  it('starts over when the file shrank', () => {
    const path = transcriptFile(bytesOf(PLAN));
    ingestTranscript(path, opts);
    const shorter = bytesOf(PLAN).subarray(0, bytesOf(PLAN).indexOf('create the beads'));
    writeFileSync(path, shorter);
    const result = ingestTranscript(path, opts);
    expect(result.prompts).toBe(1);
    expect(readFileSync(result.notePath, 'utf8')).toBe(oneShot(shorter));
  });

  it('starts over when the first line changed, even if the file grew', () => {
    const path = transcriptFile(bytesOf(SYNTHETIC).subarray(0, 5000), 'replaced.jsonl');
    ingestTranscript(path, opts);
    writeFileSync(path, bytesOf(PLAN)); // another session, written to the same path
    const result = ingestTranscript(path, opts);
    expect(result.sessionId).toBe('491e126e-1e71-469c-ade2-fcc8af567c74');
    expect(readFileSync(result.notePath, 'utf8')).toBe(oneShot(bytesOf(PLAN)));
    expect(notes()).toHaveLength(2); // the first session's note stays: it is another session's
  });

  it('recovers from a corrupt state file by reading the transcript again', () => {
    const path = transcriptFile(bytesOf(SYNTHETIC));
    const first = ingestTranscript(path, opts);
    const [stateFile] = allFiles(opts.stateDir);
    writeFileSync(join(opts.stateDir, stateFile), '{"version": 1, "offset": ');
    const again = ingestTranscript(path, opts);
    expect(again.changed).toBe(false);
    expect(readFileSync(again.notePath, 'utf8')).toBe(readFileSync(first.notePath, 'utf8'));
  });

  it('renames the note (never duplicates it) when an earlier start time turns up', () => {
    const line = (timestamp: string, content: unknown, type = 'user') =>
      JSON.stringify({ type, sessionId: 'aaaaaaaa-0000-4000-8000-000000000001', cwd: '/w/proj', timestamp, message: { id: timestamp, content } }) + '\n';
    const path = transcriptFile(line('2026-05-20T12:00:00.000Z', 'first prompt'), 'aaaaaaaa-0000-4000-8000-000000000001.jsonl');
    const first = ingestTranscript(path, opts);
    expect(first.notePath.endsWith('2026-05-20-proj-aaaaaaaa.md')).toBe(true);
    appendFileSync(path, line('2026-05-18T12:00:00.000Z', [{ type: 'text', text: 'answer' }], 'assistant'));
    const second = ingestTranscript(path, opts);
    expect(second.notePath.endsWith('2026-05-18-proj-aaaaaaaa.md')).toBe(true);
    expect(second.changed).toBe(true);
    expect(notes()).toEqual(['2026-05-18-proj-aaaaaaaa.md']);
  });

  it("refuses a sub-agent's transcript (a warm-up), writing nothing, and names its session's", () => {
    const path = transcriptFile(bytesOf('claude-code-2.0.76-sidechain.jsonl'), 'agent-af1ff21.jsonl');
    expect(() => ingestTranscript(path, opts)).toThrow(/it is sub-agent af1ff21's, of session c45af7b1-cb7c-4e51-93db-8cbb250a877a; .*ingest its session's own transcript, c45af7b1-cb7c-4e51-93db-8cbb250a877a\.jsonl$/);
    expect(notes()).toEqual([]);
    expect(allFiles(opts.stateDir)).toEqual([]);
  });

  it('leaves no temporary files behind', () => {
    ingestTranscript(transcriptFile(bytesOf(PLAN)), opts);
    expect(notes().every((f) => f.endsWith('.md'))).toBe(true);
    expect(allFiles(opts.stateDir).every((f) => f.endsWith('.json'))).toBe(true);
  });

  it('honours answerChars', () => {
    const result = ingestTranscript(transcriptFile(bytesOf(PLAN)), { ...opts, answerChars: 60 });
    const note = readFileSync(result.notePath, 'utf8');
    const answer = note.slice(note.indexOf('### Answer') + '### Answer'.length, note.indexOf('## 2.')).trim();
    const [head, count] = answer.split('\n\n');
    expect(Array.from(head).length).toBeLessThanOrEqual(61);
    expect(count).toMatch(/^\(\d+ of [\d,]+ characters kept\)$/);
  });

  it('reports a missing transcript clearly', () => {
    expect(() => ingestTranscript(join(root, 'nope.jsonl'), opts)).toThrow(/cannot read transcript .*nope\.jsonl: no such file \(ENOENT\)/);
  });

  it('copes with an empty transcript file', () => {
    const result = ingestTranscript(transcriptFile(''), opts);
    expect(result.changed).toBe(false);
    expect(result.prompts).toBe(0);
    copyFileSync(fixturePath(PLAN), join(root, '491e126e-1e71-469c-ade2-fcc8af567c74.jsonl'));
    expect(ingestTranscript(join(root, '491e126e-1e71-469c-ade2-fcc8af567c74.jsonl'), opts).prompts).toBe(2);
  });
});

describe('ingestTranscript: lines that are not JSON objects', () => {
  /** MAIN's lines with junk inserted: the text, and the 1-based numbers of the junk lines in it. */
  function junked(): { text: string; junk: number[] } {
    const lines = bytesOf(MAIN).toString('utf8').trimEnd().split('\n');
    const out: string[] = [];
    const junk: number[] = [];
    lines.forEach((line, i) => {
      if (i % 9 === 4) {
        out.push(i % 2 ? '{"cut mid-write' : 'Error: something printed into the file', '');
        junk.push(out.length - 1);
      }
      if (i % 20 === 7) {
        out.push('[1, 2]');
        junk.push(out.length);
      }
      out.push(line);
    });
    return { text: out.join('\n') + '\n', junk };
  }

  it('tells each ingest the lines it read: how many were skipped, and the first by its line number in the file', () => {
    const { text, junk } = junked();
    const bytes = Buffer.from(text);
    const whole = oneShot(bytesOf(MAIN));
    // Growth steps at random bytes (mid-line, mid-character), as the hooks see the transcript.
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 6 }), (cuts) => {
        rmSync(join(root, 'vault'), { recursive: true, force: true });
        mkdirSync(join(root, 'vault'));
        const path = transcriptFile(Buffer.alloc(0), 'growing.jsonl');
        let done = 0; // complete lines read so far
        for (const end of [...cuts.sort((a, b) => a - b), bytes.length]) {
          appendFileSync(path, bytes.subarray(readFileSync(path).length, end));
          const lines = bytes.subarray(0, end).toString('latin1').split('\n').length - 1;
          const read = junk.filter((n) => n > done && n <= lines);
          const { skipped } = ingestTranscript(path, opts);
          expect(skipped, `bytes up to ${end}`).toEqual(read.length === 0 ? null : { count: read.length, firstLine: read[0] });
          done = lines;
        }
        expect(ingestTranscript(path, opts).skipped).toBeNull();
        expect(notes().map((n) => readFileSync(join(opts.sessionsDir, n), 'utf8'))).toEqual([whole]);
      }),
      { numRuns: 15 },
    );
  });

  it('does not count a last line without its newline, and counts it once it has one', () => {
    const path = transcriptFile(bytesOf(MAIN), 'growing.jsonl');
    expect(ingestTranscript(path, opts).skipped).toBeNull();
    appendFileSync(path, '{"type":"user","message":');
    expect(ingestTranscript(path, opts).skipped).toBeNull();
    expect(ingestTranscript(path, opts).skipped).toBeNull();
    appendFileSync(path, '\n\n   \nnull\n');
    expect(ingestTranscript(path, opts).skipped).toEqual({ count: 2, firstLine: 64 });
  });

  it('numbers a line past megabytes already read', () => {
    // Lines of 100,000 characters: 3.8 MB before the junk, more than one read of the lines before it.
    const big = (i: number) => JSON.stringify({ type: 'assistant', message: { id: `m${i}`, content: [{ type: 'text', text: 'x'.repeat(100_000) }] } });
    const path = transcriptFile(bytesOf(MAIN), 'growing.jsonl');
    appendFileSync(path, Array.from({ length: 38 }, (_, i) => big(i)).join('\n') + '\n');
    expect(ingestTranscript(path, opts).skipped).toBeNull();
    appendFileSync(path, `${big(99)}\nnot json\n`);
    expect(ingestTranscript(path, opts).skipped).toEqual({ count: 1, firstLine: 63 + 38 + 2 });
  });
});
