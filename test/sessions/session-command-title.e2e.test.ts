// A session note's title is its first request, not a command on the session itself. After `/clear` Claude
// Code starts a new session whose transcript opens with the command (the caveat line, the
// `<command-name>/clear</command-name>` line, its empty `<local-command-stdout>`): the note was titled
// `workspace: /clear`. The lines here are the real 2.0.76 transcript's own, its `/compact` lines put first as `/clear`.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { renderSessionNote } from '../../src/sessions/render.js';
import { fixtureText } from './helpers.js';

const SESSION = 'c45af7b1-cb7c-4e51-93db-8cbb250a877a';
const MAIN = fixtureText('claude-code-2.0.76-main.jsonl').trimEnd().split('\n');
// Lines 61-63: the caveat (isMeta), `<command-name>/compact</command-name>…`, its `<local-command-stdout>`.
const [CAVEAT, COMPACT, STDOUT] = MAIN.slice(60, 63);
const command = (name: string, args = '') => COMPACT.replace('>/compact<', `>/${name}<`).replace('>compact<', `>${name}<`).replace('<command-args></command-args>', `<command-args>${args}</command-args>`);
const PROMPTS = MAIN.slice(0, 59); // the five typed prompts, before the compaction

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-command-title-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const titleOf = (lines: string[]) => /^# (.*)$/m.exec(renderSessionNote(applyTranscriptLines(null, lines, SESSION), { answerChars: 1200 }))?.[1];

describe('the title of a session opened by a command on the session', () => {
  it('is its first real prompt; the command stays the first prompt (tsm ingest-session)', () => {
    const vault = join(work, 'vault');
    mkdirSync(vault);
    const transcript = join(work, `${SESSION}.jsonl`);
    writeFileSync(transcript, [CAVEAT, command('clear'), STDOUT, ...PROMPTS].join('\n') + '\n');
    const r = tsm(['--vault', vault, 'ingest-session', transcript]);
    expect(r.code, r.stderr).toBe(0);
    const [name] = readdirSync(join(vault, 'sessions'));
    const note = readFileSync(join(vault, 'sessions', name), 'utf8');
    expect(note).toMatch(/^# workspace: can you run a command ls -la$/m);
    expect(note).toMatch(/^## 1\. \/clear$/m);
    expect(note).toMatch(/^## 2\. can you run a command ls -la$/m);
  });

  it('passes by /model with its argument and /resume alike', () => {
    expect(titleOf([command('model', 'opus'), STDOUT, command('resume'), ...PROMPTS])).toBe('workspace: can you run a command ls -la');
  });

  it('is `session <id>` while only such commands were typed', () => {
    expect(titleOf([CAVEAT, command('clear'), STDOUT])).toBe('workspace: session c45af7b1');
  });

  it('is a command that asks Claude for something (/init, a plugin command)', () => {
    expect(titleOf([command('init'), ...PROMPTS])).toBe('workspace: /init');
    expect(titleOf([command('handgemacht:create-beads', 'the release plan'), ...PROMPTS])).toBe('workspace: /handgemacht:create-beads the release plan');
  });
});
