// The ignore rules in force in one folder of the vault, decided as ripgrep decides them: every .gitignore
// from the root down to the folder, then every .tsmignore from the root down (ripgrep's `.ignore`), as one
// list in which the last matching pattern wins.
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { NOT_REGULAR, readRegularFile } from './file-kind.js';

/** The rules files read in every folder, in the order their patterns apply (the later wins). */
export const RULES_FILES = ['.gitignore', '.tsmignore'] as const;

/**
 * One list, not one matcher per file: with a matcher per file that any file could make ignore a path, a
 * `!keep.md` in `sub/.gitignore` could not bring back `sub/keep.md` that the root's `sub/*.md` ignores, as
 * git does (a deeper .gitignore wins over a shallower one), nor a `.tsmignore` a note a .gitignore ignores.
 * Last match wins in the list is ripgrep's order (its `ignore` crate, dir.rs `matched_ignore`): within a
 * kind the deepest file that matches decides, and a `.ignore` match, at any depth, before a `.gitignore` one.
 */
export interface IgnoreRules {
  /** Patterns of the .gitignore files from the root down, each rewritten to apply below its own folder. */
  readonly git: readonly string[];
  /** Patterns of the .tsmignore files from the root down, rewritten so too: read last, so they win. */
  readonly tsm: readonly string[];
  readonly matcher: Ignore | null;
}

/** The rules above the vault root: none. */
export const NO_RULES: IgnoreRules = { git: [], tsm: [], matcher: null };

/**
 * The rules in folder `absDir`, vault-relative `relDir` ('' for the root), given its parent's: those plus
 * its own .gitignore and .tsmignore. A rules file that cannot be read is told to `unread` (see readRulesFile).
 * `entries`, the folder's listing when the caller has read it, spares opening a rules file that is not in
 * it: a scan of 1,641 folders took 52 ms opening both in each folder, 27 ms so. Compared ignoring case, as
 * opening by name does on a case-insensitive disk (macOS, Windows).
 */
export function folderRules(
  parent: IgnoreRules,
  absDir: string,
  relDir: string,
  entries?: readonly { name: string }[],
  unread?: (rel: string, reason: string) => void,
): IgnoreRules {
  const [gitignore, tsmignore] = RULES_FILES.map((name) => {
    if (entries && !entries.some((e) => e.name.length === name.length && e.name.toLowerCase() === name)) return null;
    const rel = relDir ? `${relDir}/${name}` : name;
    return readRulesFile(join(absDir, name), unread && ((reason) => unread(rel, reason)));
  });
  if (gitignore === null && tsmignore === null) return parent;
  const git = gitignore === null ? parent.git : [...parent.git, ...lines(gitignore).map((p) => rebase(p, relDir))];
  const tsm = tsmignore === null ? parent.tsm : [...parent.tsm, ...lines(tsmignore).map((p) => rebase(p, relDir))];
  return { git, tsm, matcher: build(git, tsm) };
}

/** Whether the vault-relative `rel` is ignored; its folders were checked on the way down (a walk enters no ignored folder). */
export function isIgnored(rules: IgnoreRules, rel: string, isDir: boolean): boolean {
  return rules.matcher !== null && rules.matcher.ignores(isDir ? `${rel}/` : rel);
}

/**
 * Which kind of rules file ignores `rel`, which isIgnored found ignored: the pattern that decides is the last
 * that matches, and every .tsmignore pattern comes after every .gitignore one, so when the .tsmignore
 * patterns alone ignore it, one of them decided; else a .gitignore one did. For `tsm doctor`'s fix, which
 * differs: a line to remove from .tsmignore, or a `!` line to add to it against a .gitignore.
 */
export function ignoringFile(rules: IgnoreRules, rel: string, isDir: boolean): (typeof RULES_FILES)[number] {
  let tsm = tsmOnly.get(rules);
  if (tsm === undefined) tsmOnly.set(rules, (tsm = ignore({ allowRelativePaths: true }).add([...rules.tsm])));
  return tsm.ignores(isDir ? `${rel}/` : rel) ? '.tsmignore' : '.gitignore';
}

/** The .tsmignore patterns of a folder's rules, as a matcher of their own (ignoringFile). */
const tsmOnly = new WeakMap<IgnoreRules, Ignore>();

/**
 * A rules file's text, or null when there is none. Opened as a note is (file-kind.ts): a FIFO named
 * `.gitignore` hung `tsm index` for good. One that is there but cannot be read (a pipe, no permission) is
 * told to `unread`, with the reason: its rules not applied may put notes meant to stay out in the index.
 * A folder named so is no rules file, for git either.
 */
function readRulesFile(path: string, unread?: (reason: string) => void): string | null {
  try {
    return readRegularFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTREGULAR') unread?.(NOT_REGULAR);
    else if (code === 'EACCES' || code === 'EPERM') unread?.('permission denied');
    else if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') unread?.(code ?? String(err));
    return null;
  }
}

function build(git: readonly string[], tsm: readonly string[]): Ignore {
  return ignore({ allowRelativePaths: true }).add([...git, ...tsm]);
}

/**
 * A file's pattern lines, in NFC as the paths they are matched against are (scan.ts): a pattern typed or
 * pasted in NFD (`プ` as macOS names files) matched no note. CR before LF is dropped, as git drops it.
 */
function lines(text: string): string[] {
  return text
    .normalize('NFC')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));
}

/**
 * The pattern `line` of the rules file in folder `dir`, as a pattern of the vault root. As in git, a pattern
 * with a slash at its start or in its middle is relative to its file's folder; one without may match at any
 * depth below it (a `**` folder is put before it). `!` stays in front; the folder's name is escaped (a folder named `#x` or `[a]`).
 */
function rebase(line: string, dir: string): string {
  if (dir === '') return line;
  const negated = line.startsWith('!');
  const body = negated ? line.slice(1) : line;
  // Trailing spaces (unless escaped) and a trailing slash do not make a pattern relative.
  const core = body.replace(/(?<!\\) +$/, '').replace(/\/$/, '');
  const anchored = core.includes('/');
  const prefix = dir.replace(/[\\*?[\]!# ]/g, '\\$&');
  return `${negated ? '!' : ''}${prefix}/${anchored ? body.replace(/^\//, '') : `**/${body}`}`;
}
