// The day a note's path names by a moment.js format, as Obsidian's Daily notes core plugin and the Periodic
// Notes plugin name daily notes (`.obsidian/daily-notes.json`: folder `Journal/Daily`, format `DD-MM-YYYY`
// or `YYYY/MM/YYYY-MM-DD`). A practical subset of moment's tokens: YYYY, YY, M, MM, MMM, MMMM, D, DD, Do,
// d, dd, ddd, dddd and `[literal]` text; other letters that are no moment token are literal, as in moment.
// Month and weekday names are English, or Japanese (`11月`, `金曜日`) as Obsidian's Japanese locale writes them.
// A format with another token (HH, ww, Q…) or without a year, a month and a day names no day here.
import { MONTH_RE, monthIndex, WEEKDAY_RE, WEEKDAYS_JA } from '../text/calendar-names.js';
import { validDate, ymd } from './name-date.js';

/** Obsidian's daily-note settings as one rule: notes below `folder` (vault-relative, '' the root) named by `format`. */
export interface DayFormat {
  folder: string;
  format: string;
}

type Field = 'year' | 'year2' | 'month' | 'monthName' | 'day';

interface Compiled {
  re: RegExp;
  fields: Field[];
}

/**
 * `[literal]`; tokens tsm does not read that start like one it does (day of year, expanded years, ordinals);
 * the tokens read, longest first; a run of another of moment's token letters (HH, ww, Q…); any other character.
 */
const TOKEN = /\[([^[\]]*)\]|(DDDo|DDDD?|Y{5,6}|[MQwWyd]o)|YYYY|YY|MMMM|MMM|MM|M|Do|DD|D|dddd|ddd|dd|d|([MDdeEwWQNYygGaAhHkmsSxXzZ])\3*o?|[\s\S]/g;

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
};

const cache = new Map<string, Compiled | string>();

/** Why tsm cannot read days by `format` (a sentence), or null when it can. */
export function dayFormatProblem(format: string): string | null {
  const c = compile(format);
  return typeof c === 'string' ? c : null;
}

function compile(format: string): Compiled | string {
  const known = cache.get(format);
  if (known !== undefined) return known;
  let body = '';
  const fields: Field[] = [];
  let problem: string | null = null;
  for (const m of format.matchAll(TOKEN)) {
    const [token, literal, unread, other] = m;
    if (literal !== undefined) body += escape(literal);
    else if (unread !== undefined || other !== undefined) problem ??= `its token ${token} is not one tsm reads (YYYY, YY, M, MM, MMM, MMMM, D, DD, Do, d, dd, ddd, dddd, [text])`;
    else if (token in PIECES) {
      const piece = PIECES[token];
      body += piece.re;
      if (piece.field) fields.push(piece.field);
    } else body += escape(token);
  }
  const has = (...fs: Field[]) => fs.some((f) => fields.includes(f));
  if (problem === null && !(has('year', 'year2') && has('month', 'monthName') && has('day'))) problem = 'it does not name a year, a month and a day';
  // Below the folder at any depth, as Obsidian finds its daily notes; the format's own folders included.
  const result = problem ?? { re: new RegExp(`(?:^|/)${body}$`, 'i'), fields };
  cache.set(format, result);
  return result;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** YYYY-MM-DD of the first rule whose folder holds `path` and whose format names its file (extension aside); null when none. */
export function formatDay(path: string, formats: readonly DayFormat[]): string | null {
  if (formats.length === 0) return null;
  const noExt = path.replace(/\.[^./]+$/, '');
  for (const { folder, format } of formats) {
    // Any case: macOS and Windows vaults find `journal/daily` as `Journal/Daily`, and config.json's dailyFolders match so.
    const start = folder === '' ? 0 : folder.length + 1;
    if (start > 0 && (noExt[folder.length] !== '/' || noExt.slice(0, folder.length).toLowerCase() !== folder.toLowerCase())) continue;
    const day = dayOf(noExt.slice(start), format);
    if (day) return day;
  }
  return null;
}

/** The day `rel` (a path below the rule's folder, without extension) names by `format`, or null. */
export function dayOf(rel: string, format: string): string | null {
  const c = compile(format);
  if (typeof c === 'string') return null;
  const m = c.re.exec(rel);
  if (!m) return null;
  const found: Partial<Record<'y' | 'm' | 'd', number>> = {};
  for (let i = 0; i < c.fields.length; i++) {
    const text = m[i + 1];
    const [key, value] = fieldValue(c.fields[i], text);
    // A field written twice (`YYYY/MM/YYYY-MM-DD`) must say the same both times.
    if (found[key] !== undefined && found[key] !== value) return null;
    found[key] = value;
  }
  const { y, m: mo, d } = found as Record<'y' | 'm' | 'd', number>;
  return validDate(y, mo, d) ? ymd(y, mo, d) : null;
}

function fieldValue(field: Field, text: string): ['y' | 'm' | 'd', number] {
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
  }
}
