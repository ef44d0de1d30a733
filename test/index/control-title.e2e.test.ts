// A title of only control characters (`title: "\e[31m\x01"`, YAML escapes) was the note's title, shown as
// nothing in `tsm search` text and `-f md`, where a blank title falls back to the file name. It falls back now,
// as an H1 of only control characters falls back to the file name as an empty `#` does.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

describe('a title of only control characters', () => {
  const vault = useIndexedVault({
    'escapes.md': '---\ntitle: "\\e[31m\\x01"\n---\nThe walrus text.\n',
    'blank.md': '---\ntitle: "   "\n---\nThe walrus text.\n',
    'heading.md': '# \u001b[31m\u0001\n\nThe walrus text.\n',
    'red.md': '---\ntitle: "\\e[31mRed walrus"\n---\nThe walrus text.\n',
  });

  it('falls back to the file name, as a blank one does; one with text keeps it', () => {
    const hits = JSON.parse(tsm(['search', 'walrus', '-f', 'json'], { cwd: vault.dir }).stdout) as { path: string; title: string }[];
    expect(Object.fromEntries(hits.map((h) => [h.path, h.title]))).toEqual({
      'escapes.md': 'escapes',
      'blank.md': 'blank',
      'heading.md': 'heading',
      'red.md': '\u001b[31mRed walrus',
    });
    const text = tsm(['search', 'walrus'], { cwd: vault.dir }).stdout;
    expect(text).toMatch(/escapes\.md:4 .*\n {3}escapes\n/);
    const md = tsm(['search', 'walrus', '-f', 'md'], { cwd: vault.dir }).stdout;
    expect(md).toContain('**Summary:** escapes — The walrus text.');
    expect(md).toContain('**Summary:** Red walrus — The walrus text.');
  });
});
