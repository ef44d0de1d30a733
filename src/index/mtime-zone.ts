// The day of a note dated by its file's modification time is that time's day in the time zone of the run
// that read the note (parse/metadata.ts noteDate, localDay). A sync reads only the files that changed, so a
// `tsm index` in another zone (TZ set in one shell and not in another, a laptop carried across zones, the
// hooks' environment) left the index with days of two zones: two notes saved a minute apart, one read in
// Asia/Tokyo and one in America/Los_Angeles after its edit, were dated 2026-11-21 and 2026-11-20, and
// `--after 2026-11-21` found only the first, whatever the zone of the search. Each sync now records its zone
// (meta `mtime_zone`), and one in another zone dates those notes again in its own, from the modification
// time the index holds (a file touched since its note was read: the touch's; no note is read again, where a
// reading setting's change reads every note: a few ms for the notes of a vault, not a rebuild). A
// day from a Unix timestamp in the frontmatter (Dendron's `updated`) is not dated again: its note is read
// again only when it changes.
import { localDay } from '../core/days.js';
import type { Database } from './db.js';

const KEY = 'mtime_zone';

/** The time zone days are taken in by this process (TZ, else the system's). */
function zoneNow(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

/**
 * Dates the notes dated by modification time in this process's zone when the index recorded another, and
 * records this one; returns how many notes changed day. In the write transaction that ends a sync. An index
 * with no zone recorded (an older tsm's) is taken as dated in this one: its notes keep their days.
 */
export function dateInThisZone(db: Database): number {
  const zone = zoneNow();
  const recorded = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(KEY) as string | undefined;
  if (recorded === zone) return 0;
  let changed = 0;
  if (recorded !== undefined) {
    const update = db.prepare('UPDATE notes SET date = ? WHERE id = ? AND date <> ?');
    const rows = db.prepare("SELECT id, mtime_ms AS mtimeMs FROM notes WHERE date_source = 'mtime'").all() as { id: number; mtimeMs: number }[];
    for (const r of rows) {
      const day = localDay(r.mtimeMs);
      changed += update.run(day, r.id, day).changes;
    }
  }
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, zone);
  return changed;
}
