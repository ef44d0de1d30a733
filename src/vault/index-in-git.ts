// Whether git takes the index into commits: a vault kept in git whose `.tsm/` a tsm made before it wrote
// `.tsm/.gitignore` with it (src/vault/folders.ts), or that was committed already. `git add -A` (Obsidian
// Git's auto-commit) then commits the index, its -wal and watch.pid at every change.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { gitWorkTreeRoot, isInside } from './paths.js';

export type IndexInGit = { state: 'untracked' | 'tracked'; root: string } | null;

/** git's word on the index file `db`: not ignored (git would add it) or tracked already; null when it is neither, or git cannot say. */
export function indexInGit(vault: string, db: string): IndexInGit {
  const root = gitWorkTreeRoot(vault);
  if (root === null || !isInside(root, db)) return null;
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dirname(db), stdio: 'ignore', timeout: 5000 });
  // 0: ignored, 1: not ignored (a tracked file is never "ignored"), 128 or no git: cannot tell.
  const ignored = git('check-ignore', '-q', '--', db);
  if (ignored.error || ignored.status !== 1) return null;
  const tracked = git('ls-files', '--error-unmatch', '--', db);
  return { state: !tracked.error && tracked.status === 0 ? 'tracked' : 'untracked', root };
}
