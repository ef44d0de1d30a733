// Section row ids carry their note: id = note id × 2^20 + slot. A search can then tell which note a
// full-text match belongs to from the FTS rowid alone, with no join and no table read. A note's sections
// take consecutive slots from its base: 0 when first written, past its old ones when rewritten
// (note-writer.ts nextSectionBase), so an id handed out before names nothing after; within a note, slots
// keep the sections' order, which is all ranking reads of them.

const SLOTS = 2 ** 20;

/** Sections one note can hold; a note with more has the rest folded into its last section (note-writer). */
export const MAX_SECTIONS_PER_NOTE = SLOTS;

export function sectionId(noteId: number, ord: number): number {
  return noteId * SLOTS + ord;
}

export function noteOfSection(id: number): number {
  return Math.floor(id / SLOTS);
}

/** The section's slot in its note: its order plus the note's base (compare within a note only). */
export function ordOfSection(id: number): number {
  return id % SLOTS;
}

/** SQL for the note id of a section rowid expression (integer arithmetic, as sectionId). */
export function noteOfSectionSql(rowid: string): string {
  return `(${rowid} >> 20)`;
}
