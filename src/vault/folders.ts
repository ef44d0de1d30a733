// The folders tsm makes for itself (`.tsm/`, its sessions state, the session notes' folder) are made
// only inside a vault that exists. A hook or a detached session ingest can outlive the vault it started
// with (the user deleted or moved it meanwhile); a recursive mkdir would then bring the vault's folder
// back, with a `.tsm/` in it. Seen: the real-Claude-Code tests' detached SessionEnd ingests recreated
// their deleted vaults as `<vault>/.tsm/hook.log`. One rule for every writer: the root is never made.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { TsmError } from '../core/errors.js';
import { TSM_DIR } from './config.js';
import { fileKind } from './file-kind.js';
import { createFileWhole } from './new-file.js';
import { isInside } from './paths.js';

/**
 * `.tsm/.gitignore`: the index, its -wal, watch.pid and the logs are derived from the notes or belong to
 * this machine; only the config is worth committing. Written whenever tsm makes `.tsm/` (and by `tsm init`
 * into one that lacks it): made by the first `tsm index` or `tsm search --vault` without it, `.tsm/` was
 * untracked in a vault kept in git, and `git add -A` (Obsidian Git's auto-commit) committed the index
 * (36 MB on the Obsidian Hub's 6,571 notes), its -wal and watch.pid.
 */
export const TSM_GITIGNORE = '*\n!.gitignore\n!config.json\n';

export class FolderGoneError extends TsmError {
  override name = 'FolderGoneError';
}

/**
 * Makes `dir` and the folders between it and `vault`, one at a time, never `vault` itself: when the vault is
 * gone, nothing is made and a FolderGoneError says so. A folder outside the vault (a `sessionsDir` set
 * elsewhere) is made only when its parent exists.
 */
export function makeVaultFolder(vault: string, dir: string): void {
  const root = isInside(vault, dir) ? vault : dirname(dir);
  const parts = relative(root, dir).split(sep).filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    try {
      mkdirSync(at);
      if (root === vault && at === join(vault, TSM_DIR)) writeTsmGitignore(at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A file of the folder's name: writing into it failed later as a bare `ENOTDIR: not a directory, open '….tmp'`.
      if (code === 'EEXIST') {
        if (fileKind(at) === 'directory') continue;
        throw notAFolder(at);
      }
      if (code === 'ENOENT') throw gone(root);
      throw err;
    }
  }
  if (parts.length === 0 && !existsSync(root)) throw gone(root);
}

/** A file (or a link to nothing) where tsm's folder goes: said alike by the writer that would make it and a reader that looks in it. */
export function notAFolder(at: string): TsmError {
  return new TsmError(`${at} is not a folder, and tsm writes its files into a folder of that name: move it aside (tsm then makes the folder)`);
}

/** What a process that outlives its vault (`tsm serve`, the folder deleted or moved since it started) says of it. */
export function vaultGoneMessage(vault: string): string {
  return `the vault folder ${vault} is gone (deleted or moved?); give tsm the vault's new path (--vault) and start it again`;
}

function gone(root: string): FolderGoneError {
  return new FolderGoneError(`${root} does not exist (deleted or moved?): nothing was written there`);
}

/** Writes `.tsm/.gitignore` into a `.tsm/` just made. Not a reason to stop the command: the index matters more. */
function writeTsmGitignore(dir: string): void {
  try {
    createFileWhole(join(dir, '.gitignore'), TSM_GITIGNORE);
  } catch {
    // Already there (a race with another tsm), or unwritable: `tsm doctor` names a .tsm/ git would commit.
  }
}
