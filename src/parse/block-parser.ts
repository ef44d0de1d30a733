// The one remark-parse processor behind the parser's block structure, and what it reports for a
// skeleton segment (see skeleton.ts): headings at the root, code and HTML blocks at any depth, and
// whether the segment ends inside a root-level fenced code or HTML block that only a later line closes.
import type { Nodes, Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import { isBlankLine } from './lines.js';
import { htmlBlockOpening } from '../text/markdown-blocks.js';

/** Inline constructs never change block structure; turning them off makes micromark much cheaper. */
const INLINE_CONSTRUCTS = [
  'attention',
  'autolink',
  'characterEscape',
  'characterReference',
  'codeText',
  'hardBreakEscape',
  'htmlText',
  'labelStartImage',
  'labelStartLink',
  'labelEnd',
];

function blockStructureOnly(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push({ disable: { null: INLINE_CONSTRUCTS } });
}

const blockProcessor = unified().use(remarkParse).use(blockStructureOnly).freeze();

export const BLOCK_HEADING = 1;
export const BLOCK_CODE = 2;
export const BLOCK_HTML = 3;

/** How a segment that ends inside a root-level block is closed by a later line. */
export type OpenBlock = { kind: 'fence'; char: string; length: number } | { kind: 'html'; end: RegExp };

export interface SegmentBlocks {
  /** Flattened quadruples: kind, heading depth (0 for code/HTML), first line, last line (0-based, in the segment). */
  blocks: number[];
  /** The root-level fenced code or HTML block the segment ends inside, if any. */
  open: OpenBlock | null;
  /** True when the last line is a root-level heading or thematic break (nothing stays open after it). */
  endsWithBreak: boolean;
}

/** Parses one skeleton segment (lines without endings) with remark-parse. */
export function parseSegment(skeleton: string[]): SegmentBlocks {
  const tree = blockProcessor.parse(skeleton.join('\n')) as Root;
  const blocks: number[] = [];
  for (const child of tree.children) {
    if (child.type === 'heading') blocks.push(BLOCK_HEADING, child.depth, startOf(child), endOf(child));
    else if (child.type === 'list' || child.type === 'blockquote' || child.type === 'code' || child.type === 'html') {
      collectCodeAndHtml(child, blocks);
    }
  }
  // An unclosed block runs to the end of its container, over blank lines that hold nothing of it.
  for (let b = 0; b < blocks.length; b += 4) {
    while (blocks[b + 3] > blocks[b + 2] && isBlankLine(skeleton[blocks[b + 3]] ?? '')) blocks[b + 3]--;
  }
  const last = tree.children[tree.children.length - 1];
  return {
    blocks,
    open: last ? openBlockAtEnd(last, skeleton) : null,
    endsWithBreak:
      last !== undefined &&
      (last.type === 'heading' || last.type === 'thematicBreak') &&
      endOf(last) === skeleton.length - 1,
  };
}

/** Code and HTML blocks inside a root block, in document order (iterative: quotes nest thousands deep). */
function collectCodeAndHtml(root: Nodes, out: number[]): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Nodes;
    if (node.type === 'code') out.push(BLOCK_CODE, 0, startOf(node), endOf(node));
    else if (node.type === 'html') out.push(BLOCK_HTML, 0, startOf(node), endOf(node));
    else if (node.type === 'list' || node.type === 'listItem' || node.type === 'blockquote') {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
}

const startOf = (node: Nodes): number => (node.position ? node.position.start.line - 1 : 0);
/** Last line holding part of the node (an unclosed block may end at column 1 of the next line). */
const endOf = (node: Nodes): number => {
  if (!node.position) return 0;
  const { start, end } = node.position;
  return end.column === 1 && end.line > start.line ? end.line - 2 : end.line - 1;
};

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

function openBlockAtEnd(node: RootContent, skeleton: string[]): OpenBlock | null {
  const first = skeleton[startOf(node)] ?? '';
  const last = skeleton[endOf(node)] ?? '';
  if (node.type === 'code') {
    const open = FENCE_OPEN.exec(first);
    if (!open) return null;
    const fence = { kind: 'fence' as const, char: open[1][0], length: open[1].length };
    return endOf(node) > startOf(node) && closesFence(last, fence) ? null : fence;
  }
  if (node.type === 'html') {
    const kind = htmlBlockOpening(first);
    if (!kind) return null;
    return kind.end.test(last) ? null : { kind: 'html', end: kind.end };
  }
  return null;
}

/** True when a root-level skeleton line ends the open block. */
export function closesOpenBlock(line: string, open: OpenBlock): boolean {
  return open.kind === 'fence' ? closesFence(line, open) : open.end.test(line);
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const m = FENCE_CLOSE.exec(line);
  return m !== null && m[1][0] === fence.char && m[1].length >= fence.length;
}
