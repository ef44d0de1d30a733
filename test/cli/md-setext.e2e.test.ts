// `tsm search -f md`: a result's details are cleaned of control characters, and U+2028 there is a line break.
// So a `---` or `===` the parser read as text (inside a `<div>` a line of `\u0001` kept open; after a U+2028)
// could come right below a paragraph's line in the answer: a setext underline, which made every line above it
// up to `**Details:**` a heading.
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'html.md': '# Html walrus\n\nwalrus intro\n\n<div>\n\u0001\nwalrus words\n---\nmore\n',
  'sep.md': '# Sep walrus\n\nwalrus intro\nsecond line\u2028===\nmore\n',
  // A rule below a quote is a rule: it stays one.
  'quote.md': '# Quote walrus\n\n> walrus quoted\n---\nafter\n',
});

interface Node {
  type: string;
  depth?: number;
  children?: Node[];
}

describe('tsm search -f md: a setext underline in the details', () => {
  it('is escaped: the answer has no heading but the results', () => {
    const r = tsm(['search', 'walrus', '-f', 'md', '--detail', 'high', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    const tree = unified().use(remarkParse).parse(r.stdout) as Node;
    const headings = (tree.children ?? []).filter((n) => n.type === 'heading');
    expect(headings).toHaveLength(3);
    expect(headings.every((h) => h.depth === 2)).toBe(true);
    expect(r.stdout).toContain('walrus words\n\\---\nmore');
    expect(r.stdout).toContain('second line\n\\===\nmore');
    expect(r.stdout).toContain('> walrus quoted\n---\nafter');
    expect((tree.children ?? []).filter((n) => n.type === 'thematicBreak')).toHaveLength(1);
  });
});
