// A `tsm index` killed after it made the index file and before its build began leaves a file holding the
// schema alone. It must still read as an unfinished build, and the next `tsm index` must finish it into what
// a clean build gives: the kill tests caught the next run taking it for a built index, syncing it note by
// note, and leaving full-text merging unset (the rows compared unequal to a clean build's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { assertBuilt, tsm } from '../helpers/cli.js';
import { buildUnfinished, INCOMPLETE_INDEX_NOTE } from '../../src/index/build-state.js';
import { openWriter } from '../../src/index/db.js';
import { cleanReference, expectSameAsClean, generatedVault, removeIndex, type Reference, type VaultOnDisk } from './fixture.js';
import { testSeed } from './vault-gen.js';

const seed = testSeed();
let vault: VaultOnDisk;
let ref: Reference;

describe('an index file holding only its schema (a build killed before it began)', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    assertBuilt();
    vault = generatedVault(seed, 60);
    ref = await cleanReference(vault.dir);
  });
  afterAll(() => {
    ref?.cleanup();
    vault?.cleanup();
  });

  for (const withVault of [false, true]) {
    it(`reads as unfinished and is finished by the next tsm index (${withVault ? 'vault recorded' : 'schema alone'})`, async () => {
      removeIndex(vault.db);
      // What the killed run had committed: the schema (one transaction), and perhaps the vault it belongs to.
      openWriter(vault.db, withVault ? { vault: vault.dir } : {}).db.close();
      const conn = new Database(vault.db, { readonly: true });
      expect(buildUnfinished(conn)).toBe(true);
      conn.close();
      // From inside the vault: from elsewhere the note's `tsm index` carries --vault (src/cli/fix-target.ts).
      const search = tsm(['search', 'note', '--vault', vault.dir], { cwd: vault.dir });
      expect(search.stderr).toContain(INCOMPLETE_INDEX_NOTE);

      const r = tsm(['index', '--vault', vault.dir]);
      expect(r.code, r.stderr).toBe(0);
      await expectSameAsClean(vault.dir, vault.db, ref, `seed ${seed}`);
    });
  }
});
