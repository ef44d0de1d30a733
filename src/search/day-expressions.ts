// Calendar days written in a query (`2026-07-18`, `7月18日`, `July 18`, `18 July 2026`) and ranges of two of
// them (`from 2026-07-01 to 2026-07-20`, `between March 3 and March 10`, `7月1日〜7月20日`,
// `7月1日から7月20日まで`). temporal.ts reads them before its relative expressions: a day the user names is
// what the query asks about. Written without a year, a day is the latest one on or before "now", as a
// month name alone is (`lastMonthNamed`).
import { MONTHS, MONTH_RE, monthIndex } from '../text/calendar-names.js';
import { addDays, ageInDays, ymd, type DateRange } from './dates.js';
import { DAY_JA, MONTH_JA, numberJa, YEAR_JA } from './numbers-ja.js';

const ORDINAL = '(?:st|nd|rd|th)?';
const MONTH_FULL_RE = `(${MONTHS.join('|')})`;

/**
 * The month a written name stands for (1–12), or 0 when the word is more likely an everyday one: `may`
 * only as `May`; an abbreviation only capitalised or with its dot (`Sep 2`, `dec. 25`, not `1 sep 2
 * items`, `top 10 dec values`).
 */
function monthOfName(token: string, dotted: boolean): number {
  const lower = token.toLowerCase();
  const full = MONTHS.includes(lower);
  if (lower === 'may' ? token[0] !== 'M' : !full && !dotted && token[0] !== token[0].toUpperCase()) return 0;
  return monthIndex(token) + 1;
}

/** A year named by a word (今年, 去年, 昨年, 一昨年, おととし), as an expression's alternatives. */
export const YEAR_WORD_SRC = '一昨年|おととし|去年|昨年|今年';

/** How many years before now's the year a word of YEAR_WORD_SRC names. */
export function yearWordOffset(word: string): number {
  return word === '今年' ? 0 : word === '去年' || word === '昨年' ? 1 : 2;
}

/** One day, in the forms above; the capture groups are read by `dayOf`. A year is digits or a word of YEAR_WORD_SRC. */
const DAY_FORMS: { re: string; parts: (m: string[]) => [year: string | undefined, month: number, day: string] }[] = [
  // 2026-07-18, 2026/07/18 — not inside a word, a version (`v2026-07-18`, `1.2026-07-18`) or a longer run
  // of digits and dashes. Not with dots: `IntelliJ 2024.1.2` is a version.
  { re: '(?<![A-Za-z\\d./_-])(\\d{4})[-/](\\d{1,2})[-/](\\d{1,2})(?![\\d])', parts: (m) => [m[0], Number(m[1]), m[2]] },
  // 2026年7月18日, 7月18日, 去年の7月18日 (that year's: the day read alone was this year's, and 去年 said to be
  // apart), and in kanji as numbers-ja.ts reads them: 七月十八日, 二〇二六年十二月二十五日.
  {
    re: `(?:${YEAR_JA}年|(${YEAR_WORD_SRC})の?)?${MONTH_JA}月${DAY_JA}日`,
    parts: (m) => [m[0] === undefined ? m[1] : String(numberJa(m[0])), numberJa(m[2]), String(numberJa(m[3]))],
  },
  // July 18, Jul. 18th, July 18, 2026
  { re: `\\b${MONTH_RE}(\\.?) (\\d{1,2})${ORDINAL}(?:,? (\\d{4}))?\\b`, parts: (m) => [m[3], monthOfName(m[0], m[1] === '.'), m[2]] },
  // 18 July, 18th of July 2026 — whole month names only (`10 dec` is more often not a day).
  { re: `\\b(\\d{1,2})${ORDINAL} (?:of )?${MONTH_FULL_RE}\\b(?: (\\d{4})\\b)?`, parts: (m) => [m[2], monthOfName(m[1], false), m[0]] },
];

/**
 * Capture groups of each form's own expression, counted on first use: counting compiles and runs the four
 * expressions, 0.6 ms of every search and prompt hook when done at load (CPU profile of the handbook's hooks),
 * and only a query that names a day needs it.
 */
let formGroups: number[] | undefined;
function groupsOf(form: number): number {
  formGroups ??= DAY_FORMS.map((f) => new RegExp(`${f.re}|`).exec('')!.length - 1);
  return formGroups[form];
}
const DAY_SRC = DAY_FORMS.map((f) => `(${f.re})`).join('|');
/** Groups one DAY_SRC takes in a combined expression (each form's own, plus the one around it). */
function daySrcGroups(): number {
  return DAY_FORMS.reduce((n, _, f) => n + groupsOf(f) + 1, 0);
}

interface Day {
  date: Date;
  /** Whether the year was written. */
  year: boolean;
}

/** The year (when written), month (1–12, or 0 for a word that is no month) and day written in `groups` (the captures of one DAY_SRC). */
function partsOf(groups: (string | undefined)[], now: Date): { year: number | undefined; month: number; day: number } | null {
  let at = 0;
  for (let f = 0; f < DAY_FORMS.length; f++) {
    const whole = groups[at];
    const own = groups.slice(at + 1, at + 1 + groupsOf(f)) as string[];
    at += groupsOf(f) + 1;
    if (whole === undefined) continue;
    const [year, month, day] = DAY_FORMS[f].parts(own);
    const y = year === undefined ? undefined : /^\d+$/.test(year) ? Number(year) : now.getFullYear() - yearWordOffset(year);
    return { year: y, month, day: Number(day) };
  }
  return null;
}

/** The day written in `groups` (the captures of one DAY_SRC), or null when it names no real date. */
function dayOf(groups: (string | undefined)[], now: Date): Day | null {
  const p = partsOf(groups, now);
  const date = p && realDay(p.year, p.month, p.day, now);
  return date ? { date, year: p?.year !== undefined } : null;
}

function inCalendarRange(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

function realDay(year: number | undefined, month: number, day: number, now: Date): Date | null {
  if (!inCalendarRange(month, day)) return null;
  const at = (y: number) => new Date(y, month - 1, day);
  // 2026-02-30 is no day: Date would roll it into March.
  if (year !== undefined) return at(year).getMonth() === month - 1 ? at(year) : null;
  // Without a year, the latest such day by now: `Feb 29` in 2026 is 2024's (a leap year comes within 8 years).
  for (let y = now.getFullYear(); y >= now.getFullYear() - 8; y--) {
    const d = at(y);
    if (d.getMonth() === month - 1 && d.getTime() <= now.getTime()) return d;
  }
  return null;
}

/**
 * The days written in `text` whose month and day are each possible but name no date together
 * (`2026-02-30`, `April 31`, `2月30日`): a slip of the writer. They stay text, as every non-day does, but are
 * said: `from 2026-02-30 to 2026-03-02` was searched as words without a word about why.
 */
export function impossibleDays(text: string, now: Date): string[] {
  const out: string[] = [];
  // Only the 29th to the 31st (二十九日 to 三十一日) can be missing from a month: without one, the day
  // expression need not run (it costs a fresh process ~1.7 ms to compile).
  if (!/(?<!\d)(?:29|30|31)(?!\d)|二十九|三十/.test(text)) return out;
  // exec, not matchAll: matchAll runs a copy of the expression, which a fresh process compiles again.
  DAY_RE.lastIndex = 0;
  for (let m = DAY_RE.exec(text); m; m = DAY_RE.exec(text)) {
    const p = partsOf(m.slice(1), now);
    if (p && inCalendarRange(p.month, p.day) && !realDay(p.year, p.month, p.day, now)) out.push(m[0]);
  }
  return out;
}

/** One day, as a half-open range. Global, as the other day expressions: temporal.ts reads every match. */
export const DAY_RE = new RegExp(DAY_SRC, 'gi');

export function dayRangeOf(m: RegExpMatchArray, now: Date): DateRange | null {
  const d = dayOf(m.slice(1), now);
  return d ? { after: ymd(d.date), before: ymd(addDays(d.date, 1)) } : null;
}

/** Two days and what joins them: `from A to B`, `between A and B`, `A – B`, `A〜B`, `AからBまで`. */
export const DAY_SPAN_RE = new RegExp(
  `(?:\\b(?:from|between) )?(?:${DAY_SRC})\\s*(?:\\b(?:to|and|until|till|through|thru)\\b|[-–—~〜～]|から)\\s*(?:${DAY_SRC})(?:まで)?`,
  'gi',
);

/** The days from the first to the second, both included (written backwards, the same days). */
export function daySpanOf(m: RegExpMatchArray, now: Date): DateRange | null {
  // `between A and B` needs its `between`; `A and B` alone is two days named, not a span.
  if (/\band\b/i.test(m[0]) && !/^between\b/i.test(m[0])) return null;
  const n = daySrcGroups();
  let a = dayOf(m.slice(1, 1 + n), now);
  let b = dayOf(m.slice(1 + n), now);
  if (!a || !b) return null;
  // A second day without a year, earlier in the year than the first, is the span written backwards unless it
  // runs on into the next year (runsIntoNextYear): read as written forwards, the earlier day first. Taken as
  // the first such day from the start, below, `7月20日〜7月1日` was the year less nineteen days from July 20th,
  // and `3月28日から2月3日` 2026-03-28 to 2027-02-03. A second day with its year is as written (`July 20 to
  // July 1, 2027`).
  if (!b.year && monthDay(b.date) < monthDay(a.date) && !runsIntoNextYear(a.date, b.date)) [a, b] = [b, a];
  // A day written without a year is read from the other one: an end, as the first such day from the start
  // (`2026年12月30日〜1月3日` ends 2027-01-03; `Nov 20 to Dec 5` on Nov 29 is this year's, today within it);
  // a start, when only the end has a year, as the latest such day up to the end. Read each on its own, as
  // the latest by now, `2026年12月30日〜1月3日` was the year from 2026-01-03, and a span holding today went
  // back a year. Both without a year: the start is the latest by now (`December 20 to January 5`).
  let from = a.date;
  let to = b.date;
  if (!b.year) to = sameDayFrom(b.date, from, 1) ?? to;
  else if (!a.year) from = sameDayFrom(a.date, to, -1) ?? from;
  const [first, last] = from <= to ? [from, to] : [to, from];
  return { after: ymd(first), before: ymd(addDays(last, 1)) };
}

/** A day's place in any year, to compare month and day alone. */
function monthDay(d: Date): number {
  return d.getMonth() * 32 + d.getDate();
}

/**
 * Whether a span from `first` to a day earlier in the year, `second` (its year not written), runs on into the
 * next year, as it is meant when it is the shorter way round (`12月30日〜1月3日`, `December 20 to April 5`), stays
 * within the fiscal year it starts in, April to March (`9月1日〜3月31日`, `2025年4月1日〜3月31日`), or is a
 * whole year from a month's first day (`9月1日〜8月31日`). Else it is the days between, written backwards
 * (`3月28日から2月3日`, `7月20日〜7月1日`), more likely meant than ten or eleven months from the first day.
 */
function runsIntoNextYear(first: Date, second: Date): boolean {
  const back = ageInDays(ymd(new Date(first.getFullYear(), second.getMonth(), second.getDate())), first);
  const fiscal = first.getMonth() >= 3 && second.getMonth() <= 2;
  const wholeYear = first.getDate() === 1 && monthDay(addDays(first, -1)) === monthDay(second);
  return back * 2 > 365 || fiscal || wholeYear;
}

/**
 * The month and day of `day` in the year of `anchor` or, stepping by `step` (1: later, -1: earlier), the
 * first year in which it falls on or after (before) `anchor` and is a date (Feb 29: within 8 years).
 */
function sameDayFrom(day: Date, anchor: Date, step: 1 | -1): Date | null {
  for (let y = anchor.getFullYear(), n = 0; n <= 8; y += step, n++) {
    const d = new Date(y, day.getMonth(), day.getDate());
    if (d.getMonth() === day.getMonth() && (step === 1 ? d >= anchor : d <= anchor)) return d;
  }
  return null;
}

/**
 * A day and a later day of the same month (`July 10-20`, `July 10 to 20`, `7月1日〜18日`, `七月一日〜十八日`):
 * read after the spans of two whole days, which it would otherwise cut short (`July 10` alone, `-20` left as
 * text). A later day in kanji only with its 日.
 */
export const DAY_SHORT_SPAN_RE = new RegExp(
  `(?:\\b(?:from|between) )?(?:${DAY_SRC})\\s*(?:\\b(?:to|until|till|through|thru)\\b|[-–—~〜～]|から)\\s*(?:(\\d{1,2})(?:st|nd|rd|th|日)?|${DAY_JA}日)(?:まで)?(?![\\d/.:-]|\\s*[月年])`,
  'gi',
);

export function dayShortSpanOf(m: RegExpMatchArray, now: Date): DateRange | null {
  if (/\band\b/i.test(m[0]) && !/^between\b/i.test(m[0])) return null;
  const n = daySrcGroups();
  const a = dayOf(m.slice(1, 1 + n), now);
  const last = numberJa(m[1 + n] ?? m[2 + n]);
  if (!a || !(last > a.date.getDate() && last <= 31)) return null;
  const end = new Date(a.date.getFullYear(), a.date.getMonth(), last);
  if (end.getMonth() !== a.date.getMonth()) return null;
  return { after: ymd(a.date), before: ymd(addDays(end, 1)) };
}
