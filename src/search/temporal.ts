// Temporal expressions in a query ("last week", "先月の", "3日前") become a date range and leave the text.
import {
  addDays,
  addMonths,
  dayRange,
  lastMonthNamed,
  monthRange,
  startOfMonth,
  startOfWeek,
  ymd,
  yearRange,
  type DateRange,
} from './dates.js';
import { DAY_RE, DAY_SHORT_SPAN_RE, DAY_SPAN_RE, dayRangeOf, dayShortSpanOf, daySpanOf, MONTH_RE, monthIndex } from './day-expressions.js';

export interface TemporalResult {
  /** The query with the expressions removed. */
  text: string;
  /**
   * The query with only the relative expressions removed: days written out (`2026-07-18`, `7月18日`) stay,
   * as words a note may hold (a daily note's title), for a search that looks past the range.
   */
  textWithDays: string;
  range: DateRange | null;
}

/** `written`: a day written out, which a note may hold as text. */
type Rule = { re: RegExp; range: (m: RegExpMatchArray, now: Date) => DateRange | null; written?: boolean };

function recentDays(days: number, now: Date): DateRange {
  return { after: ymd(addDays(now, -days)) };
}

/** The `n` units up to today, today included: `n` days or weeks of days, or from the same day `n` months or years back. */
function rollingSpan(n: number, unit: string, now: Date): DateRange | null {
  if (!Number.isFinite(n) || n < 1 || n > 1000) return null;
  const u = unit.toLowerCase();
  if (/^(day|日)/.test(u)) return { after: ymd(addDays(now, -(n - 1))) };
  if (/^(week|週)/.test(u)) return { after: ymd(addDays(now, -(7 * n - 1))) };
  if (/^(year)/.test(u)) return { after: ymd(new Date(now.getFullYear() - n, now.getMonth(), now.getDate())) };
  return { after: ymd(new Date(now.getFullYear(), now.getMonth() - n, now.getDate())) };
}

function unitAgo(n: number, unit: string, now: Date): DateRange | null {
  if (!Number.isFinite(n) || n < 0 || n > 1000) return null;
  if (/^(day|日)/.test(unit)) return dayRange(addDays(now, -n));
  if (/^(week|週)/.test(unit)) {
    const start = addDays(startOfWeek(now), -7 * n);
    return { after: ymd(start), before: ymd(addDays(start, 7)) };
  }
  if (/^(month|ヶ月|か月|カ月|ヵ月|箇月|ケ月)/.test(unit)) {
    const start = addMonths(startOfMonth(now), -n);
    return { after: ymd(start), before: ymd(addMonths(start, 1)) };
  }
  if (/^(year|年)/.test(unit)) return yearRange(now.getFullYear() - n);
  return null;
}

// Longest, most specific patterns first. English patterns need word boundaries; Japanese ones do not.
const RULES: Rule[] = [
  // Days the user names (day-expressions.ts): a span of two, then one.
  { re: DAY_SPAN_RE, range: daySpanOf },
  { re: DAY_SHORT_SPAN_RE, range: dayShortSpanOf },
  { re: DAY_RE, range: dayRangeOf, written: true },
  { re: /\b(\d{1,3}) (days?|weeks?|months?|years?) ago\b/i, range: (m, now) => unitAgo(Number(m[1]), m[2].toLowerCase(), now) },
  { re: /(?<!\d)(\d{1,3})\s*(日|週間|ヶ月|か月|カ月|ヵ月|ケ月|年)前/, range: (m, now) => unitAgo(Number(m[1]), m[2], now) },
  { re: /\bthe day before yesterday\b|一昨日|おととい/i, range: (_m, now) => dayRange(addDays(now, -2)) },
  // きのう as typed before conversion, not inside a word of kana (ひきのうち); 昨晩 and 昨夜 are yesterday's
  // evening, 今朝 today's morning. (Not きょう: 勉強 typed べんきょう holds it.)
  { re: /\byesterday\b|昨日|(?<![ぁ-ゖ])きのう|昨晩|昨夜/i, range: (_m, now) => dayRange(addDays(now, -1)) },
  { re: /\btoday\b|今日|本日|今朝/i, range: (_m, now) => dayRange(now) },
  // Rolling spans up to today ("the last 7 days", "past week", 過去3日, ここ2週間, 直近1週間): unlike `last week`, the
  // calendar week before this one.
  { re: /\b(?:last|past) (\d{1,3}) (days?|weeks?|months?)\b|(?:過去|ここ|直近)の?(\d{1,3})\s*(日間?|週間|ヶ月|か月|カ月|ヵ月|ケ月)/i, range: (m, now) => rollingSpan(Number(m[1] ?? m[3]), m[2] ?? m[4], now) },
  { re: /\bpast (week|month|year)\b/i, range: (m, now) => rollingSpan(1, m[1], now) },
  { re: /先々週/, range: (_m, now) => ({ after: ymd(addDays(startOfWeek(now), -14)), before: ymd(addDays(startOfWeek(now), -7)) }) },
  { re: /先々月/, range: (_m, now) => ({ after: ymd(addMonths(now, -2)), before: ymd(addMonths(now, -1)) }) },
  { re: /\blast week\b|先週/i, range: (_m, now) => ({ after: ymd(addDays(startOfWeek(now), -7)), before: ymd(startOfWeek(now)) }) },
  { re: /\bthis week\b|今週/i, range: (_m, now) => ({ after: ymd(startOfWeek(now)) }) },
  { re: /\blast month\b|先月/i, range: (_m, now) => ({ after: ymd(addMonths(now, -1)), before: ymd(startOfMonth(now)) }) },
  { re: /\bthis month\b|今月/i, range: (_m, now) => ({ after: ymd(startOfMonth(now)) }) },
  { re: /\blast year\b|去年|昨年/i, range: (_m, now) => yearRange(now.getFullYear() - 1) },
  { re: /\bthis year\b|今年/i, range: (_m, now) => ({ after: `${now.getFullYear()}-01-01` }) },
  { re: /半年前/, range: (_m, now) => unitAgo(6, 'ヶ月', now) },
  { re: /\brecently\b|\blately\b|最近|ここ最近/i, range: (_m, now) => recentDays(30, now) },
  {
    re: /(昨年|去年)?の?年末/,
    range: (_m, now) => {
      const y = now.getMonth() === 11 && now.getDate() >= 15 ? now.getFullYear() : now.getFullYear() - 1;
      return { after: `${y}-12-15`, before: `${y + 1}-01-01` };
    },
  },
  { re: /年始|年明け/, range: (_m, now) => ({ after: `${now.getFullYear()}-01-01`, before: `${now.getFullYear()}-01-16` }) },
  {
    re: new RegExp(`\\bin ${MONTH_RE}(?: (\\d{4}))?\\b`, 'i'),
    range: (m, now) => (m[2] ? monthRange(Number(m[2]), monthIndex(m[1])) : lastMonthNamed(monthIndex(m[1]), now)),
  },
  {
    // 2025年3月 / 3月の / 3月に — a month number 1–12 only; 13月 stays plain text.
    re: /(?:(\d{4})年)?(?<!\d)(1[0-2]|[1-9])月(?:の|に|中)/,
    range: (m, now) => (m[1] ? monthRange(Number(m[1]), Number(m[2]) - 1) : lastMonthNamed(Number(m[2]) - 1, now)),
  },
  // 2025年3月 with no particle after it (`2025年3月 議事録`): the year makes it a month. Not `2025年3月期`, a
  // fiscal year that ends that month.
  { re: /(?<!\d)(\d{4})年(1[0-2]|[1-9])月(?![\d日期])/, range: (m) => monthRange(Number(m[1]), Number(m[2]) - 1) },
  // `in 2025`, not the start of a version or a day (`in 2026.3.15`, `in 2026-07-18`).
  { re: /\bin (\d{4})\b(?![.\/-]\d)|(\d{4})年(?:の|に)/i, range: (m) => yearRange(Number(m[1] ?? m[2])) },
];

/**
 * Something every rule needs (a digit, or a word or kanji one of them starts with): without it no rule can
 * match, and a query skips compiling and running the twenty rule expressions (about a millisecond of a
 * fresh process's time).
 */
const ANY_RULE =
  /\d|yesterday|today|week|month|year|recently|lately|\bin (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|一昨日|おととい|昨日|きのう|昨晩|昨夜|今日|本日|今朝|先々|先週|今週|先月|今月|去年|昨年|今年|半年前|最近|年末|年始|年明け/i;

/**
 * Full-width ASCII (U+FF01–U+FF5E) as ASCII, as NFKC writes it: a Japanese IME in full-width mode types
 * `３日前`, `過去３日`, `７月１８日`, and the rules' `\d` and `/` match ASCII only, so those stayed words (the
 * terms are NFKC-folded anyway, so the text left over searches the same). One UTF-16 unit for one, so match
 * offsets hold.
 */
function foldFullWidth(query: string): string {
  return query.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/** Finds temporal expressions; the first that matches sets the range, and every one found leaves the text. */
export function extractTemporal(typed: string, now: Date): TemporalResult {
  const query = foldFullWidth(typed);
  const tidy = (t: string) => t.replace(/\s+/g, ' ').trim();
  // Without a date the text is the user's own, full-width letters and all.
  const plain = tidy(typed);
  if (!ANY_RULE.test(query)) return { text: plain, textWithDays: plain, range: null };
  let text = query;
  let withDays = query;
  let range: DateRange | null = null;
  for (const rule of RULES) {
    const m = text.match(rule.re);
    if (!m) continue;
    const r = rule.range(m, now);
    if (!r) continue;
    range ??= r;
    text = text.slice(0, m.index) + ' ' + text.slice((m.index ?? 0) + m[0].length);
    if (!rule.written) withDays = withDays.replace(m[0], ' ');
  }
  if (!range) return { text: plain, textWithDays: plain, range: null };
  return { text: tidy(text), textWithDays: tidy(withDays), range };
}
