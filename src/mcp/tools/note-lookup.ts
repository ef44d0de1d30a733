// A note named by a model: its exact vault path, the path without its note extension (`.md`), or — for a bare name without
// folders — a unique file name, title or alias (as `tsm related` accepts). A path with folders never falls
// back to a same-named note in another folder.
import type { NoteRecord } from '../../core/types.js';
import type { NoteReader } from '../../index/note-reader.js';

export function findIndexedNote(reader: NoteReader, relPath: string, extensions: readonly string[]): NoteRecord | null {
  const exact = reader.noteByPath(relPath) ?? reader.noteByPathWithout(relPath, extensions);
  if (exact || relPath.includes('/')) return exact;
  return reader.findNote(relPath, extensions);
}
