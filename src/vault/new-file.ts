// A file tsm makes once and never replaces (`.tsm/config.json`, `.tsm/.gitignore`), written whole or not at all.
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Creates `path` holding `content` unless a file is there (then returns false and leaves it). Written to a
 * temp file beside it, then renamed: writeFileSync(path, …, { flag: 'wx' }) made the file before writing it,
 * and a full disk left it empty, for good: an empty config.json that every command refused (`not valid
 * JSON`), and that `tsm init` run again took for one already set up. (Rename, not link: a vault on exFAT has
 * no hard links. No node:crypto for the name: folders.ts is in the lean fast path. Two tsm making the same file at once both write the same text.)
 */
export function createFileWhole(path: string, content: string): boolean {
  if (present(path)) return false;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    writeFileSync(temp, content, { flag: 'wx' });
    if (present(path)) return false;
    renameSync(temp, path);
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Whether anything is at `path`, a link to nothing included: existsSync follows a link, so a `config.json`
 * linked to a dotfiles repository not cloned yet counted as absent, and the rename put a new file in the
 * link's place.
 */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Any other error (a folder it may not read: EACCES) is the caller's to report, not a file that is there.
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}
