// How a search's snippets read the vault's links: as the index read its notes, by the reading settings a sync
// of the whole vault records (index/reading-settings.ts: `extensions`, and `dendron`, label first). One meta
// row a search, no file read: whether a vault is Dendron's takes a stat of each folder up to the root.
import type { Database } from '../index/db.js';
import { recordedLinkReading } from '../index/reading-settings.js';
import { DEFAULT_LINK_READING, type LinkReading } from '../text/markdown-line.js';

/** The recorded reading of links; Obsidian's way (DEFAULT_LINK_READING) where none was recorded (an index no full sync wrote). */
export function linkReadingOf(db: Database): LinkReading {
  const recorded = recordedLinkReading(db);
  if (recorded === null) return DEFAULT_LINK_READING;
  return {
    noteExtensions: recorded.extensions ? recorded.extensions.map((e) => e.toLowerCase()) : DEFAULT_LINK_READING.noteExtensions,
    labelFirst: recorded.dendron,
  };
}
