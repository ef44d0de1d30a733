// Explicit filter flags (--type --status --tag --path --after --before --recent --year) → SearchFilters.
import { TsmError } from '../core/errors.js';
import { NOTE_TYPES, type NoteType, type SearchFilters } from '../core/types.js';
import { keyForm } from '../text/normalize.js';
import { addDays, addMonthsKeepDay, upToNow, ymd, yearRange, type DateRange } from './dates.js';

/** A filter value that cannot be understood; the CLI exits 2 with this message. */
export class FilterError extends TsmError {
  override name = 'FilterError';
  override readonly kind = 'usage';
}

export interface FilterFlags {
  type?: string[];
  status?: string[];
  tag?: string[];
  path?: string[];
  after?: string;
  before?: string;
  recent?: string;
  year?: number | string;
}

/** YYYY, YYYY-MM or YYYY-MM-DD → the first day it covers, and the day after its end. */
export function parseDateFlag(name: string, value: string): { start: string; end: string } {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(value.trim());
  const bad = () => new FilterError(`--${name} takes YYYY, YYYY-MM or YYYY-MM-DD (got "${value}")`);
  if (!m) throw bad();
  const y = Number(m[1]);
  if (m[2] === undefined) return { start: `${y}-01-01`, end: `${y + 1}-01-01` };
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12) throw bad();
  if (m[3] === undefined) return { start: ymd(new Date(y, mo - 1, 1)), end: ymd(new Date(y, mo, 1)) };
  const d = Number(m[3]);
  const date = new Date(y, mo - 1, d);
  if (d < 1 || date.getMonth() !== mo - 1) throw bad();
  return { start: ymd(date), end: ymd(addDays(date, 1)) };
}

/** 30d, 2w, 3m, 1y → the day the range starts, then (`3d` on the 27th: the 24th); buildFilters ends it now (upToNow). */
export function parseRecent(value: string, now: Date): DateRange {
  const m = /^(\d{1,4})\s*(d|w|m|y)$/i.exec(value.trim());
  if (!m || Number(m[1]) === 0) throw new FilterError(`--recent takes a number and a unit d, w, m or y, like 30d, 2w, 3m or 1y (got "${value}")`);
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  const from = unit === 'd' ? addDays(now, -n) : unit === 'w' ? addDays(now, -7 * n) : unit === 'm' ? addMonthsKeepDay(now, -n) : addMonthsKeepDay(now, -12 * n);
  return { after: ymd(from) };
}

/**
 * Builds filters from flags. Dates from flags win over `textRange` (a temporal expression found in the query).
 */
export function buildFilters(flags: FilterFlags, textRange: DateRange | null, now: Date): SearchFilters {
  const f: SearchFilters = {};
  if (flags.type?.length) {
    const types = listed('--type', flags.type, keyForm);
    for (const t of types) {
      if (!(NOTE_TYPES as readonly string[]).includes(t)) throw new FilterError(`--type takes ${NOTE_TYPES.join(', ')} (got "${t}")`);
    }
    f.types = [...new Set(types)] as NoteType[];
  }
  // In the index's key form (keyForm): a status typed in NFD finds the notes that wrote it in NFC, and back.
  if (flags.status?.length) f.statuses = [...new Set(listed('--status', flags.status, keyForm))];
  // `#` is stripped after NFKC: an IME in full-width mode types `＃日本語`, which kept its ＃ and matched no tag.
  if (flags.tag?.length) f.tags = [...new Set(listed('--tag', flags.tag, (t) => keyForm(t).replace(/^#/, '')))];
  if (flags.path?.length) f.pathPrefixes = flags.path.map((p) => p.replace(/^\.\//, '').replace(/\\/g, '/'));

  let range: DateRange = {};
  let explicit = false;
  // An empty date flag (`--after "$SINCE"` with SINCE unset) is refused by its parser, as an empty --tag is:
  // taken for absent, it searched every date without a word.
  if (flags.year !== undefined) {
    const y = Number(flags.year);
    if (!Number.isInteger(y) || y < 1000 || y > 9999) throw new FilterError(`--year takes a four-digit year (got "${flags.year}")`);
    range = yearRange(y);
    explicit = true;
  }
  if (flags.recent !== undefined) {
    range = intersect(range, upToNow(parseRecent(flags.recent, now), now));
    explicit = true;
  }
  if (flags.after !== undefined) {
    range = intersect(range, { after: parseDateFlag('after', flags.after).start });
    explicit = true;
  }
  if (flags.before !== undefined) {
    range = intersect(range, { before: parseDateFlag('before', flags.before).start });
    explicit = true;
  }
  // Flags whose days do not meet (`--after 2026-07 --before 2026-03`) are a mistake, not a search that finds nothing.
  if (explicit && range.after && range.before && range.after >= range.before) {
    // Only the flags given are named: MCP's search has no year or recent to check.
    const given = (['after', 'before', 'year', 'recent'] as const).filter((k) => flags[k] !== undefined).map((k) => `--${k}`);
    const named = given.length > 1 ? `${given.slice(0, -1).join(', ')} and ${given[given.length - 1]}` : given.join('');
    throw new FilterError(`the date flags leave no day: from ${range.after} to before ${range.before} (check ${named})`);
  }
  // The text's range as the flags' is: one rule for "up to now" (upToNow), the prompt hook's and MCP's too.
  if (!explicit && textRange) range = upToNow(textRange, now);
  if (range.after) f.after = range.after;
  if (range.before) f.before = range.before;
  return f;
}

/**
 * A flag's values, each a comma-separated list. A flag that names nothing (`--tag ''`, `--status ,`, `--tag '#'`)
 * is a mistake, as an empty `--path` is: it was ignored, and the search ran over every note without a word.
 */
function listed(flag: string, values: string[], item: (v: string) => string = (v) => v): string[] {
  const items = values.flatMap(splitList).map(item).filter(Boolean);
  if (items.length === 0) throw new FilterError(`${flag} must not be empty`);
  return items;
}

function splitList(v: string): string[] {
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function intersect(a: DateRange, b: DateRange): DateRange {
  const after = a.after && b.after ? (a.after > b.after ? a.after : b.after) : (a.after ?? b.after);
  const before = a.before && b.before ? (a.before < b.before ? a.before : b.before) : (a.before ?? b.before);
  return { ...(after ? { after } : {}), ...(before ? { before } : {}) };
}
