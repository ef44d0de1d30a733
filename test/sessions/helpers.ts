// Shared by the session tests: fixture access and a real markdown/YAML reading of rendered notes.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import matter from 'gray-matter';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = join(HERE, 'fixtures');
export const GOLDEN = join(HERE, 'golden');

export const fixturePath = (name: string) => join(FIXTURES, name);
export const fixtureText = (name: string) => readFileSync(fixturePath(name), 'utf8');
/** The fixture split the way a reader of the file would: one string per line, the cut last line included. */
export const fixtureLines = (name: string) => fixtureText(name).split('\n');
export const fixtureNames = () => readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl')).sort();

export interface HeadingInfo {
  depth: number;
  text: string;
}

interface MdNode {
  type: string;
  depth?: number;
  value?: string;
  children?: MdNode[];
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);

function textOf(node: MdNode): string {
  if (typeof node.value === 'string') return node.value;
  return (node.children ?? []).map(textOf).join('');
}

/** Every heading a CommonMark/GFM parser finds, at any nesting depth (block quotes and lists included). */
export function headingsOf(markdown: string): HeadingInfo[] {
  const out: HeadingInfo[] = [];
  const walk = (node: MdNode) => {
    if (node.type === 'heading') out.push({ depth: node.depth ?? 0, text: textOf(node) });
    for (const child of node.children ?? []) walk(child);
  };
  walk(parser.parse(markdown) as unknown as MdNode);
  return out;
}

/** The frontmatter as a YAML library reads it. */
export function frontmatterOf(markdown: string): Record<string, unknown> {
  // gray-matter caches by content; the data object is shared, so copy it.
  return { ...matter(markdown).data };
}

/**
 * A transcript of `turns` prompts, each of 200 words with a 150-word answer (about 2.8 KB of note a turn), one
 * minute apart from 2026-01-02 10:00 UTC in /home/me/proj: sessions long enough to be closed into several notes.
 */
export function longTranscript(sessionId: string, turns: number): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/me/proj', sessionId, version: '2.0.76', gitBranch: 'main' };
  const at = (i: number, s: number) => new Date(Date.UTC(2026, 0, 2, 10) + i * 60_000 + s * 1000).toISOString();
  const words = (n: number, k: number) => Array.from({ length: n }, (_, i) => `word${(i * 7 + k) % 1000}`).join(' ');
  const turn = (i: number) => [
    JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: `prompt ${i} ${words(200, i)}` }, uuid: `u${i}`, timestamp: at(i, 0) }),
    JSON.stringify({ ...base, type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: `answer ${i} ${words(150, i)}` }] }, uuid: `a${i}`, timestamp: at(i, 1) }),
  ];
  return Array.from({ length: turns }, (_, i) => turn(i + 1)).flat().join('\n') + '\n';
}
