// `tsm search -f md`: a summary is plain text on the line above `**Source:** \`path\``, in one paragraph. A
// lone backtick in it (a title `Use \`npm`, an unclosed code span in the first sentence) opened a code span
// that the Source line's first backtick closed: `**Source:**` rendered as code and the path as text.
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'title-tick.md': '---\ntitle: "Use `npm walrus"\n---\nThe walrus body.\n',
  'text-tick.md': '# Walrus text\n\nA walrus with `an unclosed tick.\n',
  'pair.md': '# Walrus pair `a` and ``b\n\nWalrus \\`escaped tick.\n',
});

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** Per result paragraph (the one holding `**When:**`): the value of the code span right after `**Source:**`. */
function sourcePaths(md: string): (string | null)[] {
  const tree = unified().use(remarkParse).parse(md) as Node;
  return (tree.children ?? [])
    .filter((p) => p.type === 'paragraph' && p.children?.some((c) => c.type === 'strong' && c.children?.[0]?.value === 'When:'))
    .map((p) => {
      const kids = p.children ?? [];
      const at = kids.findIndex((c) => c.type === 'strong' && c.children?.[0]?.value === 'Source:');
      const code = at === -1 ? undefined : kids[at + 2];
      return code?.type === 'inlineCode' ? (code.value ?? null) : null;
    });
}

describe('tsm search -f md: backticks in a summary', () => {
  it('are text: every result names its note in a code span after **Source:**', () => {
    const r = tsm(['search', 'walrus', '-f', 'md', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(sourcePaths(r.stdout).sort()).toEqual(['pair.md', 'text-tick.md', 'title-tick.md']);
    expect(r.stdout).toContain('**Summary:** Use \\`npm walrus');
  });
});
