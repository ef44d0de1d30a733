// What `tsm search` (on stderr) and MCP `search` (in the result's note) say about how the query language
// read a query: words read as text that looked like operators (query-syntax.ts), and filters of the query
// that left no match. `http status:404 publish` used to find nothing and say nothing: the reader could not
// tell that `status:404` had become a filter.
import type { Database } from '../index/db.js';
import type { SearchResponse } from '../core/types.js';
import { ymd } from './dates.js';
import { FILTER_KEYS } from './query-syntax.js';
import { search, type SearchRequest } from './search.js';
import { count } from '../text/count.js';

/**
 * Why path filters found nothing (path-notice.ts pathNoticeFor), given by the caller: it walks the vault with
 * the ignore rules, which the fast path of `tsm search` loads only when a path filter is given.
 */
export type PathNotice = (db: Database, prefixes: readonly string[], excluded: readonly string[]) => string[];

/** Searches, and says what the query language did that the reader may not have meant. */
export function searchWithNotices(db: Database, req: SearchRequest, pathNotice?: PathNotice): { resp: SearchResponse; notices: string[] } {
  const resp = search(db, req);
  const notices = [...(req.syntax?.notices ?? [])];
  const prefixes = [...(resp.filters.pathPrefixes ?? []), ...(resp.filters.also?.pathPrefixes ?? [])];
  const leftOut = resp.total === 0 && pathNotice && prefixes.length ? pathNotice(db, prefixes, req.excludedFiles ?? []) : [];
  // A query's path: that the notice explains (its folder is ignored) was meant as one: not "search it as words".
  const onlyPaths = leftOut.length > 0 && FILTER_KEYS.every((k) => k === 'path' || !req.syntax?.filters[k]?.length);
  const emptied = onlyPaths ? null : emptiedByFilters(db, req, resp);
  if (emptied) notices.push(emptied);
  notices.push(...leftOut);
  // Nothing in a folder the vault leaves out can match, however it is spelt: no "did you mean" (`salary
  // --path drafts/private/` suggested `salty` beside the notice that the folder is ignored).
  if (leftOut.length > 0) delete resp.didYouMean;
  notices.push(...datesUnread(resp));
  if (resp.datesCrowded) notices.push(datesCrowded(resp.datesCrowded));
  const end = rankedEnd(resp, req);
  if (end) notices.push(end);
  return { resp, notices };
}

/**
 * Dates of the text that the range does not show. `2026-03-01 and 2026-03-05` searched March 1 alone, and
 * `from 2026-02-30 to 2026-03-02` searched its words, both without a word. The date that counts is the first
 * the rules read (a day written out before `yesterday`), not always the first written: the notice names it,
 * never "the first date of the query" (`yesterday and 2026-01-05` counts 2026-01-05).
 */
function datesUnread(resp: SearchResponse): string[] {
  const out: string[] = [];
  for (const d of resp.datesUnread?.noDays ?? []) out.push(`${d} is no date: searched as words`);
  const apart = resp.datesUnread?.apart;
  if (apart) {
    const them = apart.apart.map((a) => JSON.stringify(a)).join(', ');
    const { after, before } = apart.cover;
    const span = after && before ? `from ${after} to ${lastDay(before)}` : after ? `since ${after}` : '';
    out.push(
      `the query's date range is ${JSON.stringify(apart.counted)} alone, not ${them} (${apart.apart.length === 1 ? 'a date' : 'dates'} apart from it)${span ? `: to cover ${apart.apart.length === 1 ? 'both' : 'them all'}, write ${JSON.stringify(span)}` : ''}; or search each`,
    );
  }
  return out;
}

/** The notes a text's range left out as dated by a crowd of mtimes (search/mtime-crowd.ts), and how to ask for them. */
function datesCrowded({ day, notes }: { day: string; notes: number }): string {
  return `${notes} notes dated only by their files' time, ${day}, were all changed at once (a checkout, a copy or a bulk edit): the query's dates leave them out (a date filter still goes by that time)`;
}

/** The day before `before` (an exclusive end, YYYY-MM-DD): the last day a span `from A to B` includes. */
function lastDay(before: string): string {
  const [y, m, d] = before.split('-').map(Number);
  return ymd(new Date(y, m - 1, d - 1));
}

/**
 * Said by the page that reaches the end of the ranked results before `total`: `total` counts every note
 * holding a query word, of which only the best few hundred are ranked (the rankers' depth). `plugin` on the
 * Obsidian Hub counted 6,031 and ranked 325; pages past them came back empty, `-n 10000` printed 325,
 * both without a word.
 */
function rankedEnd(resp: SearchResponse, req: SearchRequest): string | null {
  if (resp.ranked === undefined || resp.ranked >= resp.total || (req.offset ?? 0) + req.limit < resp.ranked) return null;
  return `only the best ${resp.ranked} of the ${resp.total} matches are ranked, so no page goes past them: narrow the query (${narrowings(resp, req)}) to reach others`;
}

/**
 * The ways to narrow a query that it does not use yet: `walrus 2026-03-05` or `--after 2026-03` was told
 * to narrow "by a date" it already had. Rarer words always help; the rest are left out once the query or
 * its flags use them (a date read from the text counts, whether it filtered or came first).
 */
function narrowings(resp: SearchResponse, req: SearchRequest): string {
  const f = resp.filters;
  const has = (k: 'types' | 'tags' | 'pathPrefixes') => Boolean(f[k]?.length || f.also?.[k]?.length);
  const dated = Boolean(f.after || f.before || resp.datesIgnored || resp.datesOnly);
  const ways = [
    'rarer words',
    req.syntax?.quoted.length ? '' : 'a "phrase"',
    has('types') ? '' : 'type',
    has('tags') ? '' : 'tag',
    has('pathPrefixes') ? '' : 'path',
    dated ? '' : 'a date',
  ].filter(Boolean);
  return ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}`;
}

/**
 * When nothing matched and the query has filters of its own, whether the same search without them finds
 * notes: then they are what emptied it, and the notice names them. One more search, only for an empty result.
 */
function emptiedByFilters(db: Database, req: SearchRequest, resp: SearchResponse): string | null {
  const syntax = req.syntax;
  if (resp.total > 0 || !syntax) return null;
  const named = FILTER_KEYS.flatMap((k) => (syntax.filters[k] ?? []).map((v) => `${k}:${/\s/.test(v) ? JSON.stringify(v) : v}`));
  if (named.length === 0) return null;
  const without = search(db, { ...req, syntax: { ...syntax, filters: {} }, limit: 1, offset: 0, suggest: false });
  if (without.total === 0) return null;
  const them = named.length === 1 ? 'it' : 'them';
  return `${named.join(' ')} (read from the query as ${named.length === 1 ? 'a filter' : 'filters'}) left no match; without ${them}, ${count(without.total, 'result')} (to search ${them} as words, write ${them} without the colon)`;
}
