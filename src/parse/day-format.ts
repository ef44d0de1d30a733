// The day a note's path names by a moment.js format, as Obsidian's Daily notes core plugin and the Periodic
// Notes plugin name daily notes (`.obsidian/daily-notes.json`: folder `Journal/Daily`, format `DD-MM-YYYY`
// or `YYYY/MM/YYYY-MM-DD`), and as Periodic Notes names weekly, monthly, quarterly and yearly ones
// (`gggg-[W]ww`, `YYYY-MM`, `YYYY-[Q]Q`, `YYYY`): a period's name gives its first day (periodDay).
// A practical subset of moment's tokens: YYYY, YY, M, MM, MMM, MMMM, D, DD, Do, d, dd, ddd, dddd, the ISO
// week GGGG and W/WW, the locale week gggg and w/ww, the quarter Q, and `[literal]` text; other letters that
// are no moment token are literal, as in moment.
// Month and weekday names are English, or Japanese (`11月`, `金曜日`) as Obsidian's Japanese locale writes them.
// A format with another token (HH, Wo…) or that names no whole period (a month without a year) names nothing here.
import { MONTH_RE, monthIndex, WEEKDAY_RE, WEEKDAYS_JA } from '../text/calendar-names.js';
import type { PeriodicEntry } from '../vault/obsidian-daily.js';
import { isoWeekMonday, localeWeekMonday, monthStart, quarterStart, validDate, ymd } from './name-date.js';

/** Obsidian's daily-note settings as one rule: notes below `folder` (vault-relative, '' the root) named by `format`. */
export interface DayFormat {
  folder: string;
  format: string;
  /** The Periodic Notes entry it comes from, when not a daily note's: its notes are dated, not typed daily. */
  period?: PeriodicEntry;
}

type Field = 'year' | 'year2' | 'month' | 'monthName' | 'day' | 'weekYear' | 'week' | 'quarter';

/** What a format names, by its fields: a day, a week (ISO or the locale's), a quarter, a month or a year. */
type Names = 'day' | 'isoWeek' | 'localeWeek' | 'quarter' | 'month' | 'year';

interface Compiled {
  re: RegExp;
  fields: Field[];
  names: Names;
}

/**
 * `[literal]`; tokens tsm does not read that start like one it does (day of year, expanded years, ordinals);
 * the tokens read, longest first; a run of another of moment's token letters (HH, GG, E…); any other character.
 */
const TOKEN = /\[([^[\]]*)\]|(DDDo|DDDD?|Y{5,6}|[Gg]{5}|[MQwWyd]o)|YYYY|YY|MMMM|MMM|MM|M|Do|DD|D|dddd|ddd|dd|d|GGGG|gggg|WW|W|ww|w|Q|([MDdeEwWQNYygGaAhHkmsSxXzZ])\3*o?|[\s\S]/g;

const JA_WEEKDAY = `[${WEEKDAYS_JA}](?:曜日?)?`;
// The names' expressions without their own groups: each group of the whole is one field.
const PIECES: Record<string, { re: string; field?: Field }> = {
  YYYY: { re: '(\\d{4})', field: 'year' },
  YY: { re: '(\\d{2})', field: 'year2' },
  MMMM: { re: `(${MONTH_RE.slice(1, -1)}|\\d{1,2}月)`, field: 'monthName' },
  MMM: { re: `(${MONTH_RE.slice(1, -1)}|\\d{1,2}月)`, field: 'monthName' },
  MM: { re: '(\\d{2})', field: 'month' },
  M: { re: '(\\d{1,2})', field: 'month' },
  Do: { re: '(\\d{1,2})(?:st|nd|rd|th|日)', field: 'day' },
  DD: { re: '(\\d{2})', field: 'day' },
  D: { re: '(\\d{1,2})', field: 'day' },
  // Not checked against the day (moment's strict parse would refuse a wrong weekday): the day's digits decide.
  dddd: { re: `(?:${WEEKDAY_RE.slice(1, -1)}|${JA_WEEKDAY})` },
  ddd: { re: `(?:mon|tue|wed|thu|fri|sat|sun|${JA_WEEKDAY})` },
  dd: { re: `(?:mo|tu|we|th|fr|sa|su|${JA_WEEKDAY})` },
  d: { re: '[0-6]' },
  // Weeks: which of the two is told apart by the tokens' case (compile: `names`).
  GGGG: { re: '(\\d{4})', field: 'weekYear' },
  gggg: { re: '(\\d{4})', field: 'weekYear' },
  WW: { re: '(\\d{2})', field: 'week' },
  W: { re: '(\\d{1,2})', field: 'week' },
  ww: { re: '(\\d{2})', field: 'week' },
  w: { re: '(\\d{1,2})', field: 'week' },
  Q: { re: '([1-4])', field: 'quarter' },
};

const ISO_WEEK_TOKENS = new Set(['GGGG', 'WW', 'W']);
const LOCALE_WEEK_TOKENS = new Set(['gggg', 'ww', 'w']);

const cache = new Map<string, Compiled | string>();

/**
 * Why tsm cannot read dates by `format` (a sentence), or null when it can: a daily note's format must name a
 * day (`daily`), a Periodic Notes entry's any whole period.
 */
export function dayFormatProblem(format: string, daily = true): string | null {
  const c = compile(format);
  if (typeof c === 'string') return c;
  return daily && c.names !== 'day' ? 'it does not name a year, a month and a day' : null;
}

function compile(format: string): Compiled | string {
  const known = cache.get(format);
  if (known !== undefined) return known;
  let body = '';
  const fields: Field[] = [];
  const weekTokens = new Set<string>();
  let weekday = false;
  let problem: string | null = null;
  for (const m of format.matchAll(TOKEN)) {
    const [token, literal, unread, other] = m;
    if (literal !== undefined) body += escape(literal);
    else if (unread !== undefined || other !== undefined) problem ??= `its token ${token} is not one tsm reads (YYYY, YY, M, MM, MMM, MMMM, D, DD, Do, d, dd, ddd, dddd, GGGG, W, WW, gggg, w, ww, Q, [text])`;
    else if (token in PIECES) {
      const piece = PIECES[token];
      body += piece.re;
      if (piece.field) fields.push(piece.field);
      if (ISO_WEEK_TOKENS.has(token)) weekTokens.add('iso');
      if (LOCALE_WEEK_TOKENS.has(token)) weekTokens.add('locale');
      if (token.startsWith('d')) weekday = true;
    } else body += escape(token);
  }
  const names = problem === null ? namesOf(fields, weekTokens, weekday) : { problem };
  // Below the folder at any depth, as Obsidian finds its daily notes; the format's own folders included.
  const result = 'problem' in names ? names.problem : { re: new RegExp(`(?:^|/)${body}$`, 'i'), fields, names: names.names };
  cache.set(format, result);
  return result;
}

/** The period a format's fields name, or why they name none. */
function namesOf(fields: Field[], weekTokens: Set<string>, weekday: boolean): { names: Names } | { problem: string } {
  const has = (...fs: Field[]) => fs.some((f) => fields.includes(f));
  const year = has('year', 'year2');
  const problem = (text: string) => ({ problem: text });
  // A weekday without its day (`gggg-[W]ww dddd`) is a day moment would work out, not a period: not read.
  if (weekday && !has('day')) return problem('it names a weekday but no day of the month');
  // A day first: a daily note's format may name its week or quarter too, as a folder (`YYYY/[W]ww/YYYY-MM-DD`),
  // not checked against the day, as a weekday is not. Its year is the calendar's (a week's differs near January 1st).
  if (has('day')) return year && has('month', 'monthName') ? { names: 'day' } : problem('it does not name a year, a month and a day');
  if (has('week', 'weekYear')) {
    if (weekTokens.size > 1) return problem('it mixes ISO week tokens (GGGG, W, WW) with locale ones (gggg, w, ww)');
    if (!has('week') || !(year || has('weekYear')) || has('month', 'monthName', 'quarter')) return problem('it does not name a week and its year alone');
    return { names: weekTokens.has('iso') ? 'isoWeek' : 'localeWeek' };
  }
  if (!year) return problem('it does not name a year');
  if (has('quarter')) return has('month', 'monthName') ? problem('it names a month and a quarter') : { names: 'quarter' };
  return { names: has('month', 'monthName') ? 'month' : 'year' };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** YYYY-MM-DD of the first rule whose folder holds `path` and whose format names its file (extension aside); null when none. */
export function formatDay(path: string, formats: readonly DayFormat[]): string | null {
  return formatMatch(path, formats)?.date ?? null;
}

/** Whether that first rule is a daily note's: a weekly note is dated its Monday, but it is no daily note. */
export function dailyByFormat(path: string, formats: readonly DayFormat[]): boolean {
  const match = formatMatch(path, formats);
  return match !== null && match.rule.period === undefined;
}

function formatMatch(path: string, formats: readonly DayFormat[]): { date: string; rule: DayFormat } | null {
  if (formats.length === 0) return null;
  const noExt = path.replace(/\.[^./]+$/, '');
  for (const rule of formats) {
    const { folder, format } = rule;
    // Any case: macOS and Windows vaults find `journal/daily` as `Journal/Daily`, and config.json's dailyFolders match so.
    const start = folder === '' ? 0 : folder.length + 1;
    if (start > 0 && (noExt[folder.length] !== '/' || noExt.slice(0, folder.length).toLowerCase() !== folder.toLowerCase())) continue;
    const date = dayOf(noExt.slice(start), format);
    if (date) return { date, rule };
  }
  return null;
}

type Key = 'y' | 'm' | 'd' | 'wy' | 'w' | 'q';

/** The day `rel` (a path below the rule's folder, without extension) names by `format`, or its period's first day; null when none. */
export function dayOf(rel: string, format: string): string | null {
  const c = compile(format);
  if (typeof c === 'string') return null;
  const m = c.re.exec(rel);
  if (!m) return null;
  const found: Partial<Record<Key, number>> = {};
  for (let i = 0; i < c.fields.length; i++) {
    const text = m[i + 1];
    const [key, value] = fieldValue(c.fields[i], text);
    // A field written twice (`YYYY/MM/YYYY-MM-DD`) must say the same both times.
    if (found[key] !== undefined && found[key] !== value) return null;
    found[key] = value;
  }
  return periodDay(c.names, found as Record<Key, number>);
}

/**
 * The first day of the period named, as tsm's date ranges count it: a week's Monday ("last week" is Monday to
 * Sunday, search/dates.ts startOfWeek), also of a locale week, which in moment's default English locale runs
 * Sunday to Saturday and is numbered so that week 1 holds January 1st: its Monday puts it in the range that
 * shares six of its seven days, where its Sunday would put it in the week before. A month's or quarter's 1st;
 * a year's January 1st.
 */
function periodDay(names: Names, f: Record<Key, number>): string | null {
  switch (names) {
    case 'day':
      return validDate(f.y, f.m, f.d) ? ymd(f.y, f.m, f.d) : null;
    // moment reads `YYYY-[W]ww` too: the calendar year stands for the week's year.
    case 'isoWeek':
      return isoWeekMonday(f.wy ?? f.y, f.w);
    case 'localeWeek':
      return localeWeekMonday(f.wy ?? f.y, f.w);
    case 'quarter':
      return quarterStart(f.y, f.q);
    case 'month':
      return monthStart(f.y, f.m);
    case 'year':
      return ymd(f.y, 1, 1);
  }
}

function fieldValue(field: Field, text: string): [Key, number] {
  switch (field) {
    case 'year':
      return ['y', +text];
    // moment's two-digit years: 69–99 are 1969–1999, 00–68 are 2000–2068.
    case 'year2':
      return ['y', +text > 68 ? 1900 + +text : 2000 + +text];
    case 'month':
      return ['m', +text];
    case 'monthName':
      return ['m', text.endsWith('月') ? parseInt(text, 10) : monthIndex(text) + 1];
    case 'day':
      return ['d', parseInt(text, 10)];
    case 'weekYear':
      return ['wy', +text];
    case 'week':
      return ['w', +text];
    case 'quarter':
      return ['q', +text];
  }
}
