// A file where the index's folder belongs (`.tsm` a regular file or a link to nothing, a file in the
// middle of --db's path): every command names it, as `tsm index` does, never "run `tsm index` first",
// which only stopped at the same file. The built CLI against temporary vaults.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

const NOT_A_FOLDER = (at: string) => `${at} is not a folder, and tsm writes its files into a folder of that name: move it aside (tsm then makes the folder)`;

describe('a file where the index folder belongs', () => {
  it('.tsm a regular file, or a link to nothing: status, doctor, search and index name it, and leave it', () => {
    for (const make of ['file', 'dangling link'] as const) {
      const v = makeVault({ 'a.md': '# A\n\nalpha\n' });
      try {
        const at = join(v.dir, '.tsm');
        if (make === 'file') writeFileSync(at, 'mine\n');
        else symlinkSync(join(v.dir, 'nowhere'), at);
        const expected = `tsm: ${NOT_A_FOLDER(at)}\n`;
        for (const args of [['status'], ['status', '--json'], ['search', 'alpha'], ['index']]) {
          const r = tsm([...args, '--vault', v.dir]);
          expect(r.code, `${make}: ${args.join(' ')}`).toBe(1);
          expect(r.stdout, `${make}: ${args.join(' ')}`).toBe('');
          expect(r.stderr, `${make}: ${args.join(' ')}`).toBe(expected);
        }
        const doctor = tsm(['doctor', '--json', '--vault', v.dir]);
        expect(doctor.code).toBe(1);
        const index = JSON.parse(doctor.stdout).problems.find((p: { check: string }) => p.check === 'index');
        expect(index).toMatchObject({ severity: 'error', message: NOT_A_FOLDER(at) });
        expect(index.fix).not.toBe('run `tsm index`');
        if (make === 'file') expect(readFileSync(at, 'utf8')).toBe('mine\n');
      } finally {
        v.cleanup();
      }
    }
  });

  it('--db below a file: the file is named, by readers and the writer alike', () => {
    const v = makeVault({ 'notes/a.md': '# A\n\nalpha\n', 'taken': 'mine\n' });
    try {
      const db = join(v.dir, 'taken/sub/index.db');
      for (const args of [['status'], ['search', 'alpha'], ['index']]) {
        const r = tsm([...args, '--vault', join(v.dir, 'notes'), '--db', db]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe(`tsm: ${NOT_A_FOLDER(join(v.dir, 'taken'))}\n`);
      }
      expect(readFileSync(join(v.dir, 'taken'), 'utf8')).toBe('mine\n');
      // A folder that is not there yet is still "no index": `tsm index` makes it.
      const fresh = tsm(['status', '--vault', join(v.dir, 'notes'), '--db', join(v.dir, 'new/sub/index.db')]);
      expect(fresh.stderr).toMatch(/^tsm: no index at .*new\/sub\/index\.db: run `tsm index --vault \S+notes --db \S+new\/sub\/index\.db` first\n$/);
    } finally {
      v.cleanup();
    }
  });

  // Root may read anywhere: the case needs another user (runuser, as root), else it is skipped.
  const runuser = process.getuid?.() === 0 && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
  it.skipIf(!runuser)('--db in a folder this user may not enter: the permissions, not "not a plain file; move it aside"', () => {
    const v = makeVault({ 'notes/a.md': '# A\n\nalpha\n' });
    try {
      const db = join(v.dir, 'private/index.db');
      expect(tsm(['index', '--vault', join(v.dir, 'notes'), '--db', db]).code).toBe(0);
      chmodSync(v.dir, 0o755);
      chmodSync(join(v.dir, 'notes'), 0o755);
      chmodSync(join(v.dir, 'private'), 0o700);
      const said = `tsm: cannot reach the index at ${db} (EACCES: permission denied on ${db}): check the permissions of the folders it is in, or give --db (or TSM_DB) an index of your own\n`;
      for (const args of [['status'], ['search', 'alpha'], ['index']]) {
        const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, TSM, ...args, '--vault', join(v.dir, 'notes'), '--db', db], { cwd: ROOT, encoding: 'utf8' });
        expect(r.status, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe(said);
      }
    } finally {
      v.cleanup();
    }
  });
});
