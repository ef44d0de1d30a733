// End to end: the built `tsm ingest-session` on the real 2.0.76 transcript whose failed tool results carry a
// span that is never written. Claude Code appends a <system-reminder> to a tool's result (the real Read result
// on line 22 has one), and output can hold a <private> span: the error line of a failed action was picked line
// by line before those spans were removed, so a line from inside one became the note's `→ error:` text; a
// private key block's line, redacted alone, was no longer known for one, and was kept too.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { fixtureText } from './helpers.js';

const ID = 'c45af7b1-cb7c-4e51-93db-8cbb250a877a';
const REAL = fixtureText('claude-code-2.0.76-main.jsonl').trimEnd().split('\n');

/** The real transcript with the result on `line` (1-based, a failed tool's) given `content` instead. */
function withResult(lines: string[], line: number, content: string): string[] {
  const entry = JSON.parse(lines[line - 1]);
  entry.message.content[0].content = content;
  return lines.map((l, i) => (i === line - 1 ? JSON.stringify(entry) : l));
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-error-hidden-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a failed tool's error line never comes from a hidden span", () => {
  it('takes no line of a <system-reminder> or <private> span in the result, and keeps a telling line outside them', () => {
    // Line 30: `cat nonexistent.txt` failed; line 48: `python …` failed (exit 127).
    let lines = withResult(
      REAL,
      30,
      "Exit code 1\n\n<system-reminder>\nNote: /workspace/app.py was modified, either by the user or by a linter. Here are the relevant changes:\n     3→raise RuntimeError('reminder text')\n</system-reminder>",
    );
    lines = withResult(lines, 48, 'Exit code 127\n<private>\nthe db host db.internal is failing over\n</private>\n/bin/bash: line 1: python: command not found');
    const vault = join(work, 'vault');
    mkdirSync(vault, { recursive: true });
    const transcript = join(work, `${ID}.jsonl`);
    writeFileSync(transcript, lines.map((l) => `${l}\n`).join(''));

    const r = tsm(['--vault', vault, 'ingest-session', transcript]);
    expect(r.code, r.stderr).toBe(0);
    const [name] = readdirSync(join(vault, 'sessions'));
    const note = readFileSync(join(vault, 'sessions', name), 'utf8');
    const state = readdirSync(join(vault, '.tsm/sessions')).map((f) => readFileSync(join(vault, '.tsm/sessions', f), 'utf8')).join('');
    for (const text of [note, state]) {
      expect(text).not.toContain('reminder text');
      expect(text).not.toContain('db.internal');
    }
    // Nothing outside the spans says why `cat` failed: the action says `→ error` alone.
    expect(note).toContain('- Bash `cat nonexistent.txt` → error\n');
    expect(note).toContain('- Bash `python /workspace/number_generator.py` → error: `/bin/bash: line 1: python: command not found`\n');
  });

  it('takes no line of a private key block in the result: the block is redacted whole before a line is picked', () => {
    // Redacted line by line, the block's base64 line holding "fail" was the telling line, and was kept.
    const lines = withResult(
      REAL,
      30,
      'Exit code 1\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDfailQ0dKsYtaNoaCCI0kAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\n-----END OPENSSH PRIVATE KEY-----',
    );
    const vault = join(work, 'vault-key');
    mkdirSync(vault, { recursive: true });
    const transcript = join(work, 'key', `${ID}.jsonl`);
    mkdirSync(join(work, 'key'), { recursive: true });
    writeFileSync(transcript, lines.map((l) => `${l}\n`).join(''));

    const r = tsm(['--vault', vault, 'ingest-session', transcript]);
    expect(r.code, r.stderr).toBe(0);
    const [name] = readdirSync(join(vault, 'sessions'));
    const note = readFileSync(join(vault, 'sessions', name), 'utf8');
    expect(note).not.toContain('QyNTUxOQ');
    expect(note).toContain('- Bash `cat nonexistent.txt` → error: `[REDACTED]`\n');
  });
});
