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
