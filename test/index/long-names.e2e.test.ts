// Every section of a note repeats its first aliases and tags in its full-text head: one alias or tag of
// thousands of words (a paragraph pasted into `aliases:`) cost a note of 300 sections seconds to index and
// tens of megabytes of index. A name over MAX_NAME_CHARS is left out, with a warning naming the note.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const words = (prefix: string) => Array.from({ length: 20_000 }, (_, i) => `${prefix}${i.toString(36)}`).join(' ');
const sections = Array.from({ length: 300 }, (_, i) => `## Part ${i}\n\nzebra ${i}\n`).join('');

const NOTES: Record<string, string> = {
  'long-alias.md': `---\naliases: ["${words('a')}", Apollo]\n---\n${sections}`,
  'long-tag.md': `---\ntags: [${words('t').replace(/ /g, '-')}, rocket]\n---\n${sections}`,
  'links.md': '# Links\n\nSee [[Apollo]].\n',
};

describe('an alias or tag of thousands of words', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault(NOTES);
  });
  afterAll(() => vault.cleanup());

  it('is left out with a warning; the note, its other names and the index are as usual', () => {
    const run = tsm(['index', '--json'], { cwd: vault.dir, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 3, skipped: 0 });
    // 1.4 MB with the rule; 67 MB without it (and 10 s).
    expect(statSync(join(vault.dir, '.tsm/index.db')).size).toBeLessThan(10 * 1024 * 1024);
    const status = JSON.parse(tsm(['status', '--json'], { cwd: vault.dir }).stdout) as { warningList: { path: string; message: string }[] };
    expect(status.warningList).toEqual([
      { path: 'long-alias.md', message: expect.stringMatching(/^1 alias over 200 characters left out .*shorten it/) },
      { path: 'long-tag.md', message: expect.stringMatching(/^1 tag over 200 characters left out .*shorten it/) },
    ]);
    const hits = JSON.parse(tsm(['search', 'zebra', '--tag', 'rocket', '-f', 'json'], { cwd: vault.dir }).stdout) as { path: string; tags: string[] }[];
    expect(hits.map((h) => [h.path, h.tags])).toEqual([['long-tag.md', ['rocket']]]);
    const related = JSON.parse(tsm(['related', 'links.md', '--json'], { cwd: vault.dir }).stdout) as { outgoing: { targetPath: string | null }[] };
    expect(related.outgoing.map((l) => l.targetPath)).toEqual(['long-alias.md']);
  });
});
