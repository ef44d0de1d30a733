// The <knowledge_search> block the prompt hook injects (seed 000): well-formed whatever notes contain,
// with a snippet budget spent in rank order so the injected context stays small.
import type { SearchHit, SearchResponse } from '../core/types.js';
import { charLength, truncateText } from './chars.js';
import { escapeXml } from './escape.js';

/** Below this many characters a shortened snippet is too small to judge relevance by. */
export const MIN_CUT_SNIPPET = 40;

/**
 * Each hit's snippet after the budget: whole while it fits, the first that does not fit shortened
 * to what is left (if ≥ MIN_CUT_SNIPPET) and every later one empty.
 */
export function budgetSnippets(hits: SearchHit[], budget: number): string[] {
  if (Number.isNaN(budget) || budget < 0) throw new RangeError(`snippet budget must be a number ≥ 0, got ${budget}`);
  let left = budget;
  let spent = false;
  return hits.map(({ snippet }) => {
    if (spent || snippet === '') return '';
    const len = charLength(snippet);
    if (len <= left) {
      left -= len;
      return snippet;
    }
    spent = true;
    return left >= MIN_CUT_SNIPPET ? truncateText(snippet, left) : '';
  });
}

function attr(name: string, value: string | number): string {
  return ` ${name}="${escapeXml(String(value))}"`;
}

function snippetElement(snippet: string): string {
  const text = escapeXml(snippet);
  return text.trim() === '' ? '<snippet/>' : `<snippet>\n${text}\n</snippet>`;
}

function formatResult(hit: SearchHit, snippet: string): string {
  const lines = [
    `<result${attr('index', hit.rank)}${attr('score', hit.score.toFixed(3))}>`,
    `<source${attr('type', hit.type)}${hit.status === null ? '' : attr('status', hit.status)}>${escapeXml(hit.path)}</source>`,
    `<section>${escapeXml(hit.section)}</section>`,
    snippetElement(snippet),
  ];
  if (hit.related.length > 0) lines.push(`<related>${escapeXml(hit.related.join(', '))}</related>`);
  lines.push('</result>');
  return lines.join('\n');
}

/** Seed 000's XML; `budget` is the total number of snippet characters (TSM_SNIPPET_BUDGET). */
export function formatXml(resp: SearchResponse, opts: { budget: number }): string {
  const open = `<knowledge_search${attr('query', resp.query)}${attr('count', resp.hits.length)}${attr('total', resp.total)}`;
  if (resp.hits.length === 0) return `${open}/>`;
  const snippets = budgetSnippets(resp.hits, opts.budget);
  const results = resp.hits.map((hit, i) => formatResult(hit, snippets[i]));
  return [`${open}>`, ...results, '</knowledge_search>'].join('\n');
}
