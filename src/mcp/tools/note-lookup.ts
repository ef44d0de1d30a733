// A note named by a model: its exact vault path, the path without its note extension (`.md`), or — for a bare name without
// folders — a unique file name, title or alias (as `tsm related` accepts); also a wikilink copied from a note
// (`[[lora#Antenna|the antenna]]`). A path with folders never falls back to a same-named note in another folder.
// read_note and related take a note the same way, and say the same when none is indexed.
import type { NoteRecord } from '../../core/types.js';
import type { NoteReader } from '../../index/note-reader.js';
import { typedLinkTarget } from '../../parse/links.js';
import { fileKind } from '../../vault/file-kind.js';
import { ignoredFiles } from '../../vault/ignored-files.js';
import { createNoteLookup } from '../../vault/note-at.js';
import { findOnDisk, isNoteName, typedVaultPath } from '../../vault/paths.js';
import { ToolError } from '../errors.js';

export function findIndexedNote(reader: NoteReader, relPath: string, extensions: readonly string[]): NoteRecord | null {
  const exact = reader.noteByPath(relPath) ?? reader.noteByPathWithout(relPath, extensions);
  if (exact || relPath.includes('/')) return exact;
  return reader.findNote(relPath, extensions);
}

/** A note argument as given (`path`), read: vault-relative, and the target of a copied wikilink, if it is one. */
export interface NamedNote {
  given: string;
  rel: string;
  linked: string | null;
}

/** Reads a note argument; a folder (`knowledge/`, the vault itself) is refused at once. */
export function namedNote(vault: string, given: string): NamedNote {
  const rel = typedVaultPath(vault, given);
  if (rel === '' || rel.endsWith('/')) throw new ToolError(`path names a folder, not a note: ${given}`);
  const target = typedLinkTarget(given);
  return { given, rel, linked: target === null ? null : typedVaultPath(vault, target) };
}

/** The indexed note a note argument names, by its path or name, else by the wikilink it is; null when none. */
export function findNamedNote(reader: NoteReader, named: NamedNote, extensions: readonly string[]): NoteRecord | null {
  return findIndexedNote(reader, named.rel, extensions) ?? (named.linked === null ? null : findIndexedNote(reader, named.linked, extensions));
}

/**
 * Why no indexed note answers a note argument: a folder named without its slash (`knowledge`, as `ls` and tab
 * completion write it), a note file the scan leaves out (an ignore rule, named; a symlink out of the vault), or
 * not indexed. "not indexed … run `tsm index`" sent the caller to index a folder that was indexed, or a note
 * the index leaves out again.
 */
export function noNoteError(vault: string, named: NamedNote, extensions: string[]): ToolError {
  const { rel, given } = named;
  const onDisk = findOnDisk(vault, rel);
  if (onDisk !== null && fileKind(onDisk) === 'directory') return new ToolError(`path names a folder, not a note: ${given}`);
  const why = onDisk === null ? null : whyNoNote(vault, rel, extensions);
  if (why !== null) return new ToolError(`note not indexed: ${rel}: ${why}`);
  return new ToolError(`note not indexed: ${rel} (use a path from search results; run \`tsm index\` if the note is new)`);
}

/**
 * Why a note file that is there is no note of the index, by the scan's own rules (note-at.ts, the reasons
 * `--files-from-stdin` gives): the .tsmignore or .gitignore rule that ignores it, a symlink out of the vault.
 * Null when the scan would take it (not indexed yet) or it is no note by its name.
 */
function whyNoNote(vault: string, rel: string, extensions: string[]): string | null {
  if (!isNoteName(rel.slice(rel.lastIndexOf('/') + 1), extensions)) return null;
  const at = createNoteLookup(vault, extensions)(rel);
  if (at.file || at.reason === 'not found') return null;
  // The rule that leaves it out, as related names a link to it (`ignored by .tsmignore: private/`): the walk
  // of ignored files costs only this error.
  const ignored = at.reason.startsWith('ignored') ? ignoredFiles(vault, extensions).find((f) => f.path === rel) : undefined;
  return ignored ? `ignored by ${ignored.by}: ${ignored.rule}` : at.reason;
}
