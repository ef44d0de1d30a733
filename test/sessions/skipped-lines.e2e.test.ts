// End to end: the built `tsm ingest-session` on a real transcript with lines that are not JSON objects in it.
// They are skipped with a warning (stderr, and `skipped_lines` in --json), each told by the run that read it,
// numbered in the whole file; the rest of the transcript is in the note, as if they were not there.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixtureText } from './helpers.js';

// Claude Code 2.1.38: 96 lines, two prompts, a subagent (test/sessions/fixtures/README.md).
const ID = '491e126e-1e71-469c-ade2-fcc8af567c74';
const REAL = fixtureText('claude-code-2.1.38-plan-subagent-session.jsonl').trimEnd().split('\n');

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-skipped-lines-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
const ingest = (vault: string, transcript: string, json = false) => tsm(['--vault', vault, 'ingest-session', ...(json ? ['--json'] : []), transcript]);

/** The session note a vault holds (the one file of its sessions folder). */
function noteOf(vault: string): string {
  const files = readdirSync(join(vault, 'sessions'));
  expect(files).toHaveLength(1);
  return readFileSync(join(vault, 'sessions', files[0]), 'utf8');
}

/** The note `tsm ingest-session` writes of these lines alone, in a vault of its own. */
function cleanNote(name: string, lines: string[]): string {
  const dir = join(work, name);
  const transcript = join(dir, `${ID}.jsonl`);
  const vault = join(dir, 'vault');
  mkdirSync(vault, { recursive: true });
  writeFileSync(transcript, text(lines));
  expect(ingest(vault, transcript).code).toBe(0);
  return noteOf(vault);
}

interface Row {
  transcript: string;
  prompts: number;
  skipped_lines: { count: number; first_line: number } | null;
}

describe('tsm ingest-session: lines that are not JSON objects', () => {
  it('skips them with a warning, once, by their line numbers in the file; the note holds the rest', () => {
    const dir = join(work, 'junked');
    const vault = join(dir, 'vault');
    const transcript = join(dir, `${ID}.jsonl`);
    mkdirSync(vault, { recursive: true });

    // Lines 1-16 of the real transcript, then line 17 something else printed into the file, a blank line, a
    // JSON string (line 19), and the real lines 17-60 (file lines 20-63).
    writeFileSync(transcript, text([...REAL.slice(0, 16), 'Error: EPIPE write after end', '', '"a JSON string"', ...REAL.slice(16, 60)]));
    const first = ingest(vault, transcript);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/→ sessions\/\S+-491e126e\.md \(1 prompt, written\)\n$/);
    expect(first.stderr.split('\n')).toContain(`tsm: ${transcript}: 2 lines are not JSON objects and were skipped (first: line 17)`);
    expect(noteOf(vault)).toBe(cleanNote('clean-60', REAL.slice(0, 60)));

    // More of the transcript: a truncated JSON line (line 64), the real lines 61-90 (65-94), `[]` (95), and the
    // real line 91 cut mid-write, its newline not there yet.
    const cut = REAL[90].slice(0, 200);
    appendFileSync(transcript, text(['{"type":"user","message":{"role":"user","content":"half of it', ...REAL.slice(60, 90), '[]']) + cut);
    const second = ingest(vault, transcript, true);
    expect(second.code, second.stderr).toBe(0);
    const rows = (JSON.parse(second.stdout) as { transcripts: Row[] }).transcripts;
    expect(rows).toEqual([expect.objectContaining({ transcript, prompts: 2, skipped_lines: { count: 2, first_line: 64 } })]);
    expect(second.stderr.match(/not (a )?JSON object/g)).toHaveLength(1);
    expect(second.stderr).toContain(`tsm: ${transcript}: 2 lines are not JSON objects and were skipped (first: line 64)\n`);
    // The cut line is not counted, but said: a transcript cut short for good lost it without a word.
    expect(second.stderr).toContain(
      `tsm: ${transcript}: its last line (line 96) is unfinished, so it was not read: Claude Code may still be writing it (the next ingest reads it once it ends with a newline)\n`,
    );

    // The cut line completed, and the rest: nothing more to tell.
    appendFileSync(transcript, text([REAL[90].slice(200), ...REAL.slice(91)]));
    const third = ingest(vault, transcript, true);
    expect(third.code, third.stderr).toBe(0);
    expect((JSON.parse(third.stdout) as { transcripts: Row[] }).transcripts).toEqual([expect.objectContaining({ prompts: 2, skipped_lines: null })]);
    expect(third.stderr).not.toContain('JSON object');
    expect(third.stderr).not.toContain('unfinished');
    expect(noteOf(vault)).toBe(cleanNote('clean-all', REAL));

    // Nothing new: nothing told again.
    const fourth = ingest(vault, transcript);
    expect(fourth).toMatchObject({ code: 0, stderr: '' });
    expect(fourth.stdout).toMatch(/\(2 prompts, unchanged\)\n$/);
  });

  it('reads a complete last line without its newline, and says nothing of it', () => {
    const dir = join(work, 'no-newline');
    const vault = join(dir, 'vault');
    const transcript = join(dir, `${ID}.jsonl`);
    mkdirSync(vault, { recursive: true });
    writeFileSync(transcript, text(REAL).slice(0, -1));
    const r = ingest(vault, transcript);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('unfinished');
    expect(noteOf(vault)).toBe(cleanNote('no-newline-clean', REAL));
  });

  it('says "1 line is", for one', () => {
    const dir = join(work, 'one');
    const vault = join(dir, 'vault');
    const transcript = join(dir, `${ID}.jsonl`);
    mkdirSync(vault, { recursive: true });
    writeFileSync(transcript, text([...REAL.slice(0, 3), '42', ...REAL.slice(3)]));
    const r = ingest(vault, transcript);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`tsm: ${transcript}: 1 line is not a JSON object and was skipped (first: line 4)\n`);
  });

  // A transcript saved by a Windows tool that writes UTF-8 with a byte order mark (Notepad before 2019,
  // PowerShell 5's `Set-Content -Encoding UTF8`), or two such files joined with `cat`: the first line, the
  // session's first prompt, was skipped as "not a JSON object (line 1)". The mark is no part of the line.
  it('reads a line that starts with a byte order mark', () => {
    const dir = join(work, 'bom');
    const vault = join(dir, 'vault');
    const transcript = join(dir, `${ID}.jsonl`);
    mkdirSync(vault, { recursive: true });
    writeFileSync(transcript, '\ufeff' + text(REAL.slice(0, 40)) + '\ufeff' + text(REAL.slice(40)));
    const r = ingest(vault, transcript);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('JSON object');
    expect(r.stdout).toMatch(/\(2 prompts, written\)\n$/);
    expect(noteOf(vault)).toBe(cleanNote('bom-clean', REAL));
  });
});
