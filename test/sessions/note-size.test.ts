// A session note is closed at a size (NOTE_BYTES, or the vault's maxFileBytes when smaller) and the session
// goes on in a continuation note. Notes were never closed: a session of 1,200 long prompts made a 6.3 MB note,
// which the index skipped as too large (5 MiB), so the whole session was gone from search.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript, type IngestOptions } from '../../src/sessions/ingest.js';
import { frontmatterOf, headingsOf } from './helpers.js';

const ID = 'cccccccc-0000-4000-8000-000000000003';
const CAP = 20_000;
let root: string;
let opts: IngestOptions;
let transcript: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-note-size-'));
  mkdirSync(join(root, 'vault'));
  opts = { vault: join(root, 'vault'), sessionsDir: join(root, 'vault', 'sessions'), stateDir: join(root, 'vault', '.tsm', 'sessions'), noteBytes: CAP };
  transcript = join(root, `${ID}.jsonl`);
  writeFileSync(transcript, '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let clock = 0;
const at = () => new Date(Date.UTC(2026, 4, 20, 12, 0, clock++)).toISOString();
/** One turn's lines: the prompt, a tool use and its result, the answer. */
function turnLines(i: number, answerChars = 900): string[] {
  const base = () => ({ sessionId: ID, cwd: '/w/proj', timestamp: at() });
  const answer = `answer ${i}: ${'the antenna reached the ridge and the battery held. '.repeat(40)}`.slice(0, answerChars);
  return [
    { ...base(), type: 'user', message: { role: 'user', content: `question ${i}: how far did the antenna reach on day ${i}?` } },
    { ...base(), type: 'assistant', message: { id: `t${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `tu${i}`, name: 'Read', input: { file_path: `/w/proj/log-${i}.md` } }] } },
    { ...base(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu${i}`, content: 'ok' }] } },
    { ...base(), type: 'assistant', message: { id: `a${i}`, role: 'assistant', content: [{ type: 'text', text: answer }] } },
  ].map((l) => JSON.stringify(l) + '\n');
}
const notes = (dir = opts.sessionsDir) => (existsSync(dir) ? readdirSync(dir).sort((a, b) => a.length - b.length || a.localeCompare(b)) : []);
const read = (name: string, dir = opts.sessionsDir) => readFileSync(join(dir, name), 'utf8');
/** The prompt numbers a note holds, from its `## N. …` headings. */
const promptsOf = (text: string) => headingsOf(text).filter((h) => h.depth === 2).map((h) => Number(/^(\d+)\./.exec(h.text)?.[1]));

describe('a session note closed at its size', () => {
  it('a long session is cut into notes under the size, each prompt in exactly one, in order, each continuation linking back', () => {
    const lines = Array.from({ length: 60 }, (_, i) => turnLines(i + 1)).flat();
    writeFileSync(transcript, lines.join(''));
    const r = ingestTranscript(transcript, opts);
    const names = notes();
    expect(names.length).toBeGreaterThan(2);
    expect(r.notePath).toBe(join(opts.sessionsDir, names.at(-1) as string));
    const held = names.map((n) => promptsOf(read(n)));
    expect(held.flat()).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (const n of names) expect(Buffer.byteLength(read(n))).toBeLessThanOrEqual(CAP);
    // Closed notes are full: one more prompt would not have fitted.
    for (const h of held.slice(0, -1)) expect(h.length).toBeGreaterThan(5);
    names.slice(1).forEach((n, i) => {
      expect(frontmatterOf(read(n)).continues).toBe(names[0]);
      expect(headingsOf(read(n))[0].text).toMatch(new RegExp(`\\(part ${i + 2}\\)$`));
      expect(n).toBe(names[0].replace(/\.md$/, `-${i + 2}.md`));
    });
    // A closed note's file lists are its own prompts', and it ends when its last prompt was asked.
    const first = frontmatterOf(read(names[0]));
    expect(first.files_read).toEqual(held[0].map((i) => `log-${i}.md`)); // relative to the cwd
    expect(Date.parse(String(first.ended))).toBeLessThan(Date.parse(String(frontmatterOf(read(names[1])).ended)));
  });

  it('ingested a turn at a time, as the Stop hook does, it writes the same notes, byte for byte, as read at once', () => {
    const lines = Array.from({ length: 40 }, (_, i) => turnLines(i + 1)).flat();
    for (let i = 0; i < lines.length; i++) {
      appendFileSync(transcript, lines[i]);
      // Half the time mid-turn: the last prompt is still growing when the note is closed.
      if (i % 2 === 1) ingestTranscript(transcript, opts);
    }
    const grown = notes().map((n) => [n, read(n)]);
    const once = { ...opts, sessionsDir: join(root, 'vault', 'once'), stateDir: join(root, 'vault', '.tsm', 'once') };
    ingestTranscript(transcript, once);
    expect(notes(once.sessionsDir).map((n) => [n, read(n, once.sessionsDir)])).toEqual(grown);
    expect(grown.length).toBeGreaterThan(1);
  });

  it('with its ingest state lost, the session is read again into the same notes: none taken for edited, none added', () => {
    writeFileSync(transcript, Array.from({ length: 30 }, (_, i) => turnLines(i + 1)).flat().join(''));
    ingestTranscript(transcript, opts);
    const before = notes().map((n) => [n, read(n)]);
    rmSync(opts.stateDir, { recursive: true, force: true });
    const again = ingestTranscript(transcript, opts);
    expect(again).toMatchObject({ changed: false, kept: [] });
    expect(notes().map((n) => [n, read(n)])).toEqual(before);
  });

  it('a closed note is not written again; a continuation the user edited is left alone and the session goes on', () => {
    writeFileSync(transcript, Array.from({ length: 30 }, (_, i) => turnLines(i + 1)).flat().join(''));
    ingestTranscript(transcript, opts);
    const before = notes().map((n) => read(n));
    expect(before.length).toBeGreaterThan(1);
    const last = notes().at(-1) as string;
    writeFileSync(join(opts.sessionsDir, last), read(last) + '\nmy own remark\n');
    appendFileSync(transcript, turnLines(31).join(''));
    const r = ingestTranscript(transcript, opts);
    expect(r.kept.map((k) => k.path)).toEqual([join(opts.sessionsDir, last)]);
    const after = notes();
    expect(after.length).toBe(before.length + 1);
    after.slice(0, -2).forEach((n, i) => expect(read(n)).toBe(before[i]));
    expect(read(last)).toContain('my own remark');
    expect(promptsOf(read(after.at(-1) as string))).toEqual([31]);
  });

  it('a prompt too big for a note alone: open while it is the last, closed with it alone once another follows', () => {
    writeFileSync(transcript, turnLines(1, 900).join(''));
    const big = turnLines(2, 900);
    // 40 reads: 40 action lines, with the answer over the size by itself.
    const line = JSON.parse(big[3]);
    line.message.content[0].text = 'x '.repeat(CAP);
    big[3] = JSON.stringify(line) + '\n';
    appendFileSync(transcript, big.join(''));
    ingestTranscript(transcript, { ...opts, answerChars: 1_000_000 });
    expect(notes().map((n) => promptsOf(read(n)))).toEqual([[1], [2]]);
    appendFileSync(transcript, turnLines(3).join(''));
    ingestTranscript(transcript, { ...opts, answerChars: 1_000_000 });
    expect(notes().map((n) => promptsOf(read(n)))).toEqual([[1], [2], [3]]);
  });
});
