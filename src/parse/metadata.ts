// Note-level fields derived from frontmatter, the path and the file time (README "The vault").
import { localDay } from '../core/days.js';
import { NOTE_TYPES, type NoteType } from '../core/types.js';
import { charLength } from '../text/chars.js';
import { count } from '../text/count.js';
import { pageName } from '../text/page-name.js';
import { keyForm } from '../text/normalize.js';
import { oneLine } from '../text/controls.js';
import { dailyByFormat, formatDay, type DayFormat } from './day-format.js';
import { nameDay, validDate, writtenDay, ymd } from './name-date.js';
import type { ParseOptions } from './options.js';

type Frontmatter = Record<string, unknown>;

/** Frontmatter `title` → first H1 → file name without extension, as the page name it stands for (pageName). */
export function noteTitle(fm: Frontmatter, firstH1: string | null, path: string): string {
  const fromFm = scalarText(property(fm, 'title'));
  if (fromFm && shownTitle(fromFm)) return fromFm;
  if (firstH1 && shownTitle(firstH1)) return firstH1;
  return pageName(stem(path));
}

/**
 * True when a title shows something once cleaned as the outputs clean it (oneLine): `title: "\e[31m\x01"`
 * (YAML escapes) was the title, shown as nothing in `tsm search` and `-f md`, where a blank one falls back to
 * the next. It falls back the same way now. (A heading of only control characters is empty already:
 * heading-text.ts headingPlainText.)
 */
function shownTitle(text: string): boolean {
  return oneLine(text) !== '';
}

/**
 * Frontmatter `type` when valid; else daily/session folders, a name that starts with a day (name-date.ts) or
 * that Obsidian's daily-note settings name (day-format.ts; not its weekly, monthly… ones); else knowledge.
 */
export function noteType(fm: Frontmatter, path: string, opts: ParseOptions): NoteType {
  const text = scalarText(property(fm, 'type'));
  const declared = text === null ? null : keyForm(text);
  if (declared && (NOTE_TYPES as readonly string[]).includes(declared)) return declared as NoteType;
  const folders = path.split('/').slice(0, -1).map((f) => f.toLowerCase());
  const inAny = (names: string[]) => names.some((n) => folders.includes(n.toLowerCase()));
  if (inAny(opts.dailyFolders) || nameDay(path)?.leading || dailyByFormat(path, opts.dayFormats)) return 'daily';
  if (inAny(opts.sessionFolders)) return 'session';
  return 'knowledge';
}

/**
 * A frontmatter `type` that is none of tsm's (`meeting`, a typo) falls back to the folder and name rules
 * above; the note says so, or a `--type` filter would miss it with no clue why. An empty `type:` is a
 * template's blank, not a choice: no warning.
 */
export function unknownTypeWarning(fm: Frontmatter, indexedAs: NoteType): string | null {
  const value = property(fm, 'type');
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return null;
  const declared = scalarText(value);
  if (declared !== null && (NOTE_TYPES as readonly string[]).includes(keyForm(declared))) return null;
  return `frontmatter: type ${valueIs(value, declared)} not a type tsm knows (${NOTE_TYPES.join(', ')}): indexed as ${indexedAs}`;
}

/** `"meeting" is` (cut at 40 characters), or `is a list,` / `is a mapping,`: a property's value in a warning. */
function valueIs(value: unknown, text: string | null): string {
  if (text === null) return `is ${Array.isArray(value) ? 'a list' : 'a mapping'},`;
  return `${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is`;
}

/** Frontmatter `status` in its key form (keyForm: NFKC, lower case, as `--status` compares it); null when absent or empty. */
export function noteStatus(fm: Frontmatter): string | null {
  const text = scalarText(property(fm, 'status'));
  return text === null ? null : keyForm(text) || null;
}

export interface NoteDate {
  date: string;
  dateSource: 'frontmatter' | 'filename' | 'mtime';
}

const DATE_KEYS = ['date', 'updated', 'created'];

/**
 * Frontmatter date/updated/created (first valid; a day, a timestamp or epoch ms) → the same of a Notion page's
 * property lines (`pageDates`: page-properties.ts notionProperties; a day as Notion writes it too,
 * `November 3, 2023 4:12 PM`; the note's own, so its source is `frontmatter` as well) → the day Obsidian's
 * daily-note settings name, or the first day of the period its Periodic Notes settings name (day-format.ts:
 * before name-date.ts's guesses, which read `11.12.2026` day first where the vault's format may say otherwise,
 * and `2027-W01` as an ISO week where the vault's `gggg-[W]ww` numbers the locale's) → a day the path names (name-date.ts) → a
 * session note's `started` → the mtime's local date.
 */
export function noteDate(
  fm: Frontmatter,
  path: string,
  mtimeMs: number,
  dayFormats: readonly DayFormat[] = [],
  pageDates: Record<string, string> = {},
): NoteDate {
  for (const key of DATE_KEYS) {
    const date = dateOf(property(fm, key));
    if (date) return { date, dateSource: 'frontmatter' };
  }
  for (const key of DATE_KEYS) {
    const value = pageDates[key];
    const date = value === undefined ? null : (dateOf(value) ?? writtenDay(value));
    if (date) return { date, dateSource: 'frontmatter' };
  }
  const formatted = formatDay(path, dayFormats);
  if (formatted) return { date: formatted, dateSource: 'filename' };
  const named = nameDay(path);
  if (named) return { date: named.date, dateSource: 'filename' };
  // A session note tsm wrote is named by its start's day; renamed by its user (Obsidian's rename, which
  // ingest follows), it was dated by its file's mtime, the day of its last write, and fell out of
  // `last week` searches of the session. Its `started` dates it still; only in a session note, where tsm
  // writes that key (elsewhere `started:` may be anything, a project's start).
  const started = isSessionNote(fm) ? dateOf(property(fm, 'started')) : null;
  if (started) return { date: started, dateSource: 'frontmatter' };
  return { date: localDay(Number.isFinite(mtimeMs) ? mtimeMs : 0), dateSource: 'mtime' };
}

/**
 * A frontmatter date/updated/created that is no date (`created: yesterday`, `date: next week`, `2026-02-30`)
 * dated nothing, and the note fell back to its file's modification time with no word of why: a warning for
 * each, when the note is dated by that time. Dated otherwise (its file name, `started`), it has the day it
 * means, and a daily note's template leftover (`created: 2026年度`) is no news: no warning. A blank value
 * (`created:`, or `0000-00-00`, an empty date as templates and database exports write it) is a template's
 * blank, not a date: no warning either.
 */
export function unreadDateWarnings(fm: Frontmatter, dated: NoteDate): string[] {
  if (dated.dateSource !== 'mtime') return [];
  const out: string[] = [];
  for (const key of DATE_KEYS) {
    const value = property(fm, key);
    if (value === undefined || value === null) continue;
    const text = scalarText(value);
    if (text === '0000-00-00' || (typeof value === 'string' && text === null)) continue;
    out.push(`frontmatter: ${propertyKey(fm, key)} ${valueIs(value, text)} no date tsm reads, so the note is dated by its file's modification time: write an ISO date, YYYY-MM-DD`);
  }
  return out;
}

const isSessionNote = (fm: Frontmatter): boolean => {
  const type = scalarText(property(fm, 'type'));
  return type !== null && keyForm(type) === 'session';
};

// 2024-01-02, 2024/1/2, 2024.1.2, and 2024年1月2日 as Japanese notes write it (read in NFKC: full-width digits too).
const FLEXIBLE_DATE = /^(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2})(?![0-9])|年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日)/;

/**
 * A YYYY-MM-DD from a frontmatter value. js-yaml turns timestamps into Dates, which the JSON-safe copy
 * holds as ISO strings in UTC: their date part is the day written (a time without an offset is read as
 * UTC), except with an offset, which the copy keeps as written (frontmatter.ts keepOffsetTimestamps).
 */
function dateOf(value: unknown): string | null {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  }
  if (typeof value === 'number') return epochDay(value);
  if (typeof value !== 'string') return null;
  const m = FLEXIBLE_DATE.exec(value.normalize('NFKC').trim());
  if (!m) return null;
  const [y, mo, d] = [+m[1], +(m[2] ?? m[4]), +(m[3] ?? m[5])];
  return validDate(y, mo, d) ? ymd(y, mo, d) : null;
}

/**
 * The local day (as of the mtime, below) of a Unix timestamp: Dendron writes `updated` and `created` in
 * milliseconds (`updated: 1764244800000`), other tools in seconds. Only the sizes those take (10 digits:
 * seconds, 2001–2286; 12 or 13: milliseconds, 1973–2286), so a number such as `date: 20261127` or a count
 * is no day.
 */
function epochDay(value: number): string | null {
  if (!Number.isInteger(value)) return null;
  const ms = value >= 1e9 && value < 1e10 ? value * 1000 : value >= 1e11 && value < 1e13 ? value : null;
  return ms === null ? null : localDay(ms);
}

/** Frontmatter `tags`/`tag` (a list, or a comma/space separated string), without '#', lower-cased. */
export function frontmatterTags(fm: Frontmatter): string[] {
  const out: string[] = [];
  for (const key of ['tags', 'tag']) {
    for (const item of propertyValues(fm, key).flatMap(listOf)) {
      for (const part of item.split(/[,\s]+/)) {
        const tag = part.replace(/^#+/, '').trim().toLowerCase();
        if (tag) out.push(tag);
      }
    }
  }
  return out;
}

/**
 * Frontmatter `aliases`/`alias`: a list, or one string of aliases separated by commas, as Obsidian reads it
 * (`aliases: Apollo, Moonshot` is two aliases in its quick switcher and link suggestions; obsidianmd/
 * obsidian-importer#64). A list's item is one alias, commas and all (`- Smith, John`).
 */
export function frontmatterAliases(fm: Frontmatter): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const key of ['aliases', 'alias']) {
    const items = propertyValues(fm, key).flatMap((v) => (typeof v === 'string' ? v.split(',') : listOf(v)));
    for (const item of items) {
      const alias = item.trim();
      if (alias && !seen.has(alias)) {
        seen.add(alias);
        out.push(alias);
      }
    }
  }
  return out;
}

/**
 * Longest alias or tag, in characters. Every section of a note repeats its first aliases and tags in its
 * full-text head (index/fts-rows.ts HEAD_NAMES): a 335 KB note of one alias of 60,000 words over 1,000
 * headings took 65 s to index and made a 300 MB index (a tag alike: 56 s, 300 MB). A name is a few words;
 * text that long is no name (a paragraph pasted into `aliases:`, a `#` before a blob), and is left out with a
 * warning. With it that note takes 0.6 s and 1.3 MB, and the most a 5 MB note can make is bounded: 32 aliases and
 * 32 tags of 200 characters over 10,000 sections took 7.5 s and made 106 MB.
 */
export const MAX_NAME_CHARS = 200;

/** `names` without those over MAX_NAME_CHARS; a warning for them (`noun`: alias or tag) says which and why. */
export function withoutLongNames(names: string[], noun: string, plural: string, warnings: string[]): string[] {
  const kept = names.filter((n) => n.length <= MAX_NAME_CHARS || charLength(n) <= MAX_NAME_CHARS);
  const left = names.length - kept.length;
  if (left > 0) {
    warnings.push(`${count(left, noun, plural)} over ${MAX_NAME_CHARS} characters left out (a name is a few words): shorten ${left === 1 ? 'it' : 'them'}, or move the text into the note`);
  }
  return kept;
}

/** Frontmatter `description` or `summary`: what the note is about, in the author's own sentence ('' when none). */
export function frontmatterDescription(fm: Frontmatter): string {
  for (const key of ['description', 'summary']) {
    const text = listOf(property(fm, key)).join(' ').trim();
    if (text) return text;
  }
  return '';
}

/**
 * A property tsm reads (`title`, `tags`, `date`…), its key written in any case: Obsidian reads `Tags:` and
 * `Aliases:` as it reads `tags:` (its key patterns are /^tags?$/i, /^alias(es)?$/i) and Hugo every key
 * (`Title:`, `Description:`), which tsm read only in lower case: the GitLab handbook's pages with `Title:` were
 * titled `_index`, a note's `Tags: [project]` never matched `--tag project`. The values of every key that is
 * `name` in lower case: the one written so first, then the others in the order written.
 */
export function propertyValues(fm: Frontmatter, name: string): unknown[] {
  return propertyKeys(fm, name).map((key) => fm[key]);
}

/** The keys propertyValues reads, as the note wrote them (`Created`), in its order. */
function propertyKeys(fm: Frontmatter, name: string): string[] {
  const out = Object.hasOwn(fm, name) ? [name] : [];
  for (const key of Object.keys(fm)) if (key !== name && key.toLowerCase() === name) out.push(key);
  return out;
}

/** The first of propertyValues: a property that holds one value (`title`, `status`, a date). */
export function property(fm: Frontmatter, name: string): unknown {
  return propertyValues(fm, name)[0];
}

/**
 * The key of `property`'s value as the note wrote it, for a message that names it: a warning about `created`
 * sent the user looking for a key their note spells `Created:`.
 */
function propertyKey(fm: Frontmatter, name: string): string {
  return propertyKeys(fm, name)[0] ?? name;
}

/** Case-insensitively unique, lower-cased, in first-seen order. */
export function uniqueLower(items: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const item of items) seen.add(item.toLowerCase());
  return [...seen];
}

function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => listOf(v));
  const text = scalarText(value);
  return text ? [text] : [];
}

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

function fileName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

function stem(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
