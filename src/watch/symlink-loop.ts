// chokidar follows symlinked folders without any guard: a link to a parent folder makes it walk
// `a/up/a/up/…` until the OS says ELOOP, watching thousands of copies. The scan follows each link
// once (src/vault/scan.ts); the watcher does the same by refusing a folder whose real path is already on its
// own chain of parent folders.
import { realpathSync } from 'node:fs';
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

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

