// A Logseq graph through the built `tsm`: a page whose name holds a character a file name cannot (`What?`,
// file pages/What%3F.md) is titled by its decoded name and is the note `[[What?]]` links, as in Logseq.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  'pages/What%3F.md': '- Is it?\n',
  'pages/Project___Apollo.md': '- apollo\n',
  'journals/2026_11_27.md': '- see [[What?]] and [[Project/Apollo]]\n',
});

describe('Logseq page names decoded from file names', () => {
  it('[[What?]] links pages/What%3F.md, and the page has it as a backlink', () => {
    const out = tsm(['related', 'journals/2026_11_27.md', '--json', '--vault', vault.dir]);
    expect(out.code, out.stderr).toBe(0);
    const targets = (JSON.parse(out.stdout).outgoing as { target: string; targetPath: string | null }[]).map((l) => [l.target, l.targetPath]);
    expect(targets).toEqual([
      ['What?', 'pages/What%3F.md'],
      ['Project/Apollo', 'pages/Project___Apollo.md'],
    ]);
    const page = tsm(['related', 'What?', '--json', '--vault', vault.dir]);
    expect(page.code, page.stderr).toBe(0);
    expect(JSON.parse(page.stdout).backlinks.map((l: { sourcePath: string }) => l.sourcePath)).toEqual(['journals/2026_11_27.md']);
  });
});
