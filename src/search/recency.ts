// "Recent" in one place: the stale-status test, the decay with age, and the presets of the surfaces that
// rank notes by recency and type without a query. Search ranking (rank.ts) multiplies its relevance score
// by recencyFactor with a floor; the query-less surfaces add a recency share and a type share instead.
import { STALE_STATUSES, type NoteType } from '../core/types.js';

const STALE = new Set<string>(STALE_STATUSES);

/** archived / outdated / superseded / deprecated, in any letter case: a note that is no longer current. */
export function isStale(status: string | null | undefined): boolean {
  return typeof status === 'string' && STALE.has(status.trim().toLowerCase());
}

/** What "recent" means without a query: a week. Search ranking uses longer, per-type half-lives. */
export const DEFAULT_HALF_LIFE_DAYS = 7;

/**
 * 1 at age 0 (and for the future), falling by half every `halfLifeDays` toward `floor` (0 = toward 0):
 * floor + (1 − floor) · 2^(−age / halfLife). A half-life of 0 (or less) means no decay; an unknown age
 * (NaN, e.g. a date that cannot be read) counts as infinitely old, so it gets the floor.
 */
export function recencyFactor(ageDays: number, halfLifeDays: number = DEFAULT_HALF_LIFE_DAYS, floor = 0): number {
  if (!(halfLifeDays > 0)) return 1;
  const age = Number.isNaN(ageDays) ? Infinity : Math.max(0, ageDays);
  return floor + (1 - floor) * Math.pow(2, -age / halfLifeDays);
}

/** A query-less "recent notes" score: recencyWeight · recency + typeWeight · typeWeights[type], × staleFactor. */
export interface RecentPreset {
  halfLifeDays: number;
  recencyWeight: number;
  typeWeight: number;
  typeWeights: Readonly<Record<NoteType, number>>;
  /** Multiplier for a stale note (1 = stale notes are not told apart). */
  staleFactor: number;
}

/**
 * SessionStart's "Recent notes" table (hooks/recent-context.ts). The session's own recent prompts are listed
 * above it as intents, so session notes would only repeat them: curated knowledge first, the daily log
 * next, sessions last; a stale note is rarely what a new session needs.
 */
export const SESSION_START_PRESET: RecentPreset = Object.freeze({
  halfLifeDays: DEFAULT_HALF_LIFE_DAYS,
  recencyWeight: 0.6,
  typeWeight: 0.4,
  typeWeights: Object.freeze({ knowledge: 1, daily: 0.6, session: 0.4 }),
  staleFactor: 0.25,
});

/**
 * The MCP `recent_context` tool: the agent asks "what was done lately", which session notes (work done)
 * answer best, then the daily log; knowledge notes change slowly and say least about recent work. It lists
 * what exists, status included, so a stale note keeps its score and the agent sees its status.
 */
export const MCP_RECENT_PRESET: RecentPreset = Object.freeze({
  halfLifeDays: DEFAULT_HALF_LIFE_DAYS,
  recencyWeight: 0.6,
  typeWeight: 0.4,
  typeWeights: Object.freeze({ session: 1, daily: 0.67, knowledge: 0.5 }),
  staleFactor: 1,
});

export function recentScore(p: RecentPreset, type: NoteType, ageDays: number, status: string | null = null): number {
  const score = p.recencyWeight * recencyFactor(ageDays, p.halfLifeDays) + p.typeWeight * (p.typeWeights[type] ?? 0);
  return isStale(status) ? score * p.staleFactor : score;
}
