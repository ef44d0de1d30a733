// UserPromptSubmit: search the vault with the prompt and return the <knowledge_search> XML.
// This module is the hot path of every prompt: it loads only better-sqlite3, search, the XML formatter
// and the session-note layout (never remark, chokidar, the MCP SDK or the session writer). What it injects
// goes to the model without the user asking: search redacts the hits' secrets (SearchRequest.redactSecrets).
import type { SearchHit, SearchResponse } from '../core/types.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { INCOMPLETE_INDEX_NOTE } from '../index/build-state.js';
import { IndexError } from '../index/db.js';
import { withIndexReader } from '../index/open-reader.js';
import { formatXml } from '../format/xml.js';
import { search } from '../search/search.js';
import { isNoteOfSession, sessionPathPart } from '../sessions/note-format.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import type { Deadline } from './deadline.js';
import { hookOutput, MAX_HOOK_OUTPUT } from './output.js';
import { tuningOf } from '../search/rank.js';
import { headAndTail, queryEcho } from '../text/chars.js';
import { redactNotePath } from '../text/redact.js';
import { searchExclusions } from '../vault/obsidian-excluded.js';

/** Longest text searched: the head and tail of a long prompt carry its question. */
export const MAX_SEARCH_CHARS = 4000;

export type PromptContextResult =
  | { kind: 'context'; output: string; hits: number }
  /**
   * `problem` is set when something went wrong that belongs in the hook log; `olderSchema` when an older tsm
   * wrote the index (tsm was upgraded mid-session): a sync, not the prompt, can update it. An index of a newer
   * tsm is left to that tsm (or to the user's `tsm index`): a prompt never rebuilds it.
   */
  | { kind: 'none'; problem?: string; olderSchema?: boolean };

export interface PromptContextOptions {
  deadline: Deadline;
  now?: Date;
  /** The prompt's session (the payload's session_id): its own notes are never injected. */
  sessionId?: string | null;
  /** The vector of promptSearchText(prompt) from a resident model, for the neural ranker (hook_context only). */
  queryVector?: QueryVector;
}

/** Results searched for beyond the injected ones, so hits dropped by sessionEcho() leave no gap. */
const ECHO_SPARE = 5;

/**
 * Why a session note hit would only echo the prompt, or null when it is worth injecting. A session note
 * holds the prompts typed in it, so the same question asked again finds it first (two sessions that asked
 * "SX1262 の消費電力を教えて" took ranks 1 and 3 above the note that answers it). It earns its place by
 * what it adds: a hit is kept when its best section is an Answer or Actions, never when it is the
 * request itself, and never when the note is the current session's own.
 */
export function sessionEcho(hit: Pick<SearchHit, 'type' | 'path' | 'section'>, sessionId: string | null | undefined): string | null {
  if (hit.type !== 'session') return null;
  if (sessionId && isNoteOfSession(hit.path, sessionId)) return 'the current session';
  if (sessionPathPart(hit.section) === 'request') return 'matches a prompt, not an answer';
  return null;
}

/** Searches and formats; a deadline passed before or after the (synchronous) search means no context. */
export function promptContext(cfg: TsmConfig, prompt: string, opts: PromptContextOptions): PromptContextResult {
  const { deadline } = opts;
  if (deadline.passed()) return { kind: 'none', problem: late(deadline, 'before the search started') };
  // Most prompts drop no hit: search for exactly the injected ones, and again with spares only when
  // sessionEcho() dropped some (each extra hit costs its snippet and related links: ~+10 ms a prompt on the
  // handbook when every search asked for spares).
  const run = (limit: number): SearchResponse =>
    withIndexReader(
      cfg.db,
      (db) => search(db, { query: promptSearchText(prompt), limit, collapseCopies: true, excludedFiles: searchExclusions(cfg), redactSecrets: true, ...(opts.queryVector ? { queryVector: opts.queryVector } : {}), snippetChars: cfg.snippetChars, tuning: tuningOf(cfg), now: opts.now }),
      { busyTimeoutMs: deadline.remaining(), tsmDir: tsmDir(cfg), vault: cfg.vault, foundNothing: (r) => r.hits.length === 0 },
    );
  const kept = (r: SearchResponse) => r.hits.filter((h) => sessionEcho(h, opts.sessionId) === null);
  let resp: SearchResponse;
  try {
    resp = run(cfg.hookTopK);
  } catch (err) {
    if (err instanceof IndexError && err.code === 'version') return { kind: 'none', problem: err.message, olderSchema: err.olderSchema };
    throw err;
  }
  // A prompt during a first build (or an older tsm's `--full`) would get the few notes written so far, ranked as if
  // they were all there is: it gets nothing, and the log says why.
  if (resp.indexIncomplete) return { kind: 'none', problem: `${INCOMPLETE_INDEX_NOTE}; nothing injected` };
  if (kept(resp).length < resp.hits.length && !deadline.passed()) resp = run(cfg.hookTopK + ECHO_SPARE);
  if (deadline.passed()) return { kind: 'none', problem: late(deadline, 'after the search') };
  const hits = kept(resp)
    .slice(0, cfg.hookTopK)
    // Paths as the MCP tools show them (redactNotePath): after sessionEcho, which reads the path as it is.
    .map((h, i) => ({ ...h, rank: i + 1, path: redactNotePath(h.path), related: h.related.map(redactNotePath) }));
  if (hits.length === 0) return { kind: 'none' };
  const shown = { ...resp, hits, query: queryEcho(prompt) }; // a pasted page would otherwise fill the injection
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

/** The text of a prompt that is searched (and embedded): a long prompt's head and tail carry its question. */
export function promptSearchText(prompt: string): string {
  return headAndTail(prompt.trim(), MAX_SEARCH_CHARS);
}
