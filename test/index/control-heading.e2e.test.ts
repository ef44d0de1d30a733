// A heading of only control characters (`## \e[31m\a`, `## \x01\x02`) was a heading of its own: its escape
// codes were raw in the section path of `-f json` and `-f xml`, and text and `-f md` showed an empty step
// (`Doc > `). It is an empty heading now, as `## ` is: its section's path stays at its parent.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

describe('a heading of only control characters', () => {
  const vault = useIndexedVault({
    'note.md': [
      '# Doc',
      '',
      '## \u001b[31m\u0007',
      '',
      'The zebrafish red.',
      '',
      '## \u0001\u0002',
      '',
      'The zebrafish ctrl.',
      '',
      '## ',
      '',
      'The zebrafish empty.',
      '',
      '\u001b[32m',
      '---',
      '',
      'The zebrafish setext.',
      '',
    ].join('\n'),
  });

  it('leaves the section path at its parent, as an empty heading does, in every format', () => {
    const args = ['search', 'zebrafish', '--all-sections'];
    const hits = JSON.parse(tsm([...args, '-f', 'json'], { cwd: vault.dir }).stdout) as { snippet: string; section: string }[];
    expect(hits.map((h) => [h.snippet, h.section]).sort()).toEqual([
      ['The zebrafish ctrl.', 'Doc'],
      ['The zebrafish empty.', 'Doc'],
      ['The zebrafish red.', 'Doc'],
      ['The zebrafish setext.', 'Doc'],
    ]);
    const xml = tsm([...args, '-f', 'xml'], { cwd: vault.dir }).stdout;
    expect(xml.match(/<section>[^<]*<\/section>/g)).toEqual(Array(4).fill('<section>Doc</section>'));
    for (const format of ['text', 'md']) {
      const out = tsm([...args, '-f', format], { cwd: vault.dir }).stdout;
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(out).not.toContain('Doc >');
    }
  });
});
