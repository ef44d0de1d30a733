// Machine-readable output: `tsm search -f json` and `--ids`.
import type { SearchHit, SearchResponse } from '../core/types.js';
import { jsonText } from './escape.js';

export interface JsonOptions {
  /** Add `content` (the section's markdown). */
  full?: boolean;
  /**
   * Hit id → the whole text of its note's file, for the hits the caller chose (`--include-content N`: the top
   * N). By hit, not by path: with `--all-sections` the later sections of a top note are no top N results, and
   * keyed by path each of them carried the whole file again.
   */
  contents?: Map<number, string>;
}

/** One hit as the JSON element docs/search.md documents for `-f json`, keys in that order. */
export function hitToJson(hit: SearchHit, opts: JsonOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    rank: hit.rank,
    id: hit.id,
    score: hit.score,
    path: hit.path,
    type: hit.type,
    status: hit.status ?? null,
    title: hit.title,
    section: hit.section,
    line: hit.line,
    end_line: hit.endLine,
    date: hit.date ?? null,
    tags: hit.tags,
    snippet: hit.snippet,
    related: hit.related,
  };
  if (opts.full) out.content = hit.content;
  const file = opts.contents?.get(hit.id);
  if (file !== undefined) out.file_content = file;
  return out;
}

/**
 * A JSON array of hits, pretty-printed. Always valid JSON: non-finite scores become null and lone
 * surrogates are written as \u escapes by JSON.stringify, control characters by jsonText.
 */
export function formatJson(resp: SearchResponse, opts: JsonOptions = {}): string {
  return jsonText(resp.hits.map((hit) => hitToJson(hit, opts)));
}

/** One section id per line ('' for zero hits). */
export function formatIds(resp: SearchResponse): string {
  return resp.hits.map((hit) => String(hit.id)).join('\n');
}
