// `tsm doctor` on an index it cannot use: the fix line follows from the problem (before, it always said
// `tsm index`, which cannot help with a file tsm refuses to touch); and config.json keys tsm does not know.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

interface Problem {
  check: string;
  message: string;
  fix: string;
}

const problems = (stdout: string): Problem[] => JSON.parse(stdout).problems;

describe('tsm doctor', () => {
  it('an index tsm refuses (--db naming another file) gets the fix that helps, not `tsm index`', () => {
    const v = makeVault({ 'a.md': '# a\n', 'notdb.bin': 'hello, not a database' });
    try {
      const r = tsm(['doctor', '--json', '--vault', v.dir, '--db', join(v.dir, 'notdb.bin')]);
      expect(r.code).toBe(1);
      const index = problems(r.stdout).find((p) => p.check === 'index');
      expect(index?.message).toMatch(/is not a tsm index/);
      expect(index?.fix).toMatch(/give --db \(or TSM_DB\) a new file name/);
      expect(tsm(['doctor', '--vault', v.dir, '--db', join(v.dir, 'notdb.bin')]).stdout).not.toContain('fix: run `tsm index`');
      // Still `tsm index` where that is the fix.
      const none = tsm(['doctor', '--json', '--vault', v.dir]);
      expect(problems(none.stdout).find((p) => p.check === 'index')?.fix).toBe('run `tsm index`');
    } finally {
      v.cleanup();
    }
  });

  const runuser = process.getuid?.() === 0 && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
  it.skipIf(!runuser)('an index folder the user may not write: the fix is the permissions', () => {
    const v = makeVault({ 'a.md': '# a\n' });
    try {
      chmodSync(v.dir, 0o755);
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      chmodSync(join(v.dir, '.tsm'), 0o555);
      const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, TSM, 'doctor', '--json', '--vault', v.dir], { cwd: ROOT, encoding: 'utf8' });
      const index = problems(r.stdout).find((p) => p.check === 'index');
      expect(index?.message).toMatch(/not writable for you/);
      expect(index?.fix).toMatch(/make the index file and its folder writable/);
    } finally {
      chmodSync(join(v.dir, '.tsm'), 0o755);
      v.cleanup();
    }
  });

  it('warns about config.json keys tsm does not know, naming them', () => {
    const v = makeVault({ 'a.md': '# a\n' });
    try {
      mkdirSync(join(v.dir, '.tsm'));
      writeFileSync(join(v.dir, '.tsm/config.json'), '{ "hookTopk": 3, "halfLifeDays": {"knowlege": 9} }');
      const r = tsm(['doctor', '--vault', v.dir]);
      expect(r.stdout).toMatch(/warning config: .*config\.json has settings tsm does not know, which change nothing: hookTopk, halfLifeDays\.knowlege\n/);
    } finally {
      v.cleanup();
    }
  });
});
