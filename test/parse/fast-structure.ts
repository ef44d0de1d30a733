// Test helper: the fast path's block structure in the shape of referenceStructure().
import { findFrontmatter } from '../../src/parse/frontmatter.js';
import { splitLines } from '../../src/parse/lines.js';
import { LINE_CODE, LINE_HTML, scanBlocks } from '../../src/parse/structure.js';
import type { ReferenceStructure } from './reference-structure.js';

export function fastStructure(content: string): ReferenceStructure {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const lines = splitLines(text);
  const fm = findFrontmatter(lines);
  const { headings, lineKinds } = scanBlocks(lines, fm ? fm.closeLine + 1 : 0);
  const out: ReferenceStructure = {
    headings: headings.map((h) => `${h.depth}:${h.startLine}-${h.endLine}`),
    codeLines: [],
    htmlLines: [],
    frontmatterEnd: fm ? fm.closeLine : -1,
  };
  lineKinds.forEach((k, i) => {
    if (k === LINE_CODE) out.codeLines.push(i);
    else if (k === LINE_HTML) out.htmlLines.push(i);
  });
  return out;
}
