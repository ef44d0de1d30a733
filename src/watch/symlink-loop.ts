// chokidar follows symlinked folders without any guard: a link to a parent folder makes it walk
// `a/up/a/up/…` until the OS says ELOOP, watching thousands of copies. The scan follows each link
// once (src/vault/scan.ts); the watcher does the same by refusing a folder whose real path is already on its
// own chain of parent folders. Where a link leads now (linkTarget) tells the watcher a symlinked folder that was
// pointed elsewhere (fs-watcher.ts linkedFolders).
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** True when the folder `abs` (below `vault`) leads back into one of its own ancestors. */
export function createLoopTest(vault: string): (abs: string) => boolean {
  const realVault = realpathOrNull(vault) ?? vault;
  return (abs) => {
    const real = realpathOrNull(abs);
    if (real === null) return false; // gone, or a dangling link: nothing to walk into
    const rel = relative(vault, abs);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`)) return false;
    if (real === join(realVault, rel)) return false; // no symlink on the way: cannot loop
    for (let dir = dirname(abs); ; dir = dirname(dir)) {
      if (realpathOrNull(dir) === real) return true;
      if (dir === vault || dir.length <= vault.length || dirname(dir) === dir) return false;
    }
  };
}

/**
 * Where the symlink at `abs` leads now (its real path; null: nowhere, a dangling link or a loop), or undefined
 * when `abs` is no symlink (gone, or a real folder or file in its place).
 */
export function linkTarget(abs: string): string | null | undefined {
  try {
    if (!lstatSync(abs).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  return realpathOrNull(abs);
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

