// tsm search -f md's "key moment": a hit's surprise is its margin over the next candidate ranked, on the page
// or past it. The last hit of all had a margin over 0, surprise 1, and so every search that ran out of results
// called its last (and weakest) result a key moment.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

// A note named for the query, far ahead, then notes that say it once among ever more other words (scores in a
// slope, each a little below the one before); no frontmatter surprise. And a word only one note holds.
const vault = useIndexedVault({
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'n0.md': '# Wombat\n\nwombat wombat burrows.\n',
  ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`n${i + 1}.md`, `# Note ${i + 1}\n\nA wombat and filler words about burrows ${'dig soil '.repeat(i + 1)}here.\n`])),
  'lone.md': '# Lone\n\nThe quokka lives on an island.\n',
});

const headings = (args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'md', '--detail', 'none', '--vault', vault.dir]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l.startsWith('## Result '));
};
const flagged = (lines: string[]) => lines.map((l) => l.includes('key moment'));

describe('tsm search -f md: key moments', () => {
  it('does not call the last result a key moment for being last', () => {
    const all = headings(['wombat', '-n', '50']);
    expect(all).toHaveLength(6);
    expect(all.at(-1)).toMatch(/^## Result 6 \[rank: 6, score: [\d.]+\]$/);
    expect(headings(['quokka'])).toEqual(['## Result 1 [rank: 1, score: 1.00]']);
  });

  it('flags a hit by its margin over the next candidate, whether the limit cut that one off or not', () => {
    const all = flagged(headings(['wombat', '-n', '50']));
    // Some are key moments and some not, so the comparison below can tell.
    expect(all).toContain(true);
    expect(all).toContain(false);
    for (let n = 1; n <= all.length; n++) expect(flagged(headings(['wombat', '-n', String(n)])), `-n ${n}`).toEqual(all.slice(0, n));
  });
});
