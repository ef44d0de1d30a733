// Calendar arithmetic on local dates, as YYYY-MM-DD strings (the form notes' dates are stored in). A
// moment's day and the count of days between two are core/days.ts's, the one place for them.
import { daysAgo, localDay } from '../core/days.js';

/** YYYY-MM-DD of `d` in the local time zone. */
export const ymd: (d: Date) => string = localDay;

export function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

export function addDays(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
}

export function addMonths(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth() + n, 1);
}

/**
 * The same day `n` months away, or that month's last day when it has no such day (31 March − 1 month is
 * 28 February, not 3 March). The one rule for "N months back": `--recent 3m` and "past 3 months" in a query.
 */
export function addMonthsKeepDay(d: Date, n: number): Date {
  const first = addMonths(d, n);
  const last = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  return new Date(first.getFullYear(), first.getMonth(), Math.min(d.getDate(), last));
}

/** Monday of the week holding `d`. */
export function startOfWeek(d: Date): Date {
  const dow = (d.getDay() + 6) % 7;
  return addDays(startOfDay(d), -dow);
}

export function startOfMonth(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), 1);
}

/** A half-open range [after, before) of dates. */
export interface DateRange {
  after?: string;
  before?: string;
}

/**
 * A range that runs up to now (`--recent 1y`, and a query's `recently`, `past 3 months`, `this year`: any the
 * query leaves open at its end), closed at the end of tomorrow. Open, it held every note dated ahead:
 * `--recent 1y` listed a note dated 2027-06-01 on 2026-11-29, as did `this year` and `最近`. Tomorrow is in,
 * a day of slack for time zones: a note written where it is tomorrow already (a synced vault's other
 * machine, a trip, a timestamp whose offset dates it `2026-11-30T08:00+09:00`) is dated ahead of this
 * machine's day, and is as recent as a note written here now. A range with its own end (`last week`, `this
 * quarter`, `今週末`) keeps it; so do the date flags, `--after 2026-11` included: the user named that range.
 */
export function upToNow(range: DateRange, now: Date): DateRange {
  return range.before ? range : { ...range, before: recentBefore(now) };
}

/**
 * The first day no longer "up to now" (upToNow's end): the day after tomorrow. Also where SessionStart's and
 * MCP recent_context's newest notes stop: a note dated 2027-06-01 was first in the table ("in 6 months") on
 * every session start of half a year, and a year of daily notes made ahead filled it.
 */
export function recentBefore(now: Date): string {
  return ymd(addDays(now, 2));
}

export function dayRange(d: Date): DateRange {
  return { after: ymd(startOfDay(d)), before: ymd(addDays(d, 1)) };
}

export function monthRange(year: number, month0: number): DateRange {
  return { after: ymd(new Date(year, month0, 1)), before: ymd(new Date(year, month0 + 1, 1)) };
}

/** The calendar quarter holding `d`, `back` quarters before it (0: this one), as a range. */
export function quarterRange(d: Date, back: number): DateRange {
  const first = new Date(d.getFullYear(), Math.floor(d.getMonth() / 3) * 3 - 3 * back, 1);
  return { after: ymd(first), before: ymd(new Date(first.getFullYear(), first.getMonth() + 3, 1)) };
}

export function yearRange(year: number): DateRange {
  return { after: `${year}-01-01`, before: `${year + 1}-01-01` };
}

/** The most recent month `month0` (0–11) that has begun by `now`: this year's, else last year's. */
export function lastMonthNamed(month0: number, now: Date): DateRange {
  const year = month0 <= now.getMonth() ? now.getFullYear() : now.getFullYear() - 1;
  return monthRange(year, month0);
}

/** Whole calendar days since `date` (YYYY-MM-DD) at `now`, also across a clock change; negative for future dates, NaN for no date. */
export function ageInDays(date: string, now: Date): number {
  return daysAgo(date, now);
}
