// A vault kept in git: the index tsm makes stays out of commits (.tsm/.gitignore is written whenever tsm
// makes .tsm/, src/vault/folders.ts), and `tsm doctor` names an index git would commit, or has, with a
// fix that works as written (src/vault/index-in-git.ts). Before, the first `tsm index` left .tsm/
// untracked and `git add -A` committed index.db, its -wal and watch.pid.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const hasGit = spawnSync('git', ['--version']).status === 0;

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function gitVault(): { dir: string; cleanup: () => void } {
  const v = makeVault({ 'a.md': '# A\n\nalpha\n', 'b.md': '# B\n\n[[a]]\n' });
  git(v.dir, 'init', '-q');
  git(v.dir, 'add', '-A');
  git(v.dir, 'commit', '-qm', 'notes');
  return v;
}

const gitProblems = (dir: string) =>
  (JSON.parse(tsm(['doctor', '--json', '--vault', dir]).stdout).problems as { check: string; message: string; fix: string }[]).filter((p) => p.check === 'git');

describe.skipIf(!hasGit)('the index in a vault kept in git', () => {
  it('the first `tsm index` leaves git nothing to commit but .tsm/.gitignore, and doctor finds nothing to say', () => {
    const v = gitVault();
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      expect(existsSync(join(v.dir, '.tsm', '.gitignore'))).toBe(true);
      expect(git(v.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .tsm/.gitignore\n');
      expect(gitProblems(v.dir)).toEqual([]);
    } finally {
      v.cleanup();
    }
  });

  it('a .tsm/ git would commit (made by an older tsm): doctor says so, and `tsm init` is the fix', () => {
    const v = gitVault();
    try {
      tsm(['index', '--vault', v.dir]);
      rmSync(join(v.dir, '.tsm', '.gitignore'));
      const [p] = gitProblems(v.dir);
      expect(p.message).toMatch(/is not ignored by the git repository at .*`git add -A`/);
      expect(p.fix).toMatch(/^run `tsm init --vault \S+` in the vault/);
      expect(tsm(['init', '--vault', v.dir]).code).toBe(0);
      expect(gitProblems(v.dir)).toEqual([]);
      expect(git(v.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('?? .tsm/.gitignore\n?? .tsm/config.json\n');
    } finally {
      v.cleanup();
    }
  });

  it('an index committed already: the fix, followed as written, takes it out of git and keeps config.json', () => {
    const v = gitVault();
    try {
      tsm(['index', '--vault', v.dir]);
      rmSync(join(v.dir, '.tsm', '.gitignore'));
      git(v.dir, 'add', '-A');
      git(v.dir, 'commit', '-qm', 'everything');
      const [p] = gitProblems(v.dir);
      expect(p.message).toMatch(/is committed to the git repository/);
      expect(tsm(['init', '--vault', v.dir]).code).toBe(0);
      const command = /then `([^`]+)`/.exec(p.fix)?.[1] as string;
      expect(spawnSync('sh', ['-c', command], { cwd: v.dir }).status).toBe(0);
      git(v.dir, 'commit', '-qm', 'untrack the index');
      expect(gitProblems(v.dir)).toEqual([]);
      expect(git(v.dir, 'ls-files', '.tsm').split('\n').filter(Boolean).sort()).toEqual(['.tsm/.gitignore', '.tsm/config.json']);
    } finally {
      v.cleanup();
    }
  });

  it('a repository that ignores .tsm/ itself gets no finding', () => {
    const v = gitVault();
    try {
      tsm(['index', '--vault', v.dir]);
      rmSync(join(v.dir, '.tsm', '.gitignore'));
      git(v.dir, 'config', 'core.excludesFile', '/dev/null');
      spawnSync('sh', ['-c', 'echo .tsm/ >> .git/info/exclude'], { cwd: v.dir });
      expect(gitProblems(v.dir)).toEqual([]);
    } finally {
      v.cleanup();
    }
  });
});
