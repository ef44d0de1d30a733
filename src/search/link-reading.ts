// How a search's snippets read the vault's links: as the index read its notes, by the reading settings a sync
// of the whole vault records (index/reading-settings.ts: `extensions`, and `dendron`, label first). One meta
// row a search, no file read: whether a vault is Dendron's takes a stat of each folder up to the root.
import type { NoteReader } from '../index/note-reader.js';
import { DEFAULT_LINK_READING, type LinkReading } from '../text/markdown-line.js';

/** index/reading-settings.ts's meta key. */
const READING_SETTINGS = 'reading_settings';

/** The recorded reading of links; Obsidian's way (DEFAULT_LINK_READING) where none was recorded (an index no full sync wrote). */
export function linkReadingOf(reader: NoteReader): LinkReading {
  const row = reader.meta(READING_SETTINGS);
  if (row === null) return DEFAULT_LINK_READING;
  let recorded: { extensions?: unknown; dendron?: unknown };
  try {
    recorded = JSON.parse(row) as typeof recorded;
  } catch {
    return DEFAULT_LINK_READING;
  }
  const extensions = Array.isArray(recorded.extensions) ? recorded.extensions.filter((e): e is string => typeof e === 'string') : [];
  return {
    noteExtensions: extensions.length > 0 ? extensions.map((e) => e.toLowerCase()) : DEFAULT_LINK_READING.noteExtensions,
    labelFirst: recorded.dendron === true,
  };
}
