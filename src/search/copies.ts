// Copies of one passage in several notes — a sync's conflicted copy (`note (conflicted copy 2026-11-28).md`,
// Syncthing's `note.sync-conflict-….md`), a note copied into an archive folder — are one result, not several.
// Each copy matched as well as the original, so three of them took three of the prompt hook's five places
// with the same text. A hit whose section has the heading path and the text of a hit ranked above it is left
// out, and its note listed on that hit (`copies`). The heading path includes the note's title, so two notes
// that share a boilerplate paragraph under their own titles both stay.
import type { HitDetails } from '../index/section-search.js';

export interface WithoutCopies<T> {
  /** The page in its order, each passage once. */
  kept: T[];
  /** Kept section id → the paths of the notes whose copy of it was left out, in rank order. */
  copies: Map<number, string[]>;
}

/** `page` (sections in rank order, each with its details) with each copy after the first left out. */
export function withoutCopies<T extends { id: number }>(page: T[], details: Map<number, HitDetails>): WithoutCopies<T> {
  const first = new Map<string, number>();
  const kept: T[] = [];
  const copies = new Map<number, string[]>();
  for (const p of page) {
    const d = details.get(p.id);
    // A section without text (a daily note's date heading) says nothing to compare.
    const key = d && d.text.trim() !== '' ? `${d.headingPath}\u0000${d.text}` : null;
    const original = key === null ? undefined : first.get(key);
    if (original === undefined || d === undefined) {
      if (key !== null) first.set(key, p.id);
      kept.push(p);
      continue;
    }
    const list = copies.get(original) ?? [];
    list.push(d.path);
    copies.set(original, list);
  }
  return { kept, copies };
}
