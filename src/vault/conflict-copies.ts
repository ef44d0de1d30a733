// A sync tool that cannot merge two edits of a note keeps both: the other one as a copy beside it, named by
// the tool's own pattern. The user has to merge it and delete it, and must first notice it: tsm doctor lists
// them (it never touches them). Only the names these tools write are read, so that a note of the user's is
// never called a copy; the two loosest ones (`note (1).md`, `note-DESKTOP-AB12CD.md`) only beside the note
// they copy. iCloud's `note 2.md` is left out: beside `Part.md`, `Part 2.md` is as likely a note of its own.
import { posix } from 'node:path';

/** Patterns that say "a copy of a conflict" by themselves; group 1 is the original's name, group 2 its extension. */
const CONFLICT_NAMES: RegExp[] = [
  // Dropbox `note (conflicted copy 2026-11-28).md`, `note (Jane's conflicted copy 2026-11-28).md`; Obsidian Sync's
  // "Create conflict file" writes `note (Conflicted copy MacBook 202611281010).md`.
  /^(.+) \((?:[^()]*'s )?conflicted copy[^()]*\)(\.[^.]+)$/i,
  // Dropbox, a file it could not place: `note (Selective Sync Conflict).md`, `Note (Case Conflict).md`.
  /^(.+) \((?:Selective Sync|Case) Conflict(?: \d+)?\)(\.[^.]+)$/,
  // Syncthing `note.sync-conflict-20261128-101010-ABCDEFG.md` (the last part names the device); Obsidian
  // Sync's help documents the same form without it.
  /^(.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?(\.[^.]+)$/,
];

/** Patterns that say "a copy" only when the note they name is there too. */
const COPY_NAMES_BESIDE: RegExp[] = [
  // Google Drive (and a browser's second download) `note (1).md`.
  /^(.+) \(\d+\)(\.[^.]+)$/,
  // OneDrive appends the computer's name; only the names Windows gives (DESKTOP-…, LAPTOP-…: a computer's name
  // has at most 15 characters) are known to be one.
  /^(.+)-(?:DESKTOP|LAPTOP)-[A-Z0-9]{4,8}(\.[^.]+)$/,
];

/**
 * The note `path` (vault-relative, `/`-separated) is a sync tool's conflicted copy of: its path, whether or
 * not it exists; null when the name is no such copy. `isNote` says whether a path is a note of the vault.
 */
export function conflictCopyOf(path: string, isNote: (path: string) => boolean): string | null {
  const dir = posix.dirname(path);
  const at = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  const name = posix.basename(path);
  for (const re of CONFLICT_NAMES) {
    const m = re.exec(name);
    if (m) return at(m[1] + m[2]);
  }
  for (const re of COPY_NAMES_BESIDE) {
    const m = re.exec(name);
    if (m && isNote(at(m[1] + m[2]))) return at(m[1] + m[2]);
  }
  return null;
}
