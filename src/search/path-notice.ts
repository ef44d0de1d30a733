// Why a path filter (`--path private/`, `path:private/`, MCP's `path`) found nothing when the notes under it
// are there but left out: by the vault's .gitignore or .tsmignore (never indexed), or by Obsidian's Excluded
// files (indexed, searched by nothing). `tsm search --path private/` on a folder .gitignore names printed
// "0 results" and no reason, where ripgrep users expect to be told; `tsm doctor` and `related` already said it.
// Asked only of a search that found nothing, and the vault is walked only when no indexed note is under the
// path: an ordinary search costs nothing more. `tsm search` imports this module only when a path filter is
// given (a dist/lazy/ entry, scripts/build.mjs): the walk's ignore rules (the `ignore` package, 39 KB) stay out
// of the fast path's bundle.
import { NoteReader } from '../index/note-reader.js';
import type { Database } from '../index/db.js';
import type { IgnoredFile } from '../core/types.js';
import { ignoredFiles, indexIgnoredFix } from '../vault/ignored-files.js';
import { excludedBy, excludingEntry, OBSIDIAN_APP_FILE, searchExcludedFix } from '../vault/obsidian-excluded.js';
import { isNoteName, isSkippedFolder } from '../vault/paths.js';
import { count } from '../text/count.js';
import type { PathNotice } from './query-notices.js';

/** The vault a search reads, for its ignored files (ignored-files.ts). */
export interface VaultFiles {
  root: string;
  extensions: readonly string[];
}

/**
 * Notes read under one path to tell whether Obsidian's Excluded files name them all: a folder of that many
 * notes all excluded is past what a reader lists; a wrong "all" past it costs only a notice.
 */
const MAX_NOTES_READ = 10_000;
/** Rules or entries named in one notice; more are counted. */
const MAX_NAMED = 3;

/** searchWithNotices's PathNotice for a vault: pathsLeftOut with its files. */
export function pathNoticeFor(vault: VaultFiles): PathNotice {
  return (db, prefixes, excluded) => pathsLeftOut(db, prefixes, vault, excluded);
}

/** One notice for each path filter under which every note is left out; none for a path that holds a searchable note or none at all. */
export function pathsLeftOut(db: Database, prefixes: readonly string[], vault: VaultFiles | undefined, excluded: readonly string[]): string[] {
  const reader = new NoteReader(db);
  let ignored: IgnoredFile[] | undefined;
  const out: string[] = [];
  for (const prefix of new Set(prefixes)) {
    const under = reader.notePathsUnder(prefix, excluded.length ? MAX_NOTES_READ : 1);
    if (under.length > 0) {
      if (excluded.length && under.every(excludedBy(excluded))) out.push(excludedNotice(prefix, under, excluded, vault));
      continue;
    }
    const skipped = skippedFolderOf(prefix);
    if (skipped !== null) {
      out.push(`no indexed note's path starts with ${JSON.stringify(prefix)}: tsm never enters ${skipped} (${SKIPPED_WHY})`);
      continue;
    }
    if (!vault) continue;
    ignored ??= ignoredFiles(vault.root, vault.extensions).filter((f) => isNoteName(f.path, vault.extensions));
    const here = ignored.filter((f) => f.path.startsWith(prefix));
    if (here.length > 0) out.push(ignoredNotice(prefix, here));
  }
  return out;
}

const SKIPPED_WHY = "dot-folders are hidden, as Obsidian hides them; node_modules/, .trash/ and Logseq's copies hold no notes";

/** The first folder of a path filter that tsm never enters (vault/paths.ts isSkippedFolder), as `.obsidian/`; else null. */
function skippedFolderOf(prefix: string): string | null {
  const folders = prefix.split('/');
  // The last piece may be a name's start (`--path .git` as well as `.git/`): a folder only when followed by `/`,
  // or when it is a folder name tsm never enters whole.
  const i = folders.findIndex((name, k) => name !== '' && isSkippedFolder(name, folders[k - 1]) && (k < folders.length - 1 || name.startsWith('.') || name === 'node_modules'));
  return i < 0 ? null : `${folders.slice(0, i + 1).join('/')}/`;
}

/** `no indexed note's path starts with "private/": .gitignore leaves private/ out of the index (2 notes); to index it, …`. */
function ignoredNotice(prefix: string, files: IgnoredFile[]): string {
  const rules = new Map<string, { by: IgnoredFile['by']; rule: string; notes: number }>();
  for (const f of files) {
    const key = `${f.by}\n${f.rule}`;
    const r = rules.get(key) ?? { by: f.by, rule: f.rule, notes: 0 };
    r.notes++;
    rules.set(key, r);
  }
  const named = [...rules.values()].slice(0, MAX_NAMED).map((r) => `${r.by} leaves ${r.rule} out of the index (${count(r.notes, 'note')}); to index it, ${indexIgnoredFix(r)}`);
  const more = rules.size > MAX_NAMED ? `; and ${count(rules.size - MAX_NAMED, 'rule')} more (tsm doctor lists links to them)` : '';
  return `no indexed note's path starts with ${JSON.stringify(prefix)}: ${named.join('; ')}${more}`;
}

/** `every note whose path starts with "tpl/" (2) is left out of searches by Obsidian's Excluded files (…)`. */
function excludedNotice(prefix: string, paths: string[], excluded: readonly string[], vault: VaultFiles | undefined): string {
  const entries = [...new Set(paths.map((p) => excludingEntry(excluded, p)).filter((e): e is string => e !== null))];
  const shown = entries.slice(0, MAX_NAMED).map((e) => JSON.stringify(e)).join(', ') + (entries.length > MAX_NAMED ? ` and ${entries.length - MAX_NAMED} more` : '');
  const how = vault ? `, or ${searchExcludedFix(vault.root)}` : '';
  return `every note whose path starts with ${JSON.stringify(prefix)} (${paths.length === MAX_NOTES_READ ? `${MAX_NOTES_READ}+` : paths.length}) is left out of searches by Obsidian's Excluded files (${OBSIDIAN_APP_FILE}: ${shown}); to search them, remove ${entries.length === 1 ? 'that entry' : 'those entries'} in Obsidian (Settings → Files and links → Excluded files)${how}`;
}
