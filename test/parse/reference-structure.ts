// Test helper: block structure as remark-parse + remark-frontmatter see the whole note in one parse
// (the slow, obvious way). The fast path in src/parse/structure.ts must always agree with it.
import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const withFrontmatter = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).freeze();
const commonmark = unified().use(remarkParse).freeze();

export interface ReferenceStructure {
  /** `depth:first-last` of root-level headings, 0-based lines. */
  headings: string[];
  /** 0-based lines inside code blocks. */
  codeLines: number[];
  /** 0-based lines inside HTML blocks. */
  htmlLines: number[];
  /** 0-based closing fence line of the frontmatter, or -1. */
  frontmatterEnd: number;
}

export function referenceStructure(content: string): ReferenceStructure {
  let tree = withFrontmatter.parse(content) as Root;
  // After a failed frontmatter attempt (an unclosed leading `---`) micromark-extension-frontmatter
  // leaves the next line mis-parsed ('---\n- a' gives a paragraph, not a list): without frontmatter
  // the note is plain CommonMark, so parse it as that.
  if (tree.children[0]?.type !== 'yaml') tree = commonmark.parse(content) as Root;
  const lines = content.split(/\r\n|\r|\n/);
  const out: ReferenceStructure = { headings: [], codeLines: [], htmlLines: [], frontmatterEnd: -1 };
  // An unclosed block may end at column 1 of the line after it: that line holds nothing of it.
  const span = (n: Nodes): [number, number] => {
    const { start, end } = n.position!;
    let last = end.column === 1 && end.line > start.line ? end.line - 2 : end.line - 1;
    // Trailing blank lines of an unclosed block hold nothing of it.
    while (last > start.line - 1 && /^[ \t]*$/.test(lines[last] ?? '')) last--;
    return [start.line - 1, last];
  };
  const visit = (node: Nodes, depth: number) => {
    if (node.type === 'yaml') out.frontmatterEnd = span(node)[1];
    else if (node.type === 'heading' && depth === 1) out.headings.push(`${node.depth}:${span(node).join('-')}`);
    else if (node.type === 'code' || node.type === 'html') {
      const [a, b] = span(node);
      for (let l = a; l <= b; l++) (node.type === 'code' ? out.codeLines : out.htmlLines).push(l);
    } else if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading') {
      for (const c of node.children) visit(c as Nodes, depth + 1);
    }
  };
  visit(tree, 0);
  return out;
}
