// Any number of writers take turns: N parallel `tsm index --full` runs (and plain `tsm index` runs) all
// succeed even while another connection holds the write lock longer than SQLite's busy_timeout (10 s),
// and the index they leave equals a clean build. Before: 2 of 4 failed with "database is locked", some
// through an uncaught exception (Node's own footer).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm, tsmAsync } from '../helpers/cli.js';
import { cleanReference, expectSameAsClean, generatedVault, type Reference, type VaultOnDisk } from './fixture.js';
import { testSeed } from './vault-gen.js';

const seed = testSeed();
let vault: VaultOnDisk;
let ref: Reference;

describe('parallel writers', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    assertBuilt();
    vault = generatedVault(seed + 11, 300);
    ref = await cleanReference(vault.dir);
  }, 120_000);
  afterAll(() => {
    ref?.cleanup();
    vault?.cleanup();
  });

  it('N = 4..6 writers while the lock is held past busy_timeout: every run succeeds, the index is clean', async () => {
    expect(tsm(['index'], { cwd: vault.dir }).code).toBe(0);
    for (const n of [4, 6]) {
      // Another writer holds the lock for 12 s: longer than one busy_timeout, so the BEGIN must be retried.
      const holder = new Database(vault.db);
      holder.pragma('busy_timeout = 10000');
      holder.prepare('BEGIN IMMEDIATE').run();
      const runs = Array.from({ length: n }, (_, i) =>
        tsmAsync(i % 3 === 2 ? ['index'] : ['index', '--full'], { cwd: vault.dir, timeoutMs: 200_000 }),
      );
      await new Promise((r) => setTimeout(r, 12_000));
      holder.prepare('COMMIT').run();
      holder.close();
      const results = await Promise.all(runs);
      for (const [i, r] of results.entries()) {
        expect(r.stderr, `writer ${i} of ${n}`).toBe('');
        expect(r.code, `writer ${i} of ${n}`).toBe(0);
        expect(r.stdout).toMatch(/^\d+ added, \d+ updated/);
      }
      await expectSameAsClean(vault.dir, vault.db, ref, `${n} parallel writers`);
    }
  });
});
