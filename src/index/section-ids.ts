// Section row ids carry their note: id = note id × 2^20 + section order. A search can then tell which
// note a full-text match belongs to from the FTS rowid alone, with no join and no table read.

const SLOTS = 2 ** 20;

/** Sections one note can hold; a note with more has the rest folded into its last section (note-writer). */
export const MAX_SECTIONS_PER_NOTE = SLOTS;

export function sectionId(noteId: number, ord: number): number {
  return noteId * SLOTS + ord;
}

export function noteOfSection(id: number): number {
  return Math.floor(id / SLOTS);
}

export function ordOfSection(id: number): number {
  return id % SLOTS;
}

/** SQL for the note id of a section rowid expression (integer arithmetic, as sectionId). */
export function noteOfSectionSql(rowid: string): string {
  return `(${rowid} >> 20)`;
}
