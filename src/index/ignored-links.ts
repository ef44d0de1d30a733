// Links to notes and attachments the vault's .gitignore or .tsmignore leaves out of the index: the file is
// there (Obsidian resolves the link), so such a link is neither broken nor a link to nothing. One rule for
// every surface that shows unresolved links — doctor, status, `tsm related`, MCP `related` — beside
// resolve-link.ts, whose resolution it applies to those files (it lived in cli/, where MCP could not use it:
// related said `[unresolved]` for them).
import type { IgnoredFile, LinkRecord } from '../core/types.js';
import { isNoteName } from '../vault/paths.js';
import { ignoredFiles } from '../vault/ignored-files.js';
import { basenameKey, pageKeyOfPath, resolveAttachment, resolveLink, targetKey, type NoteLookup } from './resolve-link.js';

/**
 * Fills in `ignored` of the links that name no note, attachment nor skipped file, and gives `links` back.
 * The vault is walked for its ignored files (vault/ignored-files.ts) only when such a link is there: a note
 * whose links all resolve costs nothing more.
 */
export function withIgnored(links: LinkRecord[], vault: string, extensions: readonly string[]): LinkRecord[] {
  const open = links.filter((l) => l.targetPath === null && l.attachmentPath === null && l.skipped === null);
  if (open.length === 0) return links;
  const files = ignoredFiles(vault, extensions);
  if (files.length === 0) return links;
  const note = ignoredIn(files.filter((f) => isNoteName(f.path, extensions)), extensions);
  const attachment = ignoredAttachmentIn(files.filter((f) => !isNoteName(f.path, extensions)), extensions);
  for (const l of open) l.ignored = note(l) ?? attachment(l);
  return links;
}

/**
 * The ignored note a link would name, were those notes indexed: link resolution (resolve-link.ts) over them
 * alone, by path and by file name (their aliases are unknown: the notes are not read). Null when none.
 */
function ignoredIn(notes: IgnoredFile[], extensions: readonly string[]): (l: LinkRecord) => IgnoredFile | null {
  if (notes.length === 0) return () => null;
  const byPath = new Map(notes.map((n) => [n.path, n]));
  const lower = new Map(notes.map((n) => [n.path.toLowerCase(), n.path]));
  const byBase = pathsBy(notes, (p) => basenameKey(p, extensions));
  const byPage = pathsBy(notes, (p) => pageKeyOfPath(p, extensions));
  const lookup: NoteLookup = {
    hasPath: (p) => byPath.has(p),
    byLowerPath: (p) => lower.get(p),
    byBasename: (k) => byBase.get(k) ?? [],
    byPageName: (k) => byPage.get(k) ?? [],
    byAlias: () => [],
    extensions,
  };
  return (l) => {
    const path = resolveLink(l.kind, l.target, l.sourcePath, lookup);
    return path === null ? null : (byPath.get(path) ?? null);
  };
}

/**
 * The ignored attachment a link would name (`![[drafts/pic.png]]`), were it listed: among the files of the
 * link's key, the one resolveAttachment picks, as the index picks a listed attachment (note-reader.ts).
 */
function ignoredAttachmentIn(files: IgnoredFile[], extensions: readonly string[]): (l: LinkRecord) => IgnoredFile | null {
  if (files.length === 0) return () => null;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const byKey = pathsBy(files, (p) => targetKey(p, extensions));
  return (l) => {
    const path = resolveAttachment(l.kind, l.target, l.sourcePath, byKey.get(targetKey(l.target, extensions)) ?? []);
    return path === null ? null : (byPath.get(path) ?? null);
  };
}

/** The files' paths by a key of their path (none: left out). */
function pathsBy(files: IgnoredFile[], key: (path: string) => string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const f of files) {
    const k = key(f.path);
    if (k === null) continue;
    const list = map.get(k);
    if (list) list.push(f.path);
    else map.set(k, [f.path]);
  }
  return map;
}
