// Writing the index fails — a full disk, a file size limit, no permission: `tsm index` says why in one
// line and exits 1, the index keeps what it had (every note whole, searches still answer), and once the
// cause is gone `tsm index` finishes the job and equals a clean build.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm } from '../helpers/cli.js';
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
import { inspectIndex, wholeNoteDifferences, type IndexDump } from './index-check.js';
import { runTsm, type RunAsOptions } from './processes.js';
import { paragraph, Picker, rng, testSeed } from './vault-gen.js';

const seed = testSeed();
let vault: VaultOnDisk;
/** Clean builds of the vault without and with the big notes. */
let small: Reference;
let big: Reference;
const BIG_NOTES = 40;
const BIG_MTIME = new Date('2026-11-15T09:00:00Z');

function writeBigNotes(): void {
  const p = new Picker(rng(seed + 9));
  mkdirSync(join(vault.dir, 'big'), { recursive: true });
  for (let i = 0; i < BIG_NOTES; i++) {
    const sections = Array.from({ length: 30 }, (_, s) => `## 測定ログ ${s}\n\n${paragraph(p, () => '[[big-0]]')}\n\n${paragraph(p, () => '')}`);
    const path = join(vault.dir, 'big', `big-${i}.md`);
    writeFileSync(path, `# big note ${i}\n\n${sections.join('\n\n')}\n`);
    utimesSync(path, BIG_MTIME, BIG_MTIME); // the same file every time, so the clean build stays valid
  }
}

function removeBigNotes(): void {
  rmSync(join(vault.dir, 'big'), { recursive: true, force: true });
}

/** After a failed write: healthy, every note whole, every note of before still there, searches answer. */
function expectIntact(db: string, label: string, run: RunAsOptions = {}): void {
  const { problems, dump } = inspectIndex(db);
  expect(problems, `${label}: integrity`).toEqual([]);
  expect(wholeNoteDifferences(dump as IndexDump, [small.dump, big.dump]), `${label}: whole notes`).toEqual([]);
  const lost = [...small.dump.notes.keys()].filter((path) => !dump?.notes.has(path));
  expect(lost, `${label}: notes of the previous index`).toEqual([]);
  const search = runTsm(['search', '--vault', vault.dir, '--db', db, '-f', 'json', 'LoRa'], run);
  expect(search.code, `${label}: search afterwards: ${search.stderr}`).toBe(0);
  expect(JSON.parse(search.stdout).length).toBeGreaterThan(0);
}

describe('write errors', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    assertBuilt();
    vault = generatedVault(seed + 8, 40);
    small = await cleanReference(vault.dir);
    writeBigNotes();
    big = await cleanReference(vault.dir);
    removeBigNotes();
  }, 60_000);

  afterEach(() => removeBigNotes());

  afterAll(() => {
    small?.cleanup();
    big?.cleanup();
    vault?.cleanup();
  });

  it('disk full: a clear error, the previous index intact, and done once there is room', async (ctx) => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'tsm-tiny-'));
    const db = join(mountPoint, 'index.db');
    // Room for the index of the small vault (copied in: a build's WAL needs more), not for the big notes.
    const sizeKb = Math.ceil(statSync(small.db).size / 1024) + 256;
    try {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', mountPoint], { stdio: 'pipe' });
      } catch (err) {
        console.log(`skipped "disk full": cannot mount a small tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
        ctx.skip();
        return;
      }
      copyFileSync(small.db, db);
      const first = tsm(['index', '--vault', vault.dir, '--db', db, '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ added: 0, updated: 0, removed: 0 });
      writeBigNotes();
      const full = tsm(['index', '--vault', vault.dir, '--db', db]);
      expectClearMessage(full, 'index on a full disk', /disk is full/);
      expectIntact(db, 'after disk full');

      execFileSync('mount', ['-o', `remount,size=${64 * 1024}k`, mountPoint]);
      const done = tsm(['index', '--vault', vault.dir, '--db', db]);
      expect(done.code, done.stderr).toBe(0);
      await expectSameAsClean(vault.dir, db, big, 'index once the disk has room');
    } finally {
      try {
        execFileSync('umount', [mountPoint], { stdio: 'pipe' });
      } catch {
        // not mounted (skipped)
      }
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('a file size limit (EFBIG): a clear error, the previous index intact, and done without the limit', async () => {
    removeIndex(vault.db);
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    writeBigNotes();
    // RLIMIT_FSIZE a little above the index's size: the WAL reaches it while the big notes are written.
    const limitKb = Math.ceil(statSync(vault.db).size / 1024) + 32;
    const limited = runTsm(['index', '--vault', vault.dir], { shell: `trap '' XFSZ; ulimit -f ${limitKb}; exec "$@"` });
    expectClearMessage(limited, 'index over the file size limit', /cannot (read or )?write the index/);
    expectIntact(vault.db, 'after EFBIG');

    const done = tsm(['index', '--vault', vault.dir]);
    expect(done.code, done.stderr).toBe(0);
    await expectSameAsClean(vault.dir, vault.db, big, 'index without the limit');
  });

  it('a read-only file system: the index answers every reader, tsm index names it and the fix', (ctx) => {
    // A vault on a read-only mount (a backup, a container's read-only volume): SQLite gives SQLITE_CANTOPEN,
    // not the READONLY_* codes of a folder without write permission, and search, status and index said only
    // `cannot open the index at …: unable to open database file`. Then readers refused the index (no room
    // for its -shm file); an index closed before the mount is read as read-only media.
    const mountPoint = mkdtempSync(join(tmpdir(), 'tsm-ro-'));
    const db = join(mountPoint, 'index.db');
    try {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      } catch (err) {
        console.log(`skipped "read-only file system": cannot mount a tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
        ctx.skip();
        return;
      }
      copyFileSync(small.db, db);
      const roVault = join(mountPoint, 'notes'); // a vault there has no `.tsm/` yet, and none can be made
      mkdirSync(roVault);
      writeFileSync(join(roVault, 'a.md'), '# A\n\nLoRa notes on a read-only disk.\n');
      execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
      expectClearMessage(tsm(['index', '--vault', roVault]), 'index of a vault on a read-only file system', /read-only file system.*--db/);
      expectClearMessage(tsm(['index', '--vault', vault.dir, '--db', db]), 'index on a read-only file system', /read-only file system.*(remount|--db)/);
      const search = tsm(['search', '--vault', vault.dir, '--db', db, '-f', 'json', 'LoRa']);
      expect(search.code, `search on a read-only file system: ${search.stderr}`).toBe(0);
      expect(JSON.parse(search.stdout).length).toBeGreaterThan(0);
      const status = tsm(['status', '--vault', vault.dir, '--db', db]);
      expect(status.code, `status on a read-only file system: ${status.stderr}`).toBe(0);
      expect(status.stdout).toMatch(new RegExp(`notes +${small.dump.notes.size}\\b`));
      const hook = runTsm(['hook', '--vault', vault.dir, '--db', db], { input: promptPayload(vault.dir) });
      expect(hook.code, hook.stderr).toBe(0);
      expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('<knowledge_search');
    } finally {
      try {
        execFileSync('umount', [mountPoint], { stdio: 'pipe' });
      } catch {
        // not mounted (skipped)
      }
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  describe('no permission to write', () => {
    // Permission bits do not stop root: as root, the commands run as "nobody" instead.
    const asRoot = process.getuid?.() === 0;
    const run: RunAsOptions = asRoot ? { user: { uid: 65534, gid: 65534 } } : {};
    const tsmDirOf = () => join(vault.dir, '.tsm');

    beforeAll(() => {
      removeIndex(vault.db);
      expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
      chmodSync(vault.dir, 0o755); // mkdtemp made it private; the other user must read the notes
    });

    afterEach(() => {
      chmodSync(tsmDirOf(), 0o755);
      chmodSync(vault.db, 0o644);
      rmSync(join(vault.dir, 'extra.md'), { force: true });
    });

    function lockDown(folderToo: boolean): void {
      // As root the files already belong to someone else; otherwise take the write bits away.
      if (!asRoot) chmodSync(vault.db, 0o444);
      // No shared-memory file left by an earlier reader: a reader must be able to create its own.
      rmSync(`${vault.db}-wal`, { force: true });
      rmSync(`${vault.db}-shm`, { force: true });
      chmodSync(tsmDirOf(), folderToo ? 0o555 : 0o777);
      writeFileSync(join(vault.dir, 'extra.md'), '# extra\n\nA new note the index cannot take in.\n');
    }

    for (const folderToo of [false, true]) {
      it(`index file read-only${folderToo ? ', in a read-only folder' : ''}: tsm index fails clearly, nothing changes`, () => {
        if (asRoot) console.log('write-errors: running tsm as uid 65534 (root ignores permission bits)');
        lockDown(folderToo);
        const r = runTsm(['index', '--vault', vault.dir], run);
        expectClearMessage(r, 'index without write permission', /permission|not writable/);
        const { problems, dump } = inspectIndex(vault.db);
        expect(problems).toEqual([]);
        expect(dump?.notes.has('extra.md')).toBe(false);
        expect(dump?.notes.size).toBe(small.dump.notes.size);

        // Readers: a read-only file is fine to search; a folder where SQLite cannot keep its -shm file
        // gets a message saying so.
        for (const args of [['search', '--vault', vault.dir, '-f', 'json', 'LoRa'], ['status', '--vault', vault.dir]]) {
          const read = runTsm(args, run);
          if (folderToo) expectClearMessage(read, `${args[0]} in a read-only folder`, /not writable/);
          else expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
        }
        const hook = runTsm(['hook', '--vault', vault.dir], { ...run, input: promptPayload(vault.dir) });
        expect(hook.code, hook.stderr).toBe(0);
        if (folderToo) expect(hook.stdout).toBe('');
        else expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('<knowledge_search');
      });
    }
  });
});
