// The ignore rules in force in one folder of the vault, decided as git decides them: every .gitignore from
// the root down to the folder, then the root .tsmignore, as one list in which the last matching pattern wins.
import ignore, { type Ignore } from 'ignore';
import { NOT_REGULAR, readRegularFile } from './file-kind.js';

/**
 * One list, not one matcher per file: with a matcher per file that any file could make ignore a path, a
 * `!keep.md` in `sub/.gitignore` could not bring back `sub/keep.md` that the root's `sub/*.md` ignores, as
 * git does (a deeper .gitignore wins over a shallower one), nor a `.tsmignore` a note a .gitignore ignores.
 */
export interface IgnoreRules {
  /** Patterns of the .gitignore files from the root down, each rewritten to apply below its own folder. */
  readonly git: readonly string[];
  /** The root .tsmignore's patterns: read last, so they win, as ripgrep's `.ignore` wins over `.gitignore`. */
  readonly tsm: readonly string[];
  readonly matcher: Ignore | null;
}

/** The rules at the vault root: its .tsmignore (`vault/.tsmignore` read by the caller), no .gitignore yet. */
export function rootRules(tsmignore: string | null): IgnoreRules {
  const tsm = tsmignore === null ? [] : lines(tsmignore);
  return { git: [], tsm, matcher: tsm.length ? build([], tsm) : null };
}

/** The rules in folder `relDir` ('' for the root), given its parent's and its own .gitignore (null: none). */
export function withGitignore(parent: IgnoreRules, relDir: string, gitignore: string | null): IgnoreRules {
  if (gitignore === null) return parent;
  const git = [...parent.git, ...lines(gitignore).map((p) => rebase(p, relDir))];
  return { git, tsm: parent.tsm, matcher: build(git, parent.tsm) };
}

/** Whether the vault-relative `rel` is ignored; its folders were checked on the way down (a walk enters no ignored folder). */
export function isIgnored(rules: IgnoreRules, rel: string, isDir: boolean): boolean {
  return rules.matcher !== null && rules.matcher.ignores(isDir ? `${rel}/` : rel);
}

/**
 * A rules file's text, or null when there is none. Opened as a note is (file-kind.ts): a FIFO named
 * `.gitignore` hung `tsm index` for good. One that is there but cannot be read (a pipe, no permission) is
 * told to `unread`, with the reason: its rules not applied may put notes meant to stay out in the index.
 * A folder named so is no rules file, for git either.
 */
export function readRulesFile(path: string, unread?: (reason: string) => void): string | null {
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
 * The pattern `line` of the .gitignore in folder `dir`, as a pattern of the vault root. As in git, a pattern
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
