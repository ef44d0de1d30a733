// Which attachment a link names when several share its file name: as Obsidian picks among notes (resolve-link.ts
// nearest): the exact vault path, else the path the link's folders end, else the one in the linking note's own
// folder, else the shortest. It was the exact path else the shortest: with Obsidian's attachment folder "in a
// subfolder under the current folder" (or "same folder as the current file"), every `![[diagram.png]]` of
// projB named projA's diagram, and a markdown link's relative path (`![](img/x.png)`) was not read as one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'projA/notes.md': '# A\n\n![[diagram.png]]\n',
    'projA/diagram.png': png,
    'projB/notes.md': '# B\n\n![[diagram.png]]\n\n![](diagram.png)\n\n[spec](docs/spec.pdf)\n',
    'projB/diagram.png': png,
    'projB/docs/spec.pdf': '%PDF-1.4',
    'docs/spec.pdf': '%PDF-1.4',
    'root.md': '# Root\n\n![[diagram.png]] ![[projB/diagram.png]] ![[docs/spec.pdf]]\n',
    'deep/er/x.md': '# X\n\n![[b/diagram.png]]\n',
    'a/b/diagram.png': png,
    'b/c/diagram.png': png,
    // `./` and `../` name a path from the linking note's folder, in any syntax: the root's img/x.png and
    // y.png were picked (the exact-path test read `./y.png` as `y.png`; `../` was never walked up).
    'img/x.png': png,
    'y.png': png,
    'notes/img/x.png': png,
    'notes/deep/y.png': png,
    'notes/deep/b.md': '# B\n\n![](../img/x.png) ![](./y.png) [x](../img/x.png) ![[./y.png]]\n',
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const outgoing = (note: string) =>
  (JSON.parse(tsm(['related', note, '--json'], { cwd: v.dir }).stdout) as { outgoing: { target: string; attachmentPath: string | null }[] }).outgoing.map(
    (l) => `${l.target} → ${l.attachmentPath}`,
  );

it("a note's own folder's file, for each of the notes that link to one of that name", () => {
  expect(outgoing('projA/notes.md')).toEqual(['diagram.png → projA/diagram.png']);
  expect(outgoing('projB/notes.md')).toEqual(['diagram.png → projB/diagram.png', 'diagram.png → projB/diagram.png', 'docs/spec.pdf → projB/docs/spec.pdf']);
});

it('an exact vault path first; the folders a link names; else the shortest path', () => {
  expect(outgoing('root.md')).toEqual(['diagram.png → a/b/diagram.png', 'projB/diagram.png → projB/diagram.png', 'docs/spec.pdf → docs/spec.pdf']);
  expect(outgoing('deep/er/x.md')).toEqual(['b/diagram.png → a/b/diagram.png']);
});

it('a path from the note\'s folder when it starts with ./ or ../, whatever the syntax', () => {
  expect(outgoing('notes/deep/b.md')).toEqual([
    '../img/x.png → notes/img/x.png',
    './y.png → notes/deep/y.png',
    '../img/x.png → notes/img/x.png',
    './y.png → notes/deep/y.png',
  ]);
});
