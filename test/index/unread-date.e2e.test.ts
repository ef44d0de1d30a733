// A frontmatter date that is no date (`created: yesterday`, `date: next week`, `created: 2026-02-30`) dated
// nothing, and the note fell back to its file's modification time with no word of why. It still falls back,
// now with a warning that names the key as the note wrote it (`Created:`), its value and the fix (tsm status,
// tsm doctor).
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const fix = (key: string, value: string) =>
  `frontmatter: ${key} "${value}" is no date tsm reads, so the note is dated by its file's modification time: write an ISO date, YYYY-MM-DD`;

describe('a frontmatter date that is no date', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault({
      'yesterday.md': '---\ncreated: yesterday\n---\nThe walrus text.\n',
      'next-week.md': '---\ndate: next week\n---\nThe walrus text.\n',
      'feb-30.md': '---\ncreated: 2026-02-30\n---\nThe walrus text.\n',
      // Keys are read in any case; the warning names the key as written, so the user finds it.
      'capital.md': '---\nCreated: someday\n---\nThe walrus text.\n',
      // A template's blanks, and a date beside an unread key: nothing to say.
      'blank.md': '---\ncreated:\ndate: 0000-00-00\n---\nThe walrus text.\n',
      'dated.md': '---\ndate: soon\ncreated: 2024-01-05\n---\nThe walrus text.\n',
    });
    const mtime = new Date(2025, 5, 15, 12);
    for (const name of ['yesterday.md', 'next-week.md', 'feb-30.md', 'capital.md', 'blank.md', 'dated.md']) utimesSync(join(vault.dir, name), mtime, mtime);
    const run = tsm(['index'], { cwd: vault.dir });
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(() => vault.cleanup());

  it('is dated by the modification time as before, with a warning tsm status and tsm doctor name', () => {
    const hits = JSON.parse(tsm(['search', 'walrus', '-f', 'json'], { cwd: vault.dir }).stdout) as { path: string; date: string }[];
    expect(Object.fromEntries(hits.map((h) => [h.path, h.date]))).toEqual({
      'yesterday.md': '2025-06-15',
      'next-week.md': '2025-06-15',
      'feb-30.md': '2025-06-15',
      'capital.md': '2025-06-15',
      'blank.md': '2025-06-15',
      'dated.md': '2024-01-05',
    });
    const status = JSON.parse(tsm(['status', '--json'], { cwd: vault.dir }).stdout) as { warningList: { path: string; message: string }[] };
    expect(status.warningList).toEqual([
      { path: 'capital.md', message: fix('Created', 'someday') },
      { path: 'feb-30.md', message: fix('created', '2026-02-30') },
      { path: 'next-week.md', message: fix('date', 'next week') },
      { path: 'yesterday.md', message: fix('created', 'yesterday') },
    ]);
    const doctor = tsm(['doctor'], { cwd: vault.dir });
    expect(doctor.stdout + doctor.stderr).toMatch(/yesterday\.md: frontmatter: created "yesterday" is no date.*\n\s+fix: write the date as an ISO date, YYYY-MM-DD/);
  });
});
