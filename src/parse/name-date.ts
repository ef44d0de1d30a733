// The day a note's path names, in the ways people name daily notes (Obsidian's Daily notes and Periodic
// Notes formats, Logseq's journals, Roam's exports): `2026-11-27`, `2026年11月27日`, `20261127`,
// `2026_11_27`, `2026.11.27`, `27.11.2026`, `2026/11/27.md` (a folder a year and a month), `Nov 27, 2026`, `November 27th,
// 2026`, `27 November 2026`. Read in NFKC (full-width digits). `leading`: the name starts with the day (after
// a weekday: `Friday, November 27, 2026`), which makes the note a daily one (metadata.ts noteType).
// A name that is a whole period, as the Periodic Notes plugin names weekly, monthly and quarterly notes
// (`2026-W47`, `2026-11`, `2026-Q4`), gives the period's first day and no daily type (periodStart).
import { MONTH_RE, monthIndex, WEEKDAY_RE } from '../text/calendar-names.js';

export interface NameDay {
  /** YYYY-MM-DD. */
  date: string;
  leading: boolean;
}

const ORDINAL = '(?:st|nd|rd|th)?';
const WEEKDAY = `(?:${WEEKDAY_RE}|mon|tue|wed|thu|fri|sat|sun),? `;

/** Each form's expression (on the file name, or for `inFolders` on the path) and its year, month, day. */
const FORMS: { re: RegExp; ymd: (m: RegExpExecArray) => [number, number, number]; inFolders?: boolean }[] = [
  // 2026-11-27, 2026_11_27 (Logseq), 2026.11.27: one separator twice, nothing glued to the digits.
  { re: /(?<!\d)(\d{4})([-_.])(\d{2})\2(\d{2})(?!\d)/, ymd: (m) => [+m[1], +m[3], +m[4]] },
  { re: /(?<!\d)(\d{4})年(\d{1,2})月(\d{1,2})日/, ymd: (m) => [+m[1], +m[2], +m[3]] },
  // 27.11.2026, day first as German and other European notes write it with dots (no one writes the month
  // first with dots). Not with dashes: 11-12-2026 is the 11th of December to some and November 12th to others.
  { re: /(?<![\d.])(\d{2})\.(\d{2})\.(\d{4})(?![\d.]\d)/, ymd: (m) => [+m[3], +m[2], +m[1]] },
  // 20261127 only as the name's start and of this or the last century: a longer run of digits is a
  // Zettelkasten id (202611271230), and other eight digits are more likely a number than a day.
  { re: /^((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)/, ymd: (m) => [+m[1], +m[2], +m[3]] },
  // Journal/2026/11/27.md, 2026年/11月/27日.md: the day's name in its year's and month's folders.
  { re: /(?:^|\/)(\d{4})年?\/(\d{1,2})月?\/(\d{1,2})(?!\d)[^/]*$/, ymd: (m) => [+m[1], +m[2], +m[3]], inFolders: true },
  // Nov 27, 2026 / November 27th, 2026 — the year written, so that `May 3.md` or `Sep 10 items.md` is no day.
  { re: new RegExp(`\\b${MONTH_RE}\\.? (\\d{1,2})${ORDINAL},? (\\d{4})\\b`, 'i'), ymd: (m) => [+m[3], monthIndex(m[1]) + 1, +m[2]] },
  // 27 November 2026, 27th Nov 2026
  { re: new RegExp(`\\b(\\d{1,2})${ORDINAL} ${MONTH_RE}\\.?,? (\\d{4})\\b`, 'i'), ymd: (m) => [+m[3], monthIndex(m[2]) + 1, +m[1]] },
];

/** A weekday before the day (`Friday, November 27, 2026`) still leaves it at the name's start. */
const BEFORE_LEADING = new RegExp(`^(?:${WEEKDAY})?$`, 'i');

/** The first real day the path names, by the forms above in order; null when none does. */
export function nameDay(path: string): NameDay | null {
  const full = path.normalize('NFKC');
  const name = full.slice(full.lastIndexOf('/') + 1);
  for (const form of FORMS) {
    const m = form.re.exec(form.inFolders ? full : name);
    if (!m) continue;
    const [y, mo, d] = form.ymd(m);
    if (!validDate(y, mo, d)) continue;
    const leading = form.inFolders || BEFORE_LEADING.test(name.slice(0, m.index));
    return { date: ymd(y, mo, d), leading };
  }
  const start = periodStart(name.replace(/\.[^.]*$/, ''));
  return start === null ? null : { date: start, leading: false };
}

// The whole stem only: `2026-11 plan` or `Budget 2026-11` is no monthly note. Not a bare year: `2021.md`
// in real vaults is as often a page about that year's event (the GitLab handbook's sales/training/sko/2021.md)
// as a yearly note. Weeks as the plugin's default `gggg-[W]ww` writes them, one digit too (`w`), any case, read
// as ISO weeks: where the vault's Periodic Notes settings name the format, day-format.ts reads the name first.
const WEEK = /^(\d{4})-W(\d{1,2})$/i;
const MONTH = /^(\d{4})-(\d{2})$/;
const QUARTER = /^(\d{4})-Q([1-4])$/i;

/** The first day (YYYY-MM-DD) of the period a stem names: an ISO week's Monday, a month's or a quarter's 1st. */
function periodStart(stem: string): string | null {
  let m = WEEK.exec(stem);
  if (m) return isoWeekMonday(+m[1], +m[2]);
  m = MONTH.exec(stem);
  if (m) return monthStart(+m[1], +m[2]);
  m = QUARTER.exec(stem);
  return m ? quarterStart(+m[1], +m[2]) : null;
}

/** The 1st of month `month` (1–12) of `year`; null for no such month. */
export function monthStart(year: number, month: number): string | null {
  return validDate(year, month, 1) ? ymd(year, month, 1) : null;
}

/** The 1st of quarter `quarter` (1–4) of `year`: January, April, July or October. */
export function quarterStart(year: number, quarter: number): string {
  return ymd(year, (quarter - 1) * 3 + 1, 1);
}

const DAY_MS = 86_400_000;

/** Monday of ISO week `week` of `year` (week 1 holds January 4th); null for a week the year does not have. */
export function isoWeekMonday(year: number, week: number): string | null {
  const jan4 = Date.UTC(year, 0, 4);
  const monday = new Date(jan4 + ((week - 1) * 7 - ((new Date(jan4).getUTCDay() + 6) % 7)) * DAY_MS);
  // An ISO week belongs to the year of its Thursday: 2026-W53 would be 2027's first week.
  const thursday = new Date(monday.getTime() + 3 * DAY_MS);
  if (week < 1 || thursday.getUTCFullYear() !== year) return null;
  return utcDay(monday);
}

/**
 * Monday of week `week` of `year` as moment's default English locale numbers weeks (`gggg-[W]ww`, Periodic
 * Notes' default weekly name): Sunday to Saturday, week 1 the one holding January 1st (moment's dow 0, doy 6).
 * Null for a week the year does not have. In years that start on a Friday or Saturday (2027, 2028) its
 * week 1 is the ISO year's last week of December: 2027-W01 is Monday 2026-12-28 here, ISO's 2027-01-04.
 */
export function localeWeekMonday(year: number, week: number): string | null {
  const firstSunday = (y: number) => {
    const jan1 = Date.UTC(y, 0, 1);
    return jan1 - new Date(jan1).getUTCDay() * DAY_MS;
  };
  const sunday = firstSunday(year) + (week - 1) * 7 * DAY_MS;
  if (week < 1 || sunday >= firstSunday(year + 1)) return null;
  return utcDay(new Date(sunday + DAY_MS));
}

function utcDay(d: Date): string {
  return ymd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/**
 * The day a value opens with, in a file name's forms (not a path's folders), as YYYY-MM-DD: a Notion page's
 * `Created: November 3, 2023 4:12 PM` (page-properties.ts). Null when it opens with none: `see Nov 3, 2023`
 * is no date.
 */
export function writtenDay(text: string): string | null {
  const t = text.normalize('NFKC').trim();
  for (const form of FORMS) {
    const m = form.inFolders ? null : form.re.exec(t);
    if (!m || m.index !== 0) continue;
    const [y, mo, d] = form.ymd(m);
    if (validDate(y, mo, d)) return ymd(y, mo, d);
  }
  return null;
}

export function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function ymd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
