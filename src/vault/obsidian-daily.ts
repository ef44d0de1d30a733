// Obsidian's own daily-note settings, where an Obsidian user set them: the Daily notes core plugin's
// `.obsidian/daily-notes.json` ({"folder": "Journal/Daily", "format": "DD-MM-YYYY"}; a key left out is
// Obsidian's default: the vault's root, YYYY-MM-DD) and the Periodic Notes plugin's
// `.obsidian/plugins/periodic-notes/data.json` ({"daily": {"enabled": true, "folder": …, "format": …}}), and that
// plugin's weekly, monthly, quarterly and yearly notes (`"weekly": {"enabled": true, "format": "gggg-[W]ww"}`),
// or, from its version 1.0, the same in the active one of its `calendarSets` (`"week": {…}`).
// A file that is absent says nothing; one that cannot be read or holds no settings is a warning naming it,
// never an error: Obsidian's files are Obsidian's, and a search must not stop at them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexWarning } from '../core/types.js';
import { fileKind } from './file-kind.js';
import { shownJson } from './jsonc.js';

export const DAILY_NOTES_FILE = '.obsidian/daily-notes.json';
export const PERIODIC_NOTES_FILE = '.obsidian/plugins/periodic-notes/data.json';

/** Obsidian's default daily-note format (both plugins'), and Periodic Notes' other defaults for a format left empty. */
const DEFAULT_FORMATS: Record<string, string> = { '': 'YYYY-MM-DD', daily: 'YYYY-MM-DD', weekly: 'gggg-[W]ww', monthly: 'YYYY-MM', quarterly: 'YYYY-[Q]Q', yearly: 'YYYY' };

/** Periodic Notes' entries besides `daily`, read only when `enabled` is true (the plugin's default is false). */
export const PERIODIC_ENTRIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type PeriodicEntry = (typeof PERIODIC_ENTRIES)[number];

/** The Periodic Notes entry a setting's key names, or undefined for a daily note's (`daily`, or the core plugin's ''). */
export function periodicEntryOf(key: string): PeriodicEntry | undefined {
  return (PERIODIC_ENTRIES as readonly string[]).includes(key) ? (key as PeriodicEntry) : undefined;
}

export interface ObsidianDailySetting {
  /** Vault-relative, NFC, without leading or trailing slashes: '' is the vault's root. */
  folder: string;
  /** The moment.js format as written. */
  format: string;
  /** The settings file it comes from (vault-relative). */
  file: string;
  /** Where in the file: '' (the whole file), or Periodic Notes' `daily`, `weekly`, `monthly`, `quarterly`, `yearly`. */
  key: string;
}

export interface ObsidianDaily {
  settings: ObsidianDailySetting[];
  warnings: IndexWarning[];
}

export function readObsidianDaily(vault: string): ObsidianDaily {
  const out: ObsidianDaily = { settings: [], warnings: [] };
  const core = readJson(vault, DAILY_NOTES_FILE, out.warnings);
  if (core !== undefined) take(core, DAILY_NOTES_FILE, '', out);
  const file = readJson(vault, PERIODIC_NOTES_FILE, out.warnings);
  const periodic = file === undefined ? undefined : activeCalendarSet(file, out.warnings);
  if (periodic !== undefined) {
    const daily = periodic.daily;
    // Periodic Notes writes `daily` once its settings are opened; `enabled: false` is its daily notes turned off.
    if (isObject(daily) && daily.enabled !== false) take(daily, PERIODIC_NOTES_FILE, 'daily', out);
    for (const key of PERIODIC_ENTRIES) {
      const entry = periodic[key];
      if (isObject(entry) && entry.enabled === true) take(entry, PERIODIC_NOTES_FILE, key, out);
    }
  }
  return out;
}

/** The calendar set Periodic Notes 1.0 makes first and takes as active when data.json names none. */
const DEFAULT_CALENDAR_SET = 'Default';

/** Periodic Notes 1.0's names of its entries in a calendar set, and the names of its 0.x settings (ours). */
const CALENDAR_SET_ENTRIES = { day: 'daily', week: 'weekly', month: 'monthly', quarter: 'quarterly', year: 'yearly' } as const;

/**
 * The settings Periodic Notes reads: 0.x keeps them at the top (`daily`, `weekly`, …); 1.0 (beta, through
 * BRAT) in `calendarSets`, a list of sets ({"id": "work", "day": {…}, "week": {…}, …}) of which
 * `activeCalendarSet` names the one in use, and may leave the 0.x keys behind from before its migration:
 * those it no longer reads, nor does tsm. A `calendarSets` tsm cannot read is a warning, and the 0.x keys
 * are read instead.
 */
function activeCalendarSet(data: Record<string, unknown>, warnings: IndexWarning[]): Record<string, unknown> | undefined {
  const sets = data.calendarSets;
  // [] is the plugin's own default before it migrates the top-level settings into a set: they are what it reads.
  if (sets === undefined || (Array.isArray(sets) && sets.length === 0)) return data;
  const usable = Array.isArray(sets) ? sets.filter(isObject) : [];
  if (usable.length === 0) {
    warnings.push({ path: PERIODIC_NOTES_FILE, message: 'calendarSets must be a list of calendar sets: its top-level daily, weekly, monthly, quarterly and yearly settings are read instead' });
    return data;
  }
  // The active set (`Default` when the key is absent: the plugin's default, and all an early beta used), else
  // the first (as the plugin falls back when the active one is gone). Undefined would match a set without an id.
  const active = typeof data.activeCalendarSet === 'string' ? data.activeCalendarSet : DEFAULT_CALENDAR_SET;
  const set = usable.find((s) => s.id === active) ?? usable[0];
  // In a set, the day is on only with `enabled: true`, as the week and the rest (0.x's daily was on unless false).
  const entryOf = (entry: string) => {
    const e = set[entry];
    return entry === 'day' && isObject(e) && e.enabled !== true ? { ...e, enabled: false } : e;
  };
  return Object.fromEntries(Object.entries(CALENDAR_SET_ENTRIES).map(([entry, key]) => [key, entryOf(entry)]));
}

function take(obj: Record<string, unknown>, file: string, key: string, out: ObsidianDaily): void {
  const { folder = '', format = '' } = obj;
  if (typeof folder !== 'string' || typeof format !== 'string') {
    const where = key ? `${key}'s folder and format` : 'folder and format';
    out.warnings.push({ path: file, message: `${where} must be text (got ${shownJson({ folder, format })}): its ${key || 'daily'}-note settings are not read` });
    return;
  }
  const setting = { folder: folderOf(folder), format: format.trim() || DEFAULT_FORMATS[key], file, key };
  const daily = (k: string) => k === '' || k === 'daily';
  const same = out.settings.some((s) => s.folder === setting.folder && s.format === setting.format && daily(s.key) === daily(key));
  if (!same) out.settings.push(setting);
}

/** `/Journal/Daily/`, `./Journal/Daily` and ` Journal/Daily ` are the folder Obsidian names `Journal/Daily`. */
function folderOf(folder: string): string {
  return folder.normalize('NFC').trim().replace(/\\/g, '/').replace(/^(?:\.\/|\/)+/, '').replace(/\/+$/, '');
}

/** The JSON object in `rel`, or undefined when there is none (absent: silently; unreadable or no object: with a warning). */
function readJson(vault: string, rel: string, warnings: IndexWarning[]): Record<string, unknown> | undefined {
  const path = join(vault, rel);
  const kind = fileKind(path);
  if (kind === 'absent') return undefined;
  // For data.json, "daily-note settings are not read" too: cmd-doctor.ts finds the fix by those words.
  const fix = rel === PERIODIC_NOTES_FILE ? 'its daily-note settings are not read, nor its weekly, monthly, quarterly and yearly ones' : 'its daily-note settings are not read';
  if (kind !== 'file') {
    warnings.push({ path: rel, message: `not a plain file (a folder, a pipe): ${fix}` });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    warnings.push({ path: rel, message: `not valid JSON (${(err as Error).message}): ${fix}` });
    return undefined;
  }
  if (!isObject(data)) {
    warnings.push({ path: rel, message: `must hold a JSON object: ${fix}` });
    return undefined;
  }
  return data;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
