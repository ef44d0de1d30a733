// The <knowledge_search> block the prompt hook injects (docs/claude-code.md): well-formed whatever notes
// contain, and small whatever they contain. The budget (TSM_SNIPPET_BUDGET) counts every character a
// result prints — its path, its section heading, its snippet and its related paths — spent in rank
// order, and each of those has its own cap. A note with a 10,000-character heading then costs one
// capped heading; it can neither push the block past Claude Code's cut nor silence it.
import type { SearchHit, SearchResponse } from '../core/types.js';
import { charLength, truncateStart, truncateText } from '../text/chars.js';
import { escapeXml, escapeXmlAttribute } from './escape.js';

/** Below this many characters a shortened snippet is too small to judge relevance by. */
export const MIN_CUT_SNIPPET = 40;
/** Longest section heading path printed (a heading is a pointer; a paragraph-long one says no more). */
export const MAX_SECTION_CHARS = 160;
/** Longest vault path printed: its end (the file name) is kept. Real paths are far shorter. */
export const MAX_PATH_CHARS = 240;
/** Longest `<related>` list printed: of whole paths (relatedList). */
export const MAX_RELATED_CHARS = 240;

/** What one result prints, after the caps and the budget. */
export interface BudgetedResult {
  path: string;
  section: string;
  snippet: string;
  /** '' when there is none or it did not fit. */
  related: string;
}

/**
 * Each hit's printed text after the caps and the budget. A result's path and section always print (a
 * result without them is no use) and are charged first; its snippet is whole while it fits, the first
 * that does not fit is shortened to what is left (if ≥ MIN_CUT_SNIPPET) and every later one is empty;
 * its related list prints only while it fits whole, and leaves out the block's own results: naming them
 * again spent the budget on nothing new (over the 124 prompt queries of eight judged sets, 169 injected
 * results had no snippet, 40 of them judged relevant; without the repeats 156 and 34, and the lists named
 * 34 relevant notes no result was, against 33). Charging every snippet before any list was measured too
 * and not kept: the lists it dropped named 30 relevant notes no result was.
 */
export function budgetResults(hits: SearchHit[], budget: number): BudgetedResult[] {
  if (Number.isNaN(budget) || budget < 0) throw new RangeError(`snippet budget must be a number ≥ 0, got ${budget}`);
  let left = budget;
  let spent = false;
  const shown = new Set(hits.map((h) => h.path));
  return hits.map((hit) => {
    const path = truncateStart(hit.path, MAX_PATH_CHARS);
    const section = truncateText(hit.section, MAX_SECTION_CHARS);
    left -= charLength(path) + charLength(section);
    let snippet = '';
    if (!spent && hit.snippet !== '') {
      const len = charLength(hit.snippet);
      if (len <= left) {
        snippet = hit.snippet;
        left -= len;
      } else {
        spent = true;
        snippet = left >= MIN_CUT_SNIPPET ? truncateText(hit.snippet, left) : '';
        left -= charLength(snippet);
      }
    }
    let related = relatedList(hit.related.filter((p) => !shown.has(p)));
    if (charLength(related) <= left) left -= charLength(related);
    else related = '';
    return { path, section, snippet, related };
  });
}

/**
 * The related paths in their order, each whole, as many as fit in MAX_RELATED_CHARS (one that does not is
 * left out). The list was cut as text: five paths of 60 characters ended `…, company/knowledge/lora/…`, a
 * path that names no file, in the place of the fourth and fifth.
 */
export function relatedList(paths: string[]): string {
  let list = '';
  for (const p of paths) {
    const longer = list === '' ? p : `${list}, ${p}`;
    if (charLength(longer) <= MAX_RELATED_CHARS) list = longer;
  }
  return list;
}

/** The snippets of budgetResults. */
export function budgetSnippets(hits: SearchHit[], budget: number): string[] {
  return budgetResults(hits, budget).map((r) => r.snippet);
}

function attr(name: string, value: string | number): string {
  return ` ${name}="${escapeXmlAttribute(String(value))}"`;
}

function snippetElement(snippet: string): string {
  const text = escapeXml(snippet);
  return text.trim() === '' ? '<snippet/>' : `<snippet>\n${text}\n</snippet>`;
}

function formatResult(hit: SearchHit, r: BudgetedResult): string {
  const lines = [
    `<result${attr('index', hit.rank)}${attr('score', hit.score.toFixed(3))}>`,
    `<source${attr('type', hit.type)}${hit.status === null ? '' : attr('status', hit.status)}>${escapeXml(r.path)}</source>`,
    `<section>${escapeXml(r.section)}</section>`,
    snippetElement(r.snippet),
  ];
  if (r.related !== '') lines.push(`<related>${escapeXml(r.related)}</related>`);
  lines.push('</result>');
  return lines.join('\n');
}

/** The <knowledge_search> XML; `budget` is the number of characters all results may print (see above). */
export function formatXml(resp: SearchResponse, opts: { budget: number }): string {
  const open = `<knowledge_search${attr('query', resp.query)}${attr('count', resp.hits.length)}${attr('total', resp.total)}`;
  if (resp.hits.length === 0) return `${open}/>`;
  const printed = budgetResults(resp.hits, opts.budget);
  const results = resp.hits.map((hit, i) => formatResult(hit, printed[i]));
  return [`${open}>`, ...results, '</knowledge_search>'].join('\n');
}
