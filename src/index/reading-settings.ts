// The settings a note's rows depend on (config.json's chunkChars, dailyFolders, sessionFolders, maxFileBytes,
// extensions),
// as the notes in the index were read with them. A sync re-reads only files whose size or time changed, so
// `"dailyFolders": ["notes"]` typed no note of notes/ daily (nor did a larger maxFileBytes take a skipped
// file, nor a new chunkChars split a section) until each file was edited or `tsm index --full` ran, and
// nothing said so. A sync of the whole vault compares them with the ones recorded, reads every note again
// when one differs, and records them (meta reading_settings). Obsidian's daily-note settings
// (.obsidian/daily-notes.json, Periodic Notes' data.json: parse/day-format.ts) type and date notes as much,
// so they are recorded with them (`dayFormats`; Periodic Notes' weekly, monthly, quarterly and yearly ones as
// `periodFormats`), as is whether the vault is Dendron's (`dendron`).
import type { DayFormat } from '../parse/day-format.js';
import type { ParseOptions } from '../parse/options.js';
import type { Database } from './db.js';

const KEY = 'reading_settings';

/** The settings as recorded: folder lists are matched in any case and order (parse/metadata.ts), so kept so. */
function recordOf(opts: ParseOptions): Record<string, unknown> {
  const folders = (list: string[]) => [...new Set(list.map((f) => f.toLowerCase()))].sort();
  return {
    chunkChars: opts.chunkChars,
    dailyFolders: folders(opts.dailyFolders),
    sessionFolders: folders(opts.sessionFolders),
    maxFileBytes: opts.maxFileBytes,
    // Folders in any case (day-format.ts formatDay), in any order.
    dayFormats: formatsOf(opts.dayFormats.filter((d) => d.period === undefined)),
    // Periodic Notes' weekly, monthly, quarterly and yearly ones apart: a record from before they were read
    // lacks the key, which is no change (changedReadingSettings), where a longer dayFormats would be one.
    periodFormats: formatsOf(opts.dayFormats.filter((d) => d.period !== undefined)),
    // Links and names are keyed without a note extension (resolve-link.ts targetKey): a note read before an
    // extension was added keeps keys of the old list.
    extensions: [...new Set(opts.extensions)].sort(),
    // Dendron's links are read label first: a dendron.yml put in (or taken away) changes every labelled link.
    dendron: opts.dendron,
  };
}

function formatsOf(formats: DayFormat[]): DayFormat[] {
  return formats.map((d) => ({ ...d, folder: d.folder.toLowerCase() })).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** The settings that live in other tools' files rather than in config.json, as a user reads their change. */
const OTHER_TOOLS_SETTINGS: Record<string, string> = {
  dayFormats: "Obsidian's daily-note settings (.obsidian/) changed",
  periodFormats: "Periodic Notes' weekly, monthly, quarterly or yearly settings (.obsidian/) changed",
  dendron: "Dendron's dendron.yml was added or removed",
};

/** `changed` (changedReadingSettings) as a user reads it: where each setting was changed. */
export function describeChangedSettings(changed: string[]): string {
  const config = changed.filter((k) => !(k in OTHER_TOOLS_SETTINGS));
  const parts = config.length > 0 ? [`${config.join(', ')} changed in config.json`] : [];
  for (const k of changed) if (k in OTHER_TOOLS_SETTINGS) parts.push(OTHER_TOOLS_SETTINGS[k]);
  return parts.join(' and ');
}

/**
 * The names of the settings that differ from those the index's notes were read with. None when nothing
 * was recorded: an index an older tsm wrote is taken as read with the present settings (reading every note
 * of every vault again, once, for a change that most never made, is the larger cost).
 */
export function changedReadingSettings(db: Database, opts: ParseOptions): string[] {
  const recorded = recordedSettings(db);
  if (recorded === null) return [];
  const now = recordOf(opts);
  // A setting the record lacks was recorded by a tsm that did not read it (dayFormats and extensions: one
  // before 34c2b37 and b6b8179, whose notes are of PARSE_VERSION 4 at most): not a change, as that tsm's
  // notes are read again for their version anyway (note-reading.ts), and this tsm read its own with the
  // setting. Taking the missing day formats as none said on upgrade that Obsidian's settings had "changed",
  // on a line of its own beside the re-read's.
  return Object.keys(now).filter((k) => k in recorded && JSON.stringify(recorded[k]) !== JSON.stringify(now[k]));
}

/** Records that every note is read with `opts` (in the write transaction that ends a sync of the whole vault). */
export function recordReadingSettings(db: Database, opts: ParseOptions): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(recordOf(opts)));
}

/** The record as written (an unreadable one is empty), or null when none was. */
function recordedSettings(db: Database): Record<string, unknown> | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (row === undefined) return null;
  try {
    const parsed = JSON.parse(row) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** How the index read its notes' links, as recorded: the note extensions and Dendron's label-first order; null when nothing is. */
export function recordedLinkReading(db: Database): { extensions: string[] | null; dendron: boolean } | null {
  const recorded = recordedSettings(db);
  if (recorded === null) return null;
  const extensions = Array.isArray(recorded.extensions) ? recorded.extensions.filter((e): e is string => typeof e === 'string') : [];
  return { extensions: extensions.length > 0 ? extensions : null, dendron: recorded.dendron === true };
}
