// "did you mean" through the built CLI: the word the notes write most among the nearest, never a stopword.
import { afterAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

// The first notes by rowid hold `templat…` only in their headings; the plugin's name is written in many
// notes' text, and a near misspelling (`templatey`) in one.
const files: Record<string, string> = {};
for (let i = 0; i < 8; i++) files[`a/heading-${i}.md`] = `# Templates ${i}\n\n## Templates\n\nriver stone ${i}\n`;
for (let i = 0; i < 6; i++) files[`b/plugin-${i}.md`] = `# Plugin ${i}\n\nUse templater for this: templater scripts, templater hotkeys.\n`;
files['c/odd.md'] = '# Odd\n\nA templatey word once, no more than once.\n';
files['c/knife.md'] = '# Knife\n\nKeep the blade sharp.\n';
const vault = makeVault(files);
afterAll(() => vault.cleanup());

const suggest = (q: string) => {
  const r = tsm(['search', q, '--vault', vault.dir]);
  expect(r.code, r.stderr).toBe(0);
  return r.stderr.match(/^tsm: did you mean: (.*)$/m)?.[1] ?? null;
};

describe('did you mean', () => {
  it('offers the word the notes write most among the nearest (templatr → templater, not templatey)', () => {
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    expect(suggest('templatr')).toBe('templater');
  });

  it('offers nothing for a stopword, nor another stopword (thanks → than)', () => {
    expect(suggest('thanks')).toBeNull();
  });

  // `c#` is searched as `csharp`, whose nearest written word is `sharp`; but the query has no token `csharp`
  // to replace, and "did you mean: c#" was printed for `c#`.
  it('offers nothing that is the query as typed (c#, searched as csharp)', () => {
    expect(suggest('c#')).toBeNull();
    expect(suggest('C# templatr')).toBe('C# templater');
  });
});
