// The folders tsm makes for itself (`.tsm/`, its sessions state, the session notes' folder) are made
// only inside a vault that exists. A hook or a detached session ingest can outlive the vault it started
// with (the user deleted or moved it meanwhile); a recursive mkdir would then bring the vault's folder
// back, with a `.tsm/` in it. Seen: the real-Claude-Code tests' detached SessionEnd ingests recreated
// their deleted vaults as `<vault>/.tsm/hook.log`. One rule for every writer: the root is never made.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { TsmError } from '../core/errors.js';
import { isInside } from './paths.js';

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
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') throw gone(root);
      throw err;
    }
  }
  if (parts.length === 0 && !existsSync(root)) throw gone(root);
}

function gone(root: string): FolderGoneError {
  return new FolderGoneError(`${root} does not exist (deleted or moved?): nothing was written there`);
}
