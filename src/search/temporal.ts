// Temporal expressions in a query ("last week", "先月の", "3日前") become a date range and leave the text.
import type { DatesUnread } from '../core/types.js';
import { MONTH_RE, monthIndex, WEEKDAY_RE, WEEKDAYS, WEEKDAYS_JA } from '../text/calendar-names.js';
import {
  addDays,
  addMonths,
  addMonthsKeepDay,
  dayRange,
  lastMonthNamed,
  monthRange,
  quarterRange,
  startOfMonth,
  startOfWeek,
  ymd,
  yearRange,
  type DateRange,
} from './dates.js';
import { ANY_NUMERAL, COUNT_JA, MONTH_JA, NUMERAL, numberJa, YEAR_JA } from './numbers-ja.js';
import { DAY_RE, DAY_SHORT_SPAN_RE, DAY_SPAN_RE, dayRangeOf, dayShortSpanOf, daySpanOf, impossibleDays, YEAR_WORD_SRC, yearWordOffset } from './day-expressions.js';

export interface TemporalResult {
  /** The query with the expressions removed. */
  text: string;
  /**
   * The query with only the relative expressions removed: days written out (`2026-07-18`, `7月18日`) stay,
   * as words a note may hold (a daily note's title), for a search that looks past the range.
   */
  textWithDays: string;
  range: DateRange | null;
  /** What else the text says about dates that the range does not show (only when there is something). */
  unread?: DatesUnread;
}

/** `written`: a day written out, which a note may hold as text. */
/** `digits`: every match holds a numeral, in digits or kanji (the day expressions, the largest: see extractTemporal). */
type Rule = { re: RegExp; range: (m: RegExpMatchArray, now: Date) => DateRange | null; written?: boolean; digits?: boolean };

function recentDays(days: number, now: Date): DateRange {
  return { after: ymd(addDays(now, -days)) };
}

/** The `n` units up to today, today included: `n` days or weeks of days, or from the same day `n` months or years back. */
function rollingSpan(n: number, unit: string, now: Date): DateRange | null {
  if (!Number.isFinite(n) || n < 1 || n > 1000) return null;
  const u = unit.toLowerCase();
  if (/^(day|日)/.test(u)) return { after: ymd(addDays(now, -(n - 1))) };
  if (/^(week|週)/.test(u)) return { after: ymd(addDays(now, -(7 * n - 1))) };
  // Date's own rollover would make 31 March − 1 month 3 March, leaving out the month's first days.
  return { after: ymd(addMonthsKeepDay(now, /^(year|年)/.test(u) ? -12 * n : -n)) };
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

/** The year of the latest year end (December 15th–31st) begun by now: this year's from December 15th. */
function latestYearEnd(now: Date): number {
  return now.getMonth() === 11 && now.getDate() >= 15 ? now.getFullYear() : now.getFullYear() - 1;
}

/** A year's end, 年末: its last half month, December 15th–31st. */
function yearEnd(year: number): DateRange {
  return { after: `${year}-12-15`, before: `${year + 1}-01-01` };
}

/** The latest weekday `dow` (0 Sunday … 6 Saturday) before today: on a Friday, `last Friday` is a week ago. */
function lastWeekday(dow: number, now: Date): DateRange {
  return dayRange(addDays(now, -((now.getDay() - dow + 7) % 7 || 7)));
}

/** Weekday `dow` of the week `weeksBack` weeks before this one (weeks start on Monday). */
function weekdayOfWeek(dow: number, weeksBack: number, now: Date): DateRange {
  return dayRange(addDays(startOfWeek(now), -7 * weeksBack + ((dow + 6) % 7)));
}

/**
 * After a time word that heads longer kanji words (年末調整, 年末商戦, 年始挨拶): not followed by a kanji (the
 * BMP's CJK ideographs and 々, as the semantic model's words take them: index/semantic/words.ts), unless it
 * opens a word that keeps the time (年末時点, 年末頃, 年末前, 年末以降, 年末迄, 年末休み, 年末近く).
 */
const COMPOUND_AFTER = '(?!(?!時点|頃|前|以[降前]|迄|休|近)[\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff々])';

const weekdayNamed = (name: string) => WEEKDAYS.indexOf(name.toLowerCase());
const weeksBackJa = (week: string) => (week === '先々週' ? 2 : week === '先週' ? 1 : 0);

// Longest, most specific patterns first. English patterns need word boundaries; Japanese ones do not.
// Every expression is global (g): extractTemporal reads every match of each.
const RULES: Rule[] = [
  // Days the user names (day-expressions.ts): a span of two, then one.
  { re: DAY_SPAN_RE, range: daySpanOf, digits: true },
  { re: DAY_SHORT_SPAN_RE, range: dayShortSpanOf, digits: true },
  { re: DAY_RE, range: dayRangeOf, written: true, digits: true },
  { re: /\b(\d{1,3}) (days?|weeks?|months?|years?) ago\b/gi, range: (m, now) => unitAgo(Number(m[1]), m[2].toLowerCase(), now) },
  // N日前, N週間前 (also N週前), Nヶ月前, N年前: N in digits or kanji. Not 前期, 前半, 前後: 二年前期 is a
  // second year's first term, 3日前後 about three days.
  { re: new RegExp(`${COUNT_JA}\\s*(日|週間?|ヶ月|か月|カ月|ヵ月|ケ月|年)前(?![期半後])`, 'g'), range: (m, now) => unitAgo(numberJa(m[1]), m[2], now) },
  { re: /\bthe day before yesterday\b|一昨日|おととい/gi, range: (_m, now) => dayRange(addDays(now, -2)) },
  // きのう as typed before conversion, only as a word: at the start, after a space or punctuation, or after a
  // particle (私はきのう). After a word (検索きのう, メモきのう, LoRaきのう) it is more likely 機能 typed
  // unconverted, and inside a word of kana (ひきのうち) or after の (この機能) no day. 昨晩 and 昨夜 are
  // yesterday's evening, 今朝 today's morning, 今夜 and 今晩 today's evening as `tonight` is. (Not きょう:
  // 勉強 typed べんきょう holds it.)
  { re: /\byesterday\b|\blast night\b|昨日|(?<=^|[\s!-/:-@[-`{-~、。，．・「」『』（）【】〜～…]|[はがをにでともへや])きのう|昨晩|昨夜/gi, range: (_m, now) => dayRange(addDays(now, -1)) },
  { re: /\btoday\b|\bthis (?:morning|afternoon|evening)\b|\btonight\b|今日|本日|今朝|今夜|今晩/gi, range: (_m, now) => dayRange(now) },
  // A weekday of a week named (`Friday last week`, `last week's Friday`, 先週の金曜, 今週月曜日), then the
  // latest one before today, when the words say it is past (`last Friday`, `this past Tuesday`, この前の土曜日).
  // A weekday without them stays text: alone (`Monday standup`, 月曜日), plural (`on Mondays`), recurring or
  // ahead (毎週月曜の, 来週の, 次の金曜), and also `on Monday`, 金曜に, 金曜の: a prompt to Claude Code names a day
  // ahead or a recurring one as often as a past one (`schedule the release on Monday`, `月曜の朝に実行される
  // cron`, `金曜に出すリリースノート`), and read as last Monday, that day's notes came first.
  {
    re: new RegExp(`\\b(?:on )?${WEEKDAY_RE} (?:of )?(last|this) week\\b|\\b(last|this) week(?:['’]s)? ${WEEKDAY_RE}\\b`, 'gi'),
    range: (m, now) => weekdayOfWeek(weekdayNamed(m[1] ?? m[4]), /^last/i.test(m[2] ?? m[3]) ? 1 : 0, now),
  },
  { re: new RegExp(`(先々週|先週|今週)の?([${WEEKDAYS_JA}])曜日?`, 'g'), range: (m, now) => weekdayOfWeek(WEEKDAYS_JA.indexOf(m[2]), weeksBackJa(m[1]), now) },
  { re: new RegExp(`\\b(?:last|this past) ${WEEKDAY_RE}\\b`, 'gi'), range: (m, now) => lastWeekday(weekdayNamed(m[1]), now) },
  { re: new RegExp(`(?:この前|こないだ|この間)の?([${WEEKDAYS_JA}])曜日?`, 'g'), range: (m, now) => lastWeekday(WEEKDAYS_JA.indexOf(m[1]), now) },
  // Rolling spans up to today ("the last 7 days", "past week", "last 2 years", 過去3日, ここ2週間, 直近1週間, 過去2年):
  // unlike `last week`, the calendar week before this one.
  { re: new RegExp(`\\b(?:last|past) (\\d{1,3}) (days?|weeks?|months?|years?)\\b|(?:過去|ここ|直近)の?${COUNT_JA}\\s*(日間?|週間|ヶ月|か月|カ月|ヵ月|ケ月|年間?(?!度))`, 'gi'), range: (m, now) => rollingSpan(m[1] ? Number(m[1]) : numberJa(m[3]), m[2] ?? m[4], now) },
  { re: /\bpast (week|month|year)\b/gi, range: (m, now) => rollingSpan(1, m[1], now) },
  // The end of this week or month or of one before (今週末, 先週末, 先々週末, 今月末, 先月末, 先々月末): read ahead
  // of 今週, 先週, 今月 and 先月, which took the words and left 末 to search (今週末 was the week from Monday, 今月末
  // the month from the 1st). A week's end is its Saturday and Sunday (weeks start on Monday); a month's is its
  // last third, 下旬, the 21st on (as 年末 is a year's last half month); 末日, its last day. This one's may be
  // ahead, as 今年度末 may. 来週末 and 来月末, ahead, stay words, as 来週 and 来年度 do; 週末 and 月末 alone too,
  // as a weekday alone does: more often a recurring time (月末の締め, 週末のキャンプ) than one past one. 日 after
  // 週末 is another word's (先週末日帰り, 今週末日曜), not 末日: it was taken, leaving 帰り or 曜 to search.
  {
    re: /(先々|先|今)(?:(週)末|月末(日(?!曜))?)/g,
    range: (m, now) => {
      const back = m[1] === '先々' ? 2 : m[1] === '先' ? 1 : 0;
      if (m[2] === '週') {
        const monday = addDays(startOfWeek(now), -7 * back);
        return { after: ymd(addDays(monday, 5)), before: ymd(addDays(monday, 7)) };
      }
      const next = addMonths(now, 1 - back);
      return { after: ymd(m[3] ? addDays(next, -1) : new Date(next.getFullYear(), next.getMonth() - 1, 21)), before: ymd(next) };
    },
  },
  { re: /先々週/g, range: (_m, now) => ({ after: ymd(addDays(startOfWeek(now), -14)), before: ymd(addDays(startOfWeek(now), -7)) }) },
  { re: /先々月/g, range: (_m, now) => ({ after: ymd(addMonths(now, -2)), before: ymd(addMonths(now, -1)) }) },
  { re: /\blast week\b|先週/gi, range: (_m, now) => ({ after: ymd(addDays(startOfWeek(now), -7)), before: ymd(startOfWeek(now)) }) },
  { re: /\bthis week\b|今週/gi, range: (_m, now) => ({ after: ymd(startOfWeek(now)) }) },
  { re: /\blast month\b|先月/gi, range: (_m, now) => ({ after: ymd(addMonths(now, -1)), before: ymd(startOfMonth(now)) }) },
  { re: /\bthis month\b|今月/gi, range: (_m, now) => ({ after: ymd(startOfMonth(now)) }) },
  // Calendar quarters (Periodic Notes' quarterly notes are dated their quarter's first day): not a fiscal year's.
  { re: /\b(?:last|previous) quarter\b|(?:前|先)四半期/gi, range: (_m, now) => quarterRange(now, 1) },
  { re: /\bthis quarter\b|今四半期/gi, range: (_m, now) => quarterRange(now, 0) },
  // A Japanese fiscal or school year (年度: 今年度, 昨年度, 一昨年度, 2025年度) runs from April 1st to March 31st,
  // as the state's and schools' do: 今年度 in February is the one begun last April. Read as a calendar year,
  // 昨年度 was 2025 with 度 left to search. 年度末 is its March (今年度末 may be ahead). 来年度 is ahead and
  // stays words, as 来週 does.
  {
    re: new RegExp(`(?:${YEAR_JA}年|(${YEAR_WORD_SRC}))度(末)?`, 'g'),
    range: (m, now) => {
      const fy = m[1] ? numberJa(m[1]) : (now.getMonth() >= 3 ? now.getFullYear() : now.getFullYear() - 1) - yearWordOffset(m[2]);
      if (m[3]) return monthRange(fy + 1, 2);
      return m[2] && yearWordOffset(m[2]) === 0 ? { after: `${fy}-04-01` } : { after: `${fy}-04-01`, before: `${fy + 1}-04-01` };
    },
  },
  // A month or the end of a year named by a word (去年の3月, 昨年12月, 今年の1月, 昨年末, 去年の年末, 一昨年の年末):
  // that year's. Read apart, the year word was the range and the month (the latest March) or 年末 (the latest
  // year end) a date apart from it: `去年の3月` was all of last year, said to be apart from this March. Not a
  // fiscal year's end (3月期), nor a day (去年の3月3日: a day rule reads it, year word and all).
  {
    re: new RegExp(`(${YEAR_WORD_SRC})の?(?:${MONTH_JA}月(?!${NUMERAL}|[日期])|年?末${COMPOUND_AFTER})`, 'g'),
    range: (m, now) => {
      const year = now.getFullYear() - yearWordOffset(m[1]);
      return m[2] ? monthRange(year, numberJa(m[2]) - 1) : yearEnd(year);
    },
  },
  // The year before last, ahead of last year's rule: 一昨年 holds 昨年, which read it as last year and left 一 to search.
  { re: /\bthe year before last\b|一昨年|おととし/gi, range: (_m, now) => yearRange(now.getFullYear() - 2) },
  { re: /\blast year\b|去年|昨年/gi, range: (_m, now) => yearRange(now.getFullYear() - 1) },
  { re: /\bthis year\b|今年/gi, range: (_m, now) => ({ after: `${now.getFullYear()}-01-01` }) },
  { re: /半年前/g, range: (_m, now) => unitAgo(6, 'ヶ月', now) },
  { re: /\brecently\b|\blately\b|最近|ここ最近/gi, range: (_m, now) => recentDays(30, now) },
  // 年末年始, the New Year holidays: a year end and the start of the year after it, one span. Read apart, from
  // December 15th on, 年末 was this December and 年始 this January, said to be a date apart from it.
  { re: /年末年始/g, range: (_m, now) => ({ after: yearEnd(latestYearEnd(now)).after, before: `${latestYearEnd(now) + 1}-01-16` }) },
  // Not the head of a longer kanji word (COMPOUND_AFTER): 年末調整 (the year-end tax adjustment), 年末商戦, 年始挨拶
  // name a thing, not a time; read as a date, `年末調整のやり方` searched 調整のやり方 among last December's notes.
  { re: new RegExp(`の?年末${COMPOUND_AFTER}`, 'g'), range: (_m, now) => yearEnd(latestYearEnd(now)) },
  { re: new RegExp(`年始${COMPOUND_AFTER}|年明け`, 'g'), range: (_m, now) => ({ after: `${now.getFullYear()}-01-01`, before: `${now.getFullYear()}-01-16` }) },
  {
    re: new RegExp(`\\bin ${MONTH_RE}(?: (\\d{4}))?\\b`, 'gi'),
    range: (m, now) => (m[2] ? monthRange(Number(m[2]), monthIndex(m[1])) : lastMonthNamed(monthIndex(m[1]), now)),
  },
  {
    // 2025年3月 / 3月の / 3月に / 七月の — a month number 1–12 only; 13月 stays plain text. Not a month of a
    // frequency (一月に一度, 1月に2回: once a month, twice a month).
    re: new RegExp(`(?:${YEAR_JA}年)?${MONTH_JA}月(?:の|に(?!(?:${NUMERAL}|数)+[度回])|中)`, 'g'),
    range: (m, now) => (m[1] ? monthRange(numberJa(m[1]), numberJa(m[2]) - 1) : lastMonthNamed(numberJa(m[2]) - 1, now)),
  },
  // 2025年3月 with no particle after it (`2025年3月 議事録`): the year makes it a month. Not `2025年3月期`, a
  // fiscal year that ends that month.
  { re: new RegExp(`${YEAR_JA}年${MONTH_JA}月(?!${NUMERAL}|[日期])`, 'g'), range: (m) => monthRange(numberJa(m[1]), numberJa(m[2]) - 1) },
  // `in 2025`, not the start of a version or a day (`in 2026.3.15`, `in 2026-07-18`).
  { re: new RegExp(`\\bin (\\d{4})\\b(?![./-]\\d)|${YEAR_JA}年(?:の|に)`, 'gi'), range: (m) => yearRange(m[1] ? Number(m[1]) : numberJa(m[2])) },
];

/**
 * Something every rule needs (a digit, or a word or kanji one of them starts with): without it no rule can
 * match, and a query skips compiling and running the twenty rule expressions (about a millisecond of a
 * fresh process's time).
 */
const ANY_RULE =
  /\d|yesterday|today|week|month|(?:last|previous|this) quarter|四半期|year|recently|lately|(?:mon|tues|wednes|thurs|fri|satur|sun)day|曜|morning|afternoon|evening|night|\bin (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|一昨日|おととい|おととし|昨日|きのう|昨晩|昨夜|今日|本日|今朝|今夜|今晩|先々|先週|今週|先月|今月|去年|昨年|今年|半年前|最近|年末|年始|年明け|[〇一二三四五六七八九十](?:日|週|年|[ヶかカヵケ]?月)/i;

/**
 * Full-width ASCII (U+FF01–U+FF5E) as ASCII, as NFKC writes it: a Japanese IME in full-width mode types
 * `３日前`, `過去３日`, `７月１８日`, and the rules' `\d` and `/` match ASCII only, so those stayed words (the
 * terms are NFKC-folded anyway, so the text left over searches the same). One UTF-16 unit for one, so match
 * offsets hold.
 */
function foldFullWidth(query: string): string {
  return query.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/**
 * Finds temporal expressions: the first that matches sets the range, and every one found leaves the text
 * (a day written out stays in `textWithDays`). A later one whose range meets or overlaps it widens it to
 * both (`yesterday and today`); one apart from it (`2026-03-01 and 2026-03-05`) is said (`unread.apart`),
 * and a day written out apart stays text. A day that names no date (`2026-02-30`) is text, and said, and
 * so is a span of it with another day (`from 2026-02-30 to 2026-03-02` is not read as March 2).
 */
export function extractTemporal(typed: string, now: Date): TemporalResult {
  const query = foldFullWidth(typed);
  const tidy = (t: string) => t.replace(/\s+/g, ' ').trim();
  // Without a date the text is the user's own, full-width letters and all.
  const plain = tidy(typed);
  if (!ANY_RULE.test(query)) return { text: plain, textWithDays: plain, range: null };
  const noDays = ANY_NUMERAL.test(query) ? impossibleDays(query, now) : [];
  // What the rules read: the query, each expression found blanked out (same length, so places hold), and
  // a span holding a day of no date hidden, so that the day beside it is not read alone.
  let seen = noDays.length ? hideSpans(query, noDays) : query;
  const found: Found[] = [];
  for (const rule of RULES) {
    // Every match of the rule (`2026-03-01 and 2026-03-05`, all rules are global), each blanked before the
    // next is looked for.
    const all = rule.re;
    all.lastIndex = 0;
    // Looked for again only while the rest of the text holds what a rule needs: V8 compiles an expression
    // run a second time to machine code, ~1 ms for the day expressions in a fresh process.
    const again = () => (rule.digits ? ANY_NUMERAL : ANY_RULE).test(seen.slice(all.lastIndex));
    for (let m = all.exec(seen); m; m = again() ? all.exec(seen) : null) {
      const r = rule.range(m, now);
      // (A rule without the g flag would find this match again and again.)
      if (!r && !all.global) break;
      if (!r) continue;
      const at = m.index;
      found.push({ at, end: at + m[0].length, expr: tidy(m[0]), range: r, written: Boolean(rule.written) });
      seen = blank(seen, at, at + m[0].length);
    }
  }
  const unread: DatesUnread = noDays.length ? { noDays } : {};
  if (found.length === 0) return { text: plain, textWithDays: plain, range: null, ...(noDays.length ? { unread } : {}) };
  const { range, apart } = joinRanges(found);
  // A day written out apart from the range stays words a note may hold (`2026-03-05`, a daily note's title).
  const text = removed(query, found.filter((f) => !(f.written && apart.includes(f))));
  const withDays = removed(query, found.filter((f) => !f.written));
  if (apart.length) unread.apart = { counted: found[0].expr, apart: apart.map((f) => f.expr), cover: found.map((f) => f.range).reduce(union) };
  return { text: tidy(text), textWithDays: tidy(withDays), range, ...(unread.apart || unread.noDays ? { unread } : {}) };
}

/**
 * A word that joins two dates (`yesterday and today`, `先週と今週`): it goes with them, or `and`, the only
 * word left, was searched for and the range's notes were not listed.
 */
const JOINER = /^\s*(?:,?\s*\b(?:and|or)\b|[,&、・とや]|および|及び|又は|または)\s*$/i;

/** `query` without the expressions `gone`, and without a joining word between two of them. */
function removed(query: string, gone: Found[]): string {
  const sorted = [...gone].sort((a, b) => a.at - b.at);
  let t = query;
  sorted.forEach((f, i) => {
    t = blank(t, f.at, f.end);
    const next = sorted[i + 1];
    if (next && JOINER.test(query.slice(f.end, next.at))) t = blank(t, f.end, next.at);
  });
  return t;
}

type Found = { at: number; end: number; expr: string; range: DateRange; written: boolean };

function blank(t: string, from: number, to: number): string {
  return t.slice(0, from) + ' '.repeat(to - from) + t.slice(to);
}

/** The query with `days` and every span (`A to B`, `A〜B`) holding one of them replaced by filler no rule reads. */
function hideSpans(query: string, days: string[]): string {
  const hide = (t: string, re: RegExp) => t.replace(re, (m) => (days.some((d) => m.includes(d)) ? '\u0001'.repeat(m.length) : m));
  const spans = hide(hide(query, DAY_SPAN_RE), DAY_SHORT_SPAN_RE);
  return days.reduce((t, d) => t.split(d).join('\u0001'.repeat(d.length)), spans);
}

const OPEN_END = '9999-12-31';

/** Whether two ranges share a day or one ends where the other starts (`yesterday`, `today`). */
function meet(a: DateRange, b: DateRange): boolean {
  return (a.after ?? '') <= (b.before ?? OPEN_END) && (b.after ?? '') <= (a.before ?? OPEN_END);
}

/** The days of both ranges and any between them. */
function union(a: DateRange, b: DateRange): DateRange {
  const after = a.after && b.after ? (a.after < b.after ? a.after : b.after) : undefined;
  const before = a.before && b.before ? (a.before > b.before ? a.before : b.before) : undefined;
  return { ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

/** The first range, widened by every later one that meets it (directly or through another); the rest are apart. */
function joinRanges(found: Found[]): { range: DateRange; apart: Found[] } {
  let range = found[0].range;
  let rest = found.slice(1);
  for (let grew = true; grew; ) {
    grew = false;
    rest = rest.filter((f) => {
      if (!meet(range, f.range)) return true;
      range = union(range, f.range);
      grew = true;
      return false;
    });
  }
  return { range, apart: rest };
}
