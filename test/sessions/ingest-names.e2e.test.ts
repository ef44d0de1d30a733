// End to end: `tsm ingest-session` shows a transcript's path as status and doctor show paths (src/text/controls.ts
// oneLine). A file name may hold anything: one with a newline and a colour escape printed a forged second line
// on stdout and coloured the terminal (or the pipe an agent reads). --json keeps the path exact.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixturePath } from './helpers.js';

const NAME = 'we\nFAKE: forged\u001b[31mred.jsonl';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-ingest-names-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('tsm ingest-session: a transcript named with control characters', () => {
  it('is shown on one clean line; --json names it exactly', () => {
    const vault = join(work, 'vault');
    const dir = join(work, 'transcripts');
    mkdirSync(vault, { recursive: true });
    mkdirSync(dir, { recursive: true });
    const transcript = join(dir, NAME);
    copyFileSync(fixturePath('claude-code-2.0.76-main.jsonl'), transcript);

    const r = tsm(['--vault', vault, 'ingest-session', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).not.toMatch(/^FAKE/m);
    expect(r.stdout).toBe(`${join(dir, 'we FAKE: forgedred.jsonl')} → sessions/2026-01-02-workspace-c45af7b1.md (6 prompts, written)\n`);

    const json = tsm(['--vault', vault, 'ingest-session', '--json', transcript]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { transcripts: { transcript: string }[] }).transcripts[0].transcript).toBe(transcript);
  });
});
