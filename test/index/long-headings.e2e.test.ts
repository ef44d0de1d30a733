// A title or heading is repeated by every section row below it and by every chunk of its own section: a
// 1 MB note of one very long title (a paragraph pasted into `title:`) or heading made an index of over a
// gigabyte. Cut to MAX_HEADING_CHARS in those rows, the index stays a few times the note's size.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADING_CHARS } from '../../src/parse/sections.js';
import { makeVault, tsm } from '../helpers/cli.js';

const LONG = 100_000;

const NOTES: Record<string, string> = {
  // 300 sections under one title of 100,000 characters: 30 MB of heading paths before the cut.
  'long-title.md': `---\ntitle: "Opening ${'t'.repeat(LONG)} ending"\n---\n` + Array.from({ length: 300 }, (_, i) => `## Part ${i}\n\nzebra ${i}\n`).join(''),
  // One heading of 100,000 characters over a body cut into about 100 chunks: 20 MB of headings and paths before.
  'long-heading.md': `# Opening ${'h'.repeat(LONG)} ending\n\n` + Array.from({ length: 8_000 }, (_, i) => `zebra line ${i} of the body`).join('\n') + '\n',
  'plain.md': '# Plain\n\nAn ordinary zebra.\n',
};

describe('a very long title or heading', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault(NOTES);
  });
  afterAll(() => vault.cleanup());

  it('is cut in the section rows, so the index stays small; the note is found by it and by its text', () => {
    const run = tsm(['index', '--json'], { cwd: vault.dir, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 3, skipped: 0 });
    // 2.4 MB with the cut; 50 MB without it.
    expect(statSync(join(vault.dir, '.tsm/index.db')).size).toBeLessThan(10 * 1024 * 1024);
    const hits = JSON.parse(tsm(['search', 'zebra', '-f', 'json', '-n', '100', '--all-sections'], { cwd: vault.dir }).stdout) as {
      path: string;
      title: string;
      section: string;
    }[];
    expect(new Set(hits.map((h) => h.path))).toEqual(new Set(Object.keys(NOTES)));
    for (const h of hits) {
      // Title and heading each cut (with an ellipsis), plus the section's own short heading.
      expect(Array.from(h.section).length).toBeLessThanOrEqual(2 * MAX_HEADING_CHARS + 20);
      if (h.path !== 'plain.md') expect(h.section.startsWith('Opening ')).toBe(true);
    }
    // The note's title is kept whole where it is stored once.
    expect(hits.find((h) => h.path === 'long-title.md')?.title).toBe(`Opening ${'t'.repeat(LONG)} ending`);
    expect(JSON.parse(tsm(['search', 'opening', '-f', 'json'], { cwd: vault.dir }).stdout).map((h: { path: string }) => h.path).sort()).toEqual([
      'long-heading.md',
      'long-title.md',
    ]);
  });
});
