// "2 days ago" instead of a timestamp: easier for a reader (and an LLM) to weigh. Dates are calendar
// dates in the local time zone of `now`, the way the note's author wrote them (core/days.ts).
import { dayNumber, localDay } from '../core/days.js';
import { count } from '../text/count.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

interface CalendarDate {
  y: number;
  m: number; // 1–12
  d: number;
  /** core/days.ts dayNumber: days counted on the calendar. */
  n: number;
}

/** A YYYY-MM-DD that names a real day, or a date-time's local day; null for anything else. */
function parseCalendarDate(s: string): CalendarDate | null {
  if (DATE_TIME.test(s)) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? null : calendarDate(localDay(ms));
  }
  const day = DATE_ONLY.test(s) ? calendarDate(s) : null;
  // 2026-02-30 names no day (Date.UTC would roll it into March).
  return day && localDay(new Date(day.y, day.m - 1, day.d)) === s ? day : null;
}

function calendarDate(day: string): CalendarDate {
  const [y, m, d] = day.split('-').map(Number);
  return { y, m, d, n: dayNumber(day) };
}

/** Whole calendar months from `a` to `b` (a ≤ b), counting a month only once its day is reached. */
function wholeMonths(a: CalendarDate, b: CalendarDate): number {
  return (b.y - a.y) * 12 + (b.m - a.m) - (b.d < a.d ? 1 : 0);
}

/** Distance as words; `past` picks "ago"/"last" or "in"/"next". */
function describe(days: number, months: number, past: boolean): string {
  const ago = (n: number, unit: string) => (past ? `${count(n, unit)} ago` : `in ${count(n, unit)}`);
  const adjacent = (unit: string) => (past ? `last ${unit}` : `next ${unit}`);
  if (days === 0) return 'today';
  if (days === 1) return past ? 'yesterday' : 'tomorrow';
  if (days < 7) return ago(days, 'day');
  if (months === 0) return days < 14 ? adjacent('week') : ago(Math.floor(days / 7), 'week');
  if (months === 1) return adjacent('month');
  if (months < 12) return ago(months, 'month');
  const years = Math.floor(months / 12);
  return years === 1 ? adjacent('year') : ago(years, 'year');
}

/**
 * How long ago (or ahead) `date` (YYYY-MM-DD or an ISO date-time) is from `now`: "today",
 * "yesterday", "3 days ago", "last week", "2 weeks ago", "last month", "5 months ago", "last year",
 * "2 years ago"; "tomorrow", "in 3 days", "next week"… for future dates. A value that is not a
 * valid date is returned unchanged, so nothing is lost.
 */
export function relativeTime(date: string, now: Date): string {
  const when = parseCalendarDate(date.trim());
  if (!when || Number.isNaN(now.getTime())) return date;
  const today = calendarDate(localDay(now));
  const days = today.n - when.n;
  return days >= 0
    ? describe(days, wholeMonths(when, today), true)
    : describe(-days, wholeMonths(today, when), false);
}
