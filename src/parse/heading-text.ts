// The plain text of a heading: markers, emphasis and link syntax removed, link text kept. Most headings
// are plain already; the rest go through remark-parse + remark-gfm as an ATX heading of their own.
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { oneLine } from '../text/controls.js';
import { dropHtml } from '../text/markdown-line.js';

const inlineProcessor = unified().use(remarkParse).use(remarkGfm).freeze();

const ATX_MARKER = /^[ \t]*#{1,6}(?:[ \t]+|$)/;
const ATX_CLOSING = /(?:^|[ \t]+)#+[ \t]*$/;
/** Pandoc / kramdown / Hugo heading attributes such as `{#install-guide}` are ids, not heading text. */
const HEADING_ATTRIBUTES = /[ \t]*\{[ \t]*#[^{}]*\}[ \t]*$/;
const NEEDS_MARKDOWN = /[\\`*_[\]<>~!]|&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i;
const WIKILINK = /!?\[\[([^\]\n]+)\]\]/g;
const WHITESPACE_RUN = /[ \t\r\n]+/g;

/** Text of an ATX heading line: the `#` run and a closing `#` sequence removed. */
export function atxHeadingSource(line: string): string {
  const marker = ATX_MARKER.exec(line);
  const content = marker ? line.slice(marker[0].length) : line;
  return content.replace(ATX_CLOSING, '');
}

/** Text of a setext heading's content lines, joined as one line. */
export function setextHeadingSource(lines: string[]): string {
  return lines.map((l) => l.trim()).join(' ');
}

/**
 * Plain text of heading source (inline markdown on one line); wikilinks show their display text. A heading
 * that shows nothing once cleaned as the outputs clean it (oneLine) is empty, as `## ` is: `## \e[31m\x07`
 * was a heading of its own, its escape codes raw in `-f json` and `-f xml` section paths and an empty
 * `Doc > ` step in text output, where an empty heading leaves the path at its parent.
 */
export function headingPlainText(source: string): string {
  const text = markdownPlainText(source);
  return oneLine(text) === '' ? '' : text;
}

function markdownPlainText(source: string): string {
  const raw = source.replace(HEADING_ATTRIBUTES, '').replace(WIKILINK, wikilinkDisplay).trim();
  if (raw === '' || !NEEDS_MARKDOWN.test(raw)) return raw.replace(WHITESPACE_RUN, ' ');
  try {
    const tree = inlineProcessor.parse(`# ${raw}`) as Root;
    const heading = tree.children[0];
    const text = heading && heading.type === 'heading' ? toPlainText(heading) : raw;
    return text.replace(WHITESPACE_RUN, ' ').trim();
  } catch {
    return raw.replace(WHITESPACE_RUN, ' ');
  }
}

/** What Obsidian shows for `[[target#heading|alias]]`: the alias, else the target, else the heading. */
function wikilinkDisplay(_whole: string, content: string): string {
  const pipe = content.indexOf('|');
  if (pipe !== -1 && content.slice(pipe + 1).trim() !== '') return content.slice(pipe + 1).trim();
  const left = pipe === -1 ? content : content.slice(0, pipe);
  const hash = left.indexOf('#');
  const target = (hash === -1 ? left : left.slice(0, hash)).trim();
  return target !== '' ? target : left.slice(hash + 1).trim();
}

function toPlainText(node: Nodes): string {
  // Inline HTML as the body's text reads it (dropHtml): a known element's tags go, a bare `<hostname>` is a
  // placeholder and stays (`## Replace <hostname> first` had the word dropped from the heading and its title).
  if ('value' in node && typeof node.value === 'string') return node.type === 'html' ? dropHtml(node.value) : node.value;
  if (node.type === 'image') return node.alt ?? '';
  if ('children' in node) {
    let out = '';
    for (const child of node.children) out += toPlainText(child as Nodes);
    return out;
  }
  return '';
}
