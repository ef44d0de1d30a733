// When a word that looks like an operator of the query language is text. People paste real text into
// `tsm search` and agents pass a user's prompt to MCP `search`: shell commands (`pio run -e collar`, `rm -rf build`),
// config (`type:module`), logs (`status:404`), Windows paths (`path:C:\Users\…`). Read as operators, these
// dropped the very notes asked for, or failed the search. As `13月` stays text for temporal expressions,
// an operator whose value cannot be meant stays text; when it could be meant, it applies, and the reader
// is told (`notices`) whenever a word was read as text that looked like an operator.
import { sep } from 'node:path';
import { isExplained } from '../core/errors.js';
import { NOTE_TYPES } from '../core/types.js';
import { cjkRuns, hasCjk, keyForm, searchText, stripCjk } from '../text/normalize.js';
import { letterOrNumberRuns } from '../text/unicode.js';
import { typedVaultPath } from '../vault/paths.js';
import { isLoneLetter } from './query-terms.js';

/**
 * Most characters of plain words (the words besides operators) in a query read in the query language;
 * with more, the query is pasted text and all of it is plain text. Counted over the plain words, not the
 * whole query, so that a long query of operators (an agent's `"a b" OR "c d" OR …`, twenty phrases) still
 * applies. Query-language queries are keywords plus operators: the judged keyword queries have at most 28
 * characters. A pasted prompt is prose: the judged prompts' median is 101 characters (no operator in any
 * of them), a pasted prompt or log runs to kilobytes, and there every quote, `-word` or `type:` is
 * incidental (an 18 KB prompt found nothing). 200 (some 30 English words) keeps a typed question with an
 * operator whole and reads a paragraph as text; a long query is still filtered by the flags (`--tag`) or
 * the tool's parameters.
 */
export const LONG_TEXT_CHARS = 200;

export function longTextNotice(chars: number): string {
  return plainTextNotice(`${chars} characters of words besides operators`, LONG_TEXT_CHARS);
}

/** Why a query was read as plain text (`its N <what>`, past `limit`), and how to filter it: one wording for each cause. */
function plainTextNotice(what: string, limit: number): string {
  return `the query was read as plain text: its ${what} make it a pasted text (the query language — quotes, -word, OR, tag:, path:, type:, status:, word* — applies up to ${limit}); filter a long query with the tag, path, type and status options`;
}

/**
 * Most phrases and OR groups a query may require. A note must hold each, and the index asks that by one
 * subquery a group, all AND-ed in one SQL statement: 1,000 quoted phrases passed SQLite's expression depth
 * (1,000) and failed the search. A query of more is pasted text (quoted strings of a log or of JSON), read
 * as plain text as a long one is; a deliberate query holds a few (the "twenty phrases" above).
 */
export const MAX_REQUIRED_GROUPS = 64;

export function manyGroupsNotice(groups: number): string {
  return plainTextNotice(`${groups} phrases and OR groups`, MAX_REQUIRED_GROUPS);
}

/**
 * Whether `-text` excludes nothing one could mean: a word of one letter (`-e`, `-t`: flags of a pasted
 * command) is never searched (query-terms.ts), and punctuation (`-.`) is no word at all. Such a `-x` is text.
 */
export function isFlagLike(text: string): boolean {
  const norm = searchText(text);
  if (hasCjk(norm) && cjkRuns(norm).length > 0) return false;
  return letterOrNumberRuns(stripCjk(norm)).every(isLoneLetter);
}

/**
 * Shell commands a query pastes with their flags (`rm -rf build`, `ls -la`, `git commit -am`): names that are
 * seldom everyday English words before a `-word` (`apt` and `zip` are words, but `an apt -old` is no query
 * anyone writes), so that `find notes -old` or `make tea -sugar` keep their exclusions.
 */
const SHELL_COMMANDS = new Set(
  'apt awk brew cargo chmod chown cp curl docker du df gcc git grep kubectl ln ls mkdir mv npm npx pio pip pip3 pnpm ps python python3 rg rm rmdir rsync scp sed ssh sudo tar tsm unzip wget xargs yarn zip'.split(' '),
);

/** A group of one-letter flags, as a command takes them (`-rf`, `-la`, `-xzvf`, `-fsSL`). */
const FLAG_GROUP = /^-[A-Za-z]{2,4}$/;

/**
 * Reads a query's pieces, in order, for the flags of a pasted shell command: a `-group` right after a
 * command of SHELL_COMMANDS (`rm -rf`), after its subcommand (`git commit -am`, `docker run -it`) or after
 * another of its flags (`ls -l -a`). `rm -rf build` excluded every note holding `rf` (the very note with
 * that command, and every RF note); Obsidian and web search read `-word` as an exclusion, and that holds
 * everywhere else. Returns, for each piece that is such a flag, its command (else null).
 */
export function commandFlags(pieces: readonly string[]): (string | null)[] {
  let command: string | null = null;
  // Whether a subcommand may come next (only right after the command itself).
  let sub = false;
  return pieces.map((p) => {
    const dashed = command !== null && p.startsWith('-') && (FLAG_GROUP.test(p) || p.startsWith('--') || isFlagLike(p.slice(1)));
    const of = dashed && FLAG_GROUP.test(p) ? command : null;
    if (SHELL_COMMANDS.has(p)) [command, sub] = [p, true];
    else if (dashed) sub = false;
    else if (sub && /^[a-z][a-z0-9-]*$/.test(p)) sub = false;
    else command = null;
    return of;
  });
}

export function commandFlagNotice(flag: string, command: string): string {
  return `${flag} after ${command} is read as the command's flag, not an exclusion: searched as words (to leave out notes holding ${flag.slice(1)}, put ${flag} before the command)`;
}

export type FilterValue = { value: string } | { notice: string };

/**
 * A `key:value` found in the query: the value to filter by, or why it is text. `type:` takes note types
 * only (`type:module` in "package.json type:module" is text, not an error); `path:` takes a folder of the
 * vault, so an absolute path outside it, a Windows drive path or one leading out of the vault is text.
 * Without `vault`, `path:` values are kept as typed (the caller confines them).
 */
export function filterValue(key: string, value: string, vault?: string): FilterValue {
  const asText = (why: string): FilterValue => ({ notice: `${key}:${value} ${why}: searched as words` });
  if (key === 'type') {
    // A list as the --type flag takes it (buildFilters): `type:daily,knowledge`.
    const types = value
      .split(',')
      .map(keyForm)
      .filter(Boolean);
    return types.length > 0 && types.every((t) => (NOTE_TYPES as readonly string[]).includes(t)) ? { value } : asText(`is not a note type (${NOTE_TYPES.join(', ')})`);
  }
  if (key !== 'path') return { value };
  const outside = asText('is not a folder of the vault (give one relative to the vault root, like knowledge/)');
  // A drive or network path names no folder of a vault on Linux or macOS; on Windows the vault check below reads it.
  if (sep === '/' && /^([A-Za-z]:|\\\\)/.test(value)) return outside;
  if (vault === undefined) return { value };
  try {
    return { value: typedVaultPath(vault, value, 'path:') };
  } catch (err) {
    if (isExplained(err)) return outside;
    throw err;
  }
}
