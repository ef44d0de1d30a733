// English month names, as queries (src/search/day-expressions.ts) and note file names (src/parse/name-date.ts)
// write a day: one list for both, so `Sept 3` in a query and `Sept 3, 2026.md` are read alike.

export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** A month's name or its usual abbreviation (`may` only whole: it is also an everyday word). */
export const MONTH_RE = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`;

/** 0–11 for a month's name or abbreviation (-1 for none). */
export function monthIndex(name: string): number {
  const n = name.toLowerCase();
  return MONTHS.findIndex((m) => m.startsWith(n.slice(0, 3)));
}

/** English weekday names in the order of Date#getDay (Sunday 0), as queries and daily note names write them. */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
export const WEEKDAY_RE = `(${WEEKDAYS.join('|')})`;
/** Japanese weekdays by their one kanji (日曜, 月曜日…), in the same order. */
export const WEEKDAYS_JA = '日月火水木金土';
