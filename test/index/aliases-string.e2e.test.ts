// Frontmatter `aliases: Apollo, Moonshot` (one string) names the note twice, as Obsidian reads it: its quick
// switcher and link suggestions offer both, and `[[Moonshot]]` opens the note. tsm read one alias,
// "Apollo, Moonshot", and left `[[Moonshot]]` unresolved.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'projects/sync-engine.md': '---\naliases: Apollo, Moonshot\n---\n# Sync engine\n\nThe plan.\n',
    'people.md': '---\naliases:\n  - Smith, John\n---\n# People\n\nWho is who.\n',
    'links.md': '# Links\n\nSee [[Moonshot]], [[Apollo]] and [[Smith, John]].\n',
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

it('a string of aliases separated by commas is each alias; a list item is one, commas and all', () => {
  const related = JSON.parse(tsm(['related', 'links.md', '--json'], { cwd: v.dir }).stdout) as { outgoing: { targetPath: string | null }[] };
  expect(related.outgoing.map((l) => l.targetPath)).toEqual(['projects/sync-engine.md', 'projects/sync-engine.md', 'people.md']);
});
