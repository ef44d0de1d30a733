// An index file that is truncated, empty, not a database, or from another schema version: `tsm search`
// and `tsm status` say so in one clear line and name the fix, hooks stay silent and exit 0, and
// `tsm index` rebuilds it (markdown is the source of truth) to exactly what a clean build gives.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm, waitFor } from '../helpers/cli.js';
import { buildUnfinished } from '../../src/index/build-state.js';
import {
  cleanReference,
  expectClearMessage,
  expectSameAsClean,
  generatedVault,
  promptPayload,
  removeIndex,
  type Reference,
  type VaultOnDisk,
} from './fixture.js';
import { testSeed } from './vault-gen.js';

const seed = testSeed();
let vault: VaultOnDisk;
let ref: Reference;

function setSchemaVersion(db: string, version: number): void {
  const conn = new Database(db);
  conn.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
  conn.close();
}

/** The message names the fix. */
// Run from the repository with --vault, the command carries it (src/cli/fix-target.ts).
const TSM_INDEX = /`tsm index( --full)?( --vault \S+)?`/;

const DAMAGES: { name: string; damage: (db: string) => void }[] = [
  {
    name: 'truncated to half its size',
    damage: (db) => {
      rmSync(`${db}-wal`, { force: true });
      rmSync(`${db}-shm`, { force: true });
      truncateSync(db, Math.floor(statSync(db).size / 2 / 4096) * 4096);
    },
  },
  { name: 'zero-length', damage: (db) => writeFileSync(db, '') },
  { name: 'not a database', damage: (db) => writeFileSync(db, '# a markdown note, not SQLite\n'.repeat(500)) },
  { name: 'from an older schema version', damage: (db) => setSchemaVersion(db, 1) },
  { name: 'from a newer tsm', damage: (db) => setSchemaVersion(db, 999) },
];

describe('a damaged index file', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    assertBuilt();
    vault = generatedVault(seed + 7, 40);
    ref = await cleanReference(vault.dir);
  }, 60_000);

  afterAll(() => {
    ref?.cleanup();
    vault?.cleanup();
  });

  for (const { name, damage } of DAMAGES) {
    it(`${name}: clear messages, silent hooks, and tsm index rebuilds it`, async () => {
      removeIndex(vault.db);
      expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
      damage(vault.db);

      expectClearMessage(tsm(['search', '--vault', vault.dir, 'LoRa']), 'search', TSM_INDEX);
      expectClearMessage(tsm(['status', '--vault', vault.dir]), 'status', TSM_INDEX);

      const hookLog = join(vault.dir, '.tsm', 'hook.log');
      rmSync(hookLog, { force: true });
      const hook = tsm(['hook', '--vault', vault.dir], { input: promptPayload(vault.dir) });
      expect(hook.code, hook.stderr).toBe(0);
      expect(hook.stdout).toBe('');
      expect(hook.stderr).toBe('');
      // Silent towards Claude Code, but the reason is kept for the user.
      expect(readFileSync(hookLog, 'utf8')).toMatch(/UserPromptSubmit.*index/);

      const rebuilt = tsm(['index', '--vault', vault.dir]);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect(rebuilt.stderr).not.toMatch(/\n\s+at /);
      // The hook started a background `tsm index` (an index it cannot read): when that one made the
      // rebuild, it finishes the build itself, and this one's sync leaves it the mark (bulk_load_pid).
      await waitFor(() => !existsSync(join(vault.dir, '.tsm', 'sync.lock')) && !buildMarked(vault.db), 30_000);
      await expectSameAsClean(vault.dir, vault.db, ref, `index rebuilt from a file ${name}`);
      // A file that was not a usable database is kept aside, never deleted: it might be something else.
      const aside = readdirSync(join(vault.dir, '.tsm')).filter((f) => f.startsWith('index.db.corrupt-'));
      for (const f of aside) rmSync(join(vault.dir, '.tsm', f));
    });
  }

  it('a search on a vault whose index file vanished builds it first', async () => {
    removeIndex(vault.db);
    const r = tsm(['search', '--vault', vault.dir, '-f', 'json', 'LoRa']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(existsSync(vault.db)).toBe(true);
  });
});

/** Whether the index still carries the mark of a build of the whole index under way (build-state.ts). */
function buildMarked(path: string): boolean {
  try {
    const db = new Database(path, { readonly: true });
    try {
      return buildUnfinished(db);
    } finally {
      db.close();
    }
  } catch {
    return true;
  }
}
