// The settings a note's rows depend on (config.json's chunkChars, dailyFolders, sessionFolders, maxFileBytes),
// as the notes in the index were read with them. A sync re-reads only files whose size or time changed, so
// `"dailyFolders": ["notes"]` typed no note of notes/ daily (nor did a larger maxFileBytes take a skipped
// file, nor a new chunkChars split a section) until each file was edited or `tsm index --full` ran, and
// nothing said so. A sync of the whole vault compares them with the ones recorded, reads every note again
// when one differs, and records them (meta reading_settings).
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
  };
}

/**
 * The names of the settings that differ from those the index's notes were read with. None when nothing
 * was recorded: an index an older tsm wrote is taken as read with the present settings (reading every note
 * of every vault again, once, for a change that most never made, is the larger cost).
 */
export function changedReadingSettings(db: Database, opts: ParseOptions): string[] {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (row === undefined) return [];
  let recorded: Record<string, unknown>;
  try {
    recorded = JSON.parse(row) as Record<string, unknown>;
  } catch {
    recorded = {};
  }
  const now = recordOf(opts);
  return Object.keys(now).filter((k) => JSON.stringify(recorded[k]) !== JSON.stringify(now[k]));
}

/** Records that every note is read with `opts` (in the write transaction that ends a sync of the whole vault). */
export function recordReadingSettings(db: Database, opts: ParseOptions): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, JSON.stringify(recordOf(opts)));
}
