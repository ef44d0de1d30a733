// Seed 002's composite score for "what was I doing lately" without a query: recency with a 7-day
// half-life (weight 0.6) plus a weight per note type (0.4). Session notes record work done, so they
// weigh most; daily notes next; knowledge notes change slowly and weigh least.
import type { NoteType } from '../core/types.js';

export const RECENCY_HALF_LIFE_DAYS = 7;
export const RECENCY_WEIGHT = 0.6;
export const TYPE_WEIGHT = 0.4;
export const TYPE_WEIGHTS: Record<NoteType, number> = { session: 1.0, daily: 0.67, knowledge: 0.5 };

const DAY_MS = 86_400_000;

/** 1 today (or in the future), 0.5 a week ago, 0.25 two weeks ago; 0 for a date that cannot be read. */
export function recency(date: string, now: Date): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return 0;
  const day = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const ageDays = Math.max(0, Math.round((today.getTime() - day.getTime()) / DAY_MS));
  return Math.exp((-Math.LN2 * ageDays) / RECENCY_HALF_LIFE_DAYS);
}

export function compositeScore(type: NoteType, date: string, now: Date): number {
  return recency(date, now) * RECENCY_WEIGHT + (TYPE_WEIGHTS[type] ?? 0) * TYPE_WEIGHT;
}
