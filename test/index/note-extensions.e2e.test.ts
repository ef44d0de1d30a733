// Links go by the vault's note extensions ("extensions" in .tsm/config.json), the rule the scanner uses to
// decide what a note is: link resolution hard-coded .md and .markdown, so in a vault of .mdx notes `[[page]]`,
// `[p](page)` and a folder link left page.mdx and folder/index.mdx unresolved, an image link to a note was no
// embed, and in a vault of .md notes `[[x]]` named the attachment x.markdown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

interface Outgoing {
  kind: string;
  target: string;
  targetPath: string | null;
  attachmentPath: string | null;
}

let vault: { dir: string; cleanup: () => void } | undefined;
afterEach(() => vault?.cleanup());

function outgoing(dir: string, note: string): Outgoing[] {
  const r = tsm(['related', note, '--json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).outgoing as Outgoing[];
}

const LINKS = '# A\n\n[[page]], [p](page), [f](folder/), [[sub-page]], ![i](page.mdx) and [[page.mdx]].\n';
const MDX_NOTES = {
  'a.md': LINKS,
  'page.mdx': '# Page\n\ntext\n',
  'folder/index.mdx': '# Folder\n\ntext\n',
  'sub/sub-page.mdx': '# Sub page\n\ntext\n',
};

describe('note extensions in link resolution', () => {
  it('a vault of .md and .mdx notes: every link to an .mdx note resolves, by path, name and folder page', () => {
    vault = makeVault({ ...MDX_NOTES, '.tsm/config.json': '{"extensions": [".md", ".mdx"]}' });
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    expect(outgoing(vault.dir, 'a.md').map((l) => [l.kind, l.target, l.targetPath])).toEqual([
      ['wikilink', 'page', 'page.mdx'],
      ['markdown', 'page', 'page.mdx'],
      ['markdown', 'folder/', 'folder/index.mdx'],
      ['wikilink', 'sub-page', 'sub/sub-page.mdx'],
      ['embed', 'page.mdx', 'page.mdx'],
      ['wikilink', 'page.mdx', 'page.mdx'],
    ]);
    // and a note is named by its name without the extension
    const r = tsm(['related', 'sub-page', '--json'], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe('sub/sub-page.mdx');
  });

  it('tsm related takes a path without the note extension of the vault, as its --help says (not only .md)', () => {
    vault = makeVault({ ...MDX_NOTES, '.tsm/config.json': '{"extensions": [".mdx"]}' });
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    const r = tsm(['related', 'sub/sub-page', '--json'], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe('sub/sub-page.mdx');
    // The help named `.md` alone, though any of "extensions" may be left out.
    const help = tsm(['related', '--help'], { cwd: vault.dir }).stdout;
    expect(help).toMatch(/path without its note extension/);
    expect(help).not.toMatch(/without \.md/);
  });

  it('adding an extension to config.json reads the notes again: their links to the new notes resolve', () => {
    vault = makeVault({ ...MDX_NOTES, '.tsm/config.json': '{"extensions": [".md"]}' });
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    expect(outgoing(vault.dir, 'a.md').filter((l) => l.targetPath !== null)).toEqual([]);
    writeFileSync(join(vault.dir, '.tsm/config.json'), '{"extensions": [".md", ".mdx"]}');
    const r = tsm(['index'], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/extensions changed in config\.json/);
    expect(outgoing(vault.dir, 'a.md').every((l) => l.targetPath !== null)).toBe(true);
  });

  it('a vault of .md notes: a file x.markdown is an attachment, named with its extension as other files are', () => {
    vault = makeVault({ '.tsm/.keep': '', 'a.md': '# A\n\n[[x]] and [[x.markdown]].\n', 'x.markdown': '# X\n' });
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    expect(outgoing(vault.dir, 'a.md').map((l) => [l.target, l.attachmentPath])).toEqual([
      ['x', null],
      ['x.markdown', 'x.markdown'],
    ]);
  });
});

describe('note extensions in ranking', () => {
  it("a note's extension is no word of its file name: x.markdown does not rank above x.md for `markdown`", () => {
    // Two notes alike but for their extensions, and enough others that `markdown` is no common word.
    const filler = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`filler${i}.md`, `# Note ${i}\n\nGardening, day ${i}, and tables.\n`]));
    const note = '# Tables\n\nHow to write markdown tables with pipes.\n';
    vault = makeVault({ ...filler, 'alpha.md': note, 'beta.markdown': note, '.tsm/config.json': '{"extensions": [".md", ".markdown"]}' });
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    const r = tsm(['search', '-f', 'json', 'markdown tables'], { cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    const hits = JSON.parse(r.stdout) as { path: string; score: number }[];
    const score = (path: string) => hits.find((h) => h.path === path)?.score;
    expect(score('beta.markdown')).toBeDefined();
    expect(score('beta.markdown')).toBe(score('alpha.md'));
  });
});
