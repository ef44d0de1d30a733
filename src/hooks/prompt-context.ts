// UserPromptSubmit: search the vault with the prompt and return seed 000's <knowledge_search> XML.
// This module is the hot path of every prompt: it loads only better-sqlite3, search and the XML
// formatter (never remark, chokidar, the MCP SDK or the session code).
import type { SearchResponse } from '../core/types.js';
import { openReader } from '../index/db.js';
import { formatXml } from '../format/xml.js';
import { search } from '../search/search.js';
import type { TsmConfig } from '../vault/config.js';
import type { Deadline } from './deadline.js';
import { hookOutput, MAX_HOOK_OUTPUT } from './output.js';

/** Prompts shorter than this (in characters) are not searched. */
export const MIN_PROMPT_CHARS = 3;
/** Longest `query` attribute: a pasted page would otherwise fill the whole injection. */
export const MAX_QUERY_ATTR_CHARS = 200;
/** Longest text searched: the head and tail of a long prompt carry its question. */
export const MAX_SEARCH_CHARS = 4000;

/** Why a prompt is not searched, or null when it is. */
export function promptSkipReason(prompt: string): string | null {
  const text = prompt.trim();
  if ([...text].length < MIN_PROMPT_CHARS) return `shorter than ${MIN_PROMPT_CHARS} characters`;
  if (text.startsWith('/')) return 'a slash command';
  if (text.startsWith('<')) return 'starts with <';
  return null;
}

export type PromptContextResult =
  | { kind: 'context'; output: string; hits: number }
  /** `problem` is set when something went wrong that belongs in the hook log. */
  | { kind: 'none'; problem?: string };

export interface PromptContextOptions {
  deadline: Deadline;
  now?: Date;
}

/** Searches and formats; a deadline passed before or after the (synchronous) search means no context. */
export function promptContext(cfg: TsmConfig, prompt: string, opts: PromptContextOptions): PromptContextResult {
  const { deadline } = opts;
  if (deadline.passed()) return { kind: 'none', problem: late(deadline, 'before the search started') };
  const db = openReader(cfg.db, { busyTimeoutMs: deadline.remaining() });
  let resp: SearchResponse;
  try {
    resp = search(db, {
      query: searchText(prompt.trim()),
      limit: cfg.hookTopK,
      snippetChars: cfg.snippetChars,
      tuning: { halfLifeDays: cfg.halfLifeDays },
      now: opts.now,
    });
  } finally {
    db.close();
  }
  if (deadline.passed()) return { kind: 'none', problem: late(deadline, 'after the search') };
  if (resp.hits.length === 0) return { kind: 'none' };
  const shown = { ...resp, query: shortened(prompt.trim().replace(/\s+/g, ' '), MAX_QUERY_ATTR_CHARS) };
  return fitOutput(shown, cfg.snippetBudget);
}

/** The output with as many hits as fit under Claude Code's cut (a budget this large is the user's choice). */
function fitOutput(resp: SearchResponse, budget: number): PromptContextResult {
  for (let n = resp.hits.length; n > 0; n--) {
    const output = hookOutput('UserPromptSubmit', formatXml({ ...resp, hits: resp.hits.slice(0, n) }, { budget }));
    if (output.length <= MAX_HOOK_OUTPUT) return { kind: 'context', output, hits: n };
  }
  return { kind: 'none', problem: `even one result is over ${MAX_HOOK_OUTPUT} characters; lower TSM_SNIPPET_BUDGET` };
}

function late(deadline: Deadline, when: string): string {
  return `deadline of ${deadline.ms} ms passed ${when} (${Math.round(deadline.elapsed())} ms since start); nothing injected`;
}

function searchText(prompt: string): string {
  const chars = [...prompt];
  if (chars.length <= MAX_SEARCH_CHARS) return prompt;
  const half = MAX_SEARCH_CHARS / 2;
  return `${chars.slice(0, half).join('')}\n${chars.slice(-half).join('')}`;
}

function shortened(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
