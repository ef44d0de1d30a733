// A modification time that most of the vault shares dates none of its notes. A vault cloned with git, copied,
// unpacked from an archive or restored by a sync tool has every file's mtime within a few minutes of each
// other, and a note with no date of its own (frontmatter, file name) is dated by its mtime: every such note
// was then "written today", and "what did I do today" listed the whole vault, today's daily note lost among
// them (a copy of the TIL vault, 1,873 notes: `today's notes` found five TIL pages, not the day's note). A bulk
// edit (a find-and-replace over the vault, a linter) says as little about when each note was written.
// So a text's date range ("today", "last week", 先週) leaves such notes out, and so do the lists of recent
// notes (the SessionStart hook's, MCP recent_context: after a clone they were ten random pages "30 min ago");
// a date flag (`--recent 1d`) still means the files' times, as find's -mtime does.
import { localDay } from '../core/days.js';
import type { NoteReader } from '../index/note-reader.js';

/** At least this share of all notes, last changed within one span (or two adjacent ones)… */
const CROWD_SHARE = 0.5;
/** …and at least this many: a new vault of a few notes written in one sitting is no checkout. */
const CROWD_MIN_NOTES = 20;

export interface MtimeCrowd {
  /** First and last modification time of the crowd (ms). */
  from: number;
  to: number;
  notes: number;
  /** The day of its first time, in the user's zone, as a note's date is. */
  day: string;
}

/** The crowd of mtimes in the vault, or null. Adjacent spans join: a checkout that crossed a span's boundary. */
export function mtimeCrowd(reader: Pick<NoteReader, 'mtimeSpans'>): MtimeCrowd | null {
  const { spans, allNotes } = reader.mtimeSpans();
  if (spans.length === 0) return null;
  const [a, b] = spans;
  const joined = b && Math.abs(a.span - b.span) === 1;
  const crowd = joined ? { from: Math.min(a.from, b.from), to: Math.max(a.to, b.to), notes: a.notes + b.notes } : { from: a.from, to: a.to, notes: a.notes };
  return crowd.notes >= CROWD_MIN_NOTES && crowd.notes >= CROWD_SHARE * allNotes ? { ...crowd, day: localDay(crowd.from) } : null;
}
