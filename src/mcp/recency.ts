// The MCP recent_context score: MCP_RECENT_PRESET of search/recency.ts (where the weights and the reason
// this surface differs from SessionStart live), on calendar days of the note's date.
import type { NoteType } from '../core/types.js';
import { ageInDays } from '../search/dates.js';
import { MCP_RECENT_PRESET, recencyFactor, recentScore } from '../search/recency.js';

/** 1 today (or in the future), 0.5 a week ago, 0.25 two weeks ago; 0 for a date that cannot be read. */
export function recency(date: string, now: Date): number {
  return recencyFactor(ageInDays(date, now), MCP_RECENT_PRESET.halfLifeDays);
}

export function compositeScore(type: NoteType, date: string, now: Date, status: string | null = null): number {
  return recentScore(MCP_RECENT_PRESET, type, ageInDays(date, now), status);
}
