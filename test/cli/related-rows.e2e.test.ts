// `tsm related` lists each note (or file) linked once, with the lines of its links, and `-n` counts those:
// `[[B]] [[B]] [[B]]` on one line gave three identical `b.md  wikilink:5` rows, and `-n 1` one note of several.
// `--json` keeps one record per link, as before; -n keeps the links of the first N notes.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  'a.md': '---\nrelated: ["[[C]]"]\n---\n# A\n\n[[B]] [[B]] [[B]]\n\nagain [[B]] and [[C]] and [[nowhere]] [[nowhere]]\n\n[[B#Part]] ![[C]]\n',
  'b.md': '# B\n\nsee [[A]]\n\n[[A]] and ![[A]]\n',
  'c.md': '# C\n\n[[A]] [[A]]\n',
  'd.md': '---\nup: "[[A]]"\n---\n# D\n',
});

const related = (...args: string[]) => tsm(['related', ...args, '--vault', vault.dir]);
const rowsOf = (text: string, list: 'outgoing' | 'backlinks') =>
  text.split(`\n${list} (`)[1].split('\n\n')[0].split('\n').slice(1).filter((row) => row !== '');

describe('tsm related: one row per note linked', () => {
  it('outgoing: each target once, its lines and kinds; headings that differ stay on their links', () => {
    const r = related('a.md');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('outgoing (3)\n');
    expect(rowsOf(r.stdout, 'outgoing')).toEqual([
      '  b.md  wikilink:6,8  wikilink#Part:10',
      '  c.md  wikilink:8  embed:10  related (frontmatter)',
      '  nowhere  [unresolved]  wikilink:8',
    ]);
  });

  it('backlinks: each linking note once', () => {
    const r = related('a.md');
    expect(r.stdout).toContain('backlinks (3)\n');
    expect(rowsOf(r.stdout, 'backlinks')).toEqual(['  b.md  wikilink:3,5  embed:5', '  c.md:3  wikilink', '  d.md  related']);
  });

  it('-n counts notes, not links', () => {
    const r = related('a.md', '-n', '2');
    expect(r.stdout).toContain('outgoing (2 of 3)\n');
    expect(rowsOf(r.stdout, 'outgoing')).toEqual(['  b.md  wikilink:6,8  wikilink#Part:10', '  c.md  wikilink:8  embed:10  related (frontmatter)']);
    expect(r.stdout).toContain('backlinks (2 of 3)\n');
  });

  it('--json: one record per link as before; -n keeps the links of the first N notes', () => {
    type Link = { targetPath: string | null; sourcePath: string; line: number | null };
    const all = JSON.parse(related('a.md', '--json').stdout) as { outgoing: Link[]; backlinks: Link[] };
    expect(all.outgoing.map((l) => l.targetPath)).toEqual(['b.md', 'b.md', 'b.md', 'b.md', 'c.md', null, null, 'b.md', 'c.md', 'c.md']);
    expect(all.backlinks.map((l) => `${l.sourcePath}:${l.line}`)).toEqual(['b.md:3', 'b.md:5', 'b.md:5', 'c.md:3', 'c.md:3', 'd.md:null']);
    const one = JSON.parse(related('a.md', '--json', '-n', '1').stdout) as { outgoing: Link[]; backlinks: Link[] };
    expect(one.outgoing.map((l) => `${l.targetPath}:${l.line}`)).toEqual(['b.md:6', 'b.md:6', 'b.md:6', 'b.md:8', 'b.md:10']);
    expect(one.backlinks.map((l) => l.sourcePath)).toEqual(['b.md', 'b.md', 'b.md']);
  });
});
