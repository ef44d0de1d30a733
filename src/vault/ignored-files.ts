// The notes and attachments a vault holds that its .gitignore and .tsmignore files leave out of the index, and
// which rule does: index/ignored-links.ts reads them to tell a link to such a file (which Obsidian resolves:
// the file is there) from a link to one that is nowhere. "create that note" and "add that file to the vault"
// were doctor's fixes for both.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { IgnoredFile } from '../core/types.js';
import { folderRules, ignoringFile, isIgnored, NO_RULES, type IgnoreRules } from './ignore-rules.js';
import { isNoteName, isSkippedFolder } from './paths.js';
import { isAttachmentName } from './scan.js';

/**
 * How to bring back into the index what one ignore rule leaves out (tsm doctor, a search whose path filter
 * names only such notes): a .tsmignore line is the user's to remove; a .gitignore one is git's too, so a `!`
 * line in .tsmignore, read after every .gitignore (ignore-rules.ts), takes the path back for tsm alone.
 */
export function indexIgnoredFix(f: Pick<IgnoredFile, 'by' | 'rule'>): string {
  return f.by === '.tsmignore'
    ? `remove the .tsmignore line that ignores it (or add !${f.rule} after it)`
    : `add the line !${f.rule} to the vault's .tsmignore (its lines come after .gitignore's)`;
}

/**
 * Folder entries read below ignored folders at most: an ignored folder may be a build's output or a copy of
 * anything (the handbook's and the Obsidian Hub's have none; a JavaScript project's `dist/` can hold 10⁵
 * files). Past it the walk stops, and links to notes further on read as links to nothing, as before.
 */
const MAX_IGNORED_ENTRIES = 100_000;

/**
 * The note files, and the files the scan would list as attachments (isAttachmentName: `pic.png`), that the
 * scan (scan.ts) leaves out by an ignore rule, each with that rule, sorted by path. The walk is the scan's:
 * the same folders never entered (dot-folders, which Obsidian hides too; node_modules/ and Logseq's copies,
 * never notes: paths.ts), the same rules, a folder reached twice (a symlink) walked once.
 */
export function ignoredFiles(vault: string, extensions: readonly string[]): IgnoredFile[] {
  const out: IgnoredFile[] = [];
  const visited = new Set<string>();
  let budget = MAX_IGNORED_ENTRIES;
  // `above`: the rule an ignored folder above gave, inherited by all below it (the scan enters no ignored folder).
  const walk = (absDir: string, relDir: string, rules: IgnoreRules, above: Omit<IgnoredFile, 'path'> | null): void => {
    let entries: Dirent[];
    try {
      const real = realpathSync(absDir);
      if (visited.has(real)) return;
      visited.add(real);
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch {
      return; // the scan's warning says why
    }
    if (above !== null && (budget -= entries.length) < 0) return;
    const here = above === null ? folderRules(rules, absDir, relDir, entries) : rules;
    for (const entry of entries) {
      const name = entry.name.normalize('NFC');
      const rel = relDir ? `${relDir}/${name}` : name;
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          isDir = statSync(join(absDir, entry.name)).isDirectory();
        } catch {
          continue;
        }
      }
      if (isDir) {
        if (isSkippedFolder(name, relDir.slice(relDir.lastIndexOf('/') + 1))) continue;
        const ignored = above ?? (isIgnored(here, rel, true) ? { by: ignoringFile(here, rel, true), rule: `${rel}/` } : null);
        walk(join(absDir, entry.name), rel, here, ignored);
      } else if (isNoteName(name, extensions) || isAttachmentName(name, extensions)) {
        const ignored = above ?? (isIgnored(here, rel, false) ? { by: ignoringFile(here, rel, false), rule: rel } : null);
        if (ignored !== null) out.push({ path: rel, ...ignored });
      }
    }
  };
  walk(vault, '', NO_RULES, null);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
