// Frontmatter keys tsm reads are read in any case: Obsidian reads `Tags:` and `Aliases:` as `tags:` and
// `aliases:`, Hugo `Title:` and `Description:` as `title:` and `description:`. tsm read the lower-case keys only:
// `--tag project` missed a note tagged `Tags: [project]`, `[[AI]]` was unresolved beside `Aliases: [AI]`, and the
// GitLab handbook's `Title: Self Managed` page was titled `_index`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'notes/artificial-intelligence.md': '---\nTags: [project]\nAliases: [AI]\n---\n# Artificial intelligence\n\nMachine learning overview.\n',
    'workflows/self-managed/_index.md': '---\nTitle: Self Managed\nDescription: License renewals for customers who run their own instance\n---\n\nSteps.\n',
    'links.md': '# Links\n\nSee [[AI]].\n',
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const search = (...args: string[]) =>
  (JSON.parse(tsm(['search', ...args, '-f', 'json'], { cwd: v.dir }).stdout) as { path: string; title: string }[]).map((r) => `${r.path} ${r.title}`);

it('Tags: and Aliases: tag a note and name it, as Obsidian reads them', () => {
  expect(search('overview', '--tag', 'project')).toEqual(['notes/artificial-intelligence.md Artificial intelligence']);
  const related = JSON.parse(tsm(['related', 'links.md', '--json'], { cwd: v.dir }).stdout) as { outgoing: { targetPath: string | null }[] };
  expect(related.outgoing.map((l) => l.targetPath)).toEqual(['notes/artificial-intelligence.md']);
});

it('Title: and Description: title and describe a note, as Hugo reads them', () => {
  expect(search('renewals')).toEqual(['workflows/self-managed/_index.md Self Managed']);
});
