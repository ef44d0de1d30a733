// docs/reliability.md, "no lost updates": a sync that read a file before another writer (the watcher, a second
// `tsm index`) indexed a newer version must not put the older text back. Deterministic: the other writer
// runs exactly between this sync's reading of the files and its write transaction.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncVault } from '../../src/index/sync.js';
import { loadConfig } from '../../src/vault/config.js';
import { assertBuilt, tsm } from '../helpers/cli.js';
import { cleanReference, expectSameAsClean, generatedVault, type Reference, type VaultOnDisk } from './fixture.js';
import { testSeed } from './vault-gen.js';

/** Enough changed files for sync's batched path, where reading and writing are furthest apart. */
const NOTES = 230;

const seed = testSeed();
let vault: VaultOnDisk | undefined;
let ref: Reference | undefined;

describe('two writers, one file changing between them', { timeout: 60_000 }, () => {
  afterAll(() => {
    ref?.cleanup();
    vault?.cleanup();
  });

  it('an older read never overwrites what another writer indexed since', async () => {
    assertBuilt();
    const v = (vault = generatedVault(seed + 6, NOTES));
    expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
    for (const path of v.first.notes) appendFileSync(join(v.dir, path), '\n\n## second version\n\nwritten before the sync started\n');

    const cfg = loadConfig({ vaultFlag: v.dir, env: {} });
    let other: { code: number | null; stderr: string } | null = null;
    const summary = await syncVault(cfg, {
      onProgress: () => {
        if (other) return;
        // This sync has read the first file(s); before it writes, the files change again and another
        // process indexes the third version.
        for (const path of v.first.notes) appendFileSync(join(v.dir, path), '\n\n## third version\n\nwritten during the sync\n');
        other = tsm(['index', '--vault', v.dir]);
      },
    });
    expect(other, 'the other writer ran').not.toBeNull();
    expect(other!.code, other!.stderr).toBe(0);
    expect(summary.updated, 'the sync wrote nothing it had read before the change').toBe(0);

    ref = await cleanReference(v.dir);
    await expectSameAsClean(v.dir, v.db, ref, 'index after the two writers');
  });
});
