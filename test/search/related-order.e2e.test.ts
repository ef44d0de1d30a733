// A hit's related list (`related` in JSON, `<related>` in the hook's XML) puts first the linked notes this
// search ranked below the page: the query's own evidence of where to look next. In link order alone the
// list was the note's first five links, and a linked note on the question came after them or not at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
const others = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
const links = others.map((o) => `[[${o}]]`).join(', ');
beforeAll(() => {
  v = makeVault({
    '.tsm/config.json': '{}',
    // The hub links six notes on nothing in particular before the one about the question.
    'hub.md': `# Collar antenna hub\n\nThe collar antenna choice, with ${links} and [[whip]].\n`,
    // This one links the note about the question first.
    'index.md': `# Valley test index\n\nThe valley test index: [[whip]], then ${links}.\n`,
    'whip.md': '# Whip\n\nThe whip antenna on the collar reached 4 km in the valley test.\n',
    ...Object.fromEntries(others.map((o) => [`${o}.md`, `# ${o}\n\nA note about ${o}.\n`])),
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const top = (query: string, n: number) => {
  const r = tsm(['search', query, '-f', 'json', '-n', String(n)], { cwd: v.dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { path: string; related: string[] }[];
};

describe('related paths', () => {
  it('put the linked notes the search ranked, below the page, first', () => {
    const [hub] = top('collar antenna hub', 1);
    expect(hub.path).toBe('hub.md');
    expect(hub.related).toEqual(['whip.md', 'alpha.md', 'bravo.md', 'charlie.md', 'delta.md']);
  });

  it("leave the page's own results last", () => {
    const hits = top('valley test index', 2);
    expect(hits.map((h) => h.path)).toEqual(['index.md', 'whip.md']);
    // whip.md is the second result: the reader has it, so the five links after it come first.
    expect(hits[0].related).toEqual(['alpha.md', 'bravo.md', 'charlie.md', 'delta.md', 'echo.md']);
  });
});
