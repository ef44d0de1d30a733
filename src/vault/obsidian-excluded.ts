// Obsidian's "Excluded files" (Settings → Files and links; `userIgnoreFilters` in `.obsidian/app.json`):
// files the user keeps out of Obsidian's Search, Graph view and unlinked mentions (a Templates folder, an
// archive, repository files such as README.md or CLAUDE.md). They stay in the vault: links to them resolve
// and their backlinks show. tsm does the same: it indexes them and leaves them out of every search
// (`tsm search`, the prompt hook, MCP), unless `"obsidianExcludedFiles": false` in `.tsm/config.json`.
// An entry is a path prefix (`Templates/`, `README.md`), or a regular expression between slashes
// (`/\.excalidraw\.md$/`), both read without regard to case, as Obsidian reads them.
// Obsidian's file is Obsidian's: one that cannot be read, or an entry that is no pattern, stops nothing and
// is only reported by `tsm doctor`.
import { isNotRegular, readUtf8RegularFile } from './file-kind.js';
import { join } from 'node:path';
import { TSM_DIR } from './config.js';

export const OBSIDIAN_APP_FILE = '.obsidian/app.json';

export interface ObsidianExcluded {
  /** The entries as Obsidian holds them: strings, in order. */
  filters: string[];
  /** What could not be read: the file, or an entry (tsm doctor). */
  problems: string[];
}

/**
 * What every search leaves out (the CLI, the prompt hook, MCP): the vault's Excluded files, read at each
 * search, so that a long-running `tsm serve` follows a change made in Obsidian; none when
 * `"obsidianExcludedFiles": false`. One small file read (~0.05 ms).
 */
export function searchExclusions(cfg: { vault: string; obsidianExcludedFiles: boolean }): string[] {
  return cfg.obsidianExcludedFiles ? readObsidianExcluded(cfg.vault).filters : [];
}

/** The Excluded files of the vault's `.obsidian/app.json`; none when it is absent. */
export function readObsidianExcluded(vault: string): ObsidianExcluded {
  let text: string;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked every search for good, the prompt hook past
    // its deadline (it read nothing and answered nothing until Claude Code's hook timeout).
    text = readUtf8RegularFile(join(vault, OBSIDIAN_APP_FILE));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = isNotRegular(err) ? (err as Error).message : (code ?? (err as Error).message);
    return { filters: [], problems: code === 'ENOENT' || code === 'ENOTDIR' ? [] : [`${OBSIDIAN_APP_FILE} cannot be read (${why})`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { filters: [], problems: [`${OBSIDIAN_APP_FILE} is not JSON: its Excluded files are not read`] };
  }
  const list = data !== null && typeof data === 'object' ? (data as Record<string, unknown>).userIgnoreFilters : undefined;
  if (list === undefined) return { filters: [], problems: [] };
  if (!Array.isArray(list)) return { filters: [], problems: [`${OBSIDIAN_APP_FILE}: userIgnoreFilters is not a list`] };
  const filters = list.filter((f): f is string => typeof f === 'string' && f !== '');
  const problems = filters.flatMap((f) =>
    compile(f) === null ? [`${OBSIDIAN_APP_FILE}: the Excluded files entry ${JSON.stringify(f)} is no regular expression tsm runs (invalid, or a repeated group that repeats: it may take exponential time); it excludes nothing from tsm's searches`] : [],
  );
  return { filters, problems };
}

/**
 * Whether a vault path (NFC, `/`-separated) is excluded by any of `filters`. The path starts are one
 * expression: a search tests every note's path, and tested one by one, the 1,000 entries an exclusion plugin
 * may write ("everything but this folder") cost 240 ms over the Obsidian Hub's 6,571 paths (6 ms as one).
 */
export function excludedBy(filters: readonly string[]): (path: string) => boolean {
  const starts = filters.filter((f) => !isPattern(f)).map((f) => pathStart(f.normalize('NFC')));
  const patterns = filters.filter(isPattern).map(compile);
  const tests = [...(starts.length ? [new RegExp(`^(?:${starts.join('|')})`, 'i')] : []), ...patterns].filter((t): t is RegExp => t !== null);
  return (path) => tests.some((t) => t.test(path));
}

/**
 * The first of `filters` that excludes a vault path, as excludedBy tests them; null when none does. Entry
 * by entry: for a note that says which (a search that found nothing under an excluded folder), not for a
 * search's every candidate.
 */
export function excludingEntry(filters: readonly string[], path: string): string | null {
  return filters.find((f) => compile(f)?.test(path)) ?? null;
}

/** How to have searches find the notes the Excluded files name (tsm doctor; a search left empty by them). */
export function searchExcludedFix(vault: string): string {
  return `set "obsidianExcludedFiles": false in ${join(vault, TSM_DIR, 'config.json')}`;
}

/** An entry between slashes, which Obsidian reads as a regular expression; any other is the start of a path. */
function isPattern(filter: string): boolean {
  return filter.length > 1 && filter.startsWith('/') && filter.endsWith('/');
}

/** A path start as the source of an expression that matches it literally. */
function pathStart(f: string): string {
  return f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An entry as Obsidian reads it: `/…/` a regular expression, else the start of a path; both case-blind. */
function compile(filter: string): RegExp | null {
  const f = filter.normalize('NFC');
  if (isPattern(f)) {
    const source = f.slice(1, -1);
    if (nestedRepetition(source)) return null;
    try {
      return new RegExp(source, 'i');
    } catch {
      return null;
    }
  }
  return new RegExp(`^${pathStart(f)}`, 'i');
}

/**
 * A repeated group that itself repeats or branches (`(a+)+`, `(\w*)*`, `(a|ab)*`): JavaScript's engine may
 * take exponential time on such a pattern, and a search (the prompt hook among them) runs it on every
 * candidate's path with no way to stop it midway. An `.obsidian/app.json` comes with a vault someone
 * shares; Obsidian's own uses of a pattern are not on a prompt's path. Such an entry excludes nothing.
 */
function nestedRepetition(source: string): boolean {
  const open: boolean[] = []; // per open group: whether it holds a repetition or a branch
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') open.push(false);
    else if (c === '|' && open.length > 0) open[open.length - 1] = true;
    else if (c === '*' || c === '+' || (c === '{' && /^\{\d*,/.test(source.slice(i)))) {
      if (open.length > 0) open[open.length - 1] = true;
    } else if (c === ')') {
      const risky = open.pop() ?? false;
      const next = source.slice(i + 1);
      if (risky && /^(?:[*+]|\{\d*,)/.test(next)) return true;
      if (risky && open.length > 0) open[open.length - 1] = true;
    }
  }
  return false;
}
