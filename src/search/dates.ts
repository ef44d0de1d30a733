// Calendar arithmetic on local dates, as YYYY-MM-DD strings (the form notes' dates are stored in).

export function ymd(d: Date): string {
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${m}-${day}`;
}

export function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

export function addDays(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
}

export function addMonths(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth() + n, 1);
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

export function dayRange(d: Date): DateRange {
  return { after: ymd(startOfDay(d)), before: ymd(addDays(d, 1)) };
}

export function monthRange(year: number, month0: number): DateRange {
  return { after: ymd(new Date(year, month0, 1)), before: ymd(new Date(year, month0 + 1, 1)) };
}

export function yearRange(year: number): DateRange {
  return { after: `${year}-01-01`, before: `${year + 1}-01-01` };
}

/** The most recent month `month0` (0–11) that has begun by `now`: this year's, else last year's. */
export function lastMonthNamed(month0: number, now: Date): DateRange {
  const year = month0 <= now.getMonth() ? now.getFullYear() : now.getFullYear() - 1;
  return monthRange(year, month0);
}

/** Days since `date` (YYYY-MM-DD) at `now`; negative for future dates. */
export function ageInDays(date: string, now: Date): number {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return 0;
  return (startOfDay(now).getTime() - new Date(y, m - 1, d).getTime()) / 86_400_000;
}
