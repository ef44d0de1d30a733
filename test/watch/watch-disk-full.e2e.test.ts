// `tsm watch` started on a full disk: the first sync fails, and the watcher stays up and tries again, as the
// error's own fix says ("a running `tsm watch` tries again by itself"). It exited with code 1 instead, so a
// watcher started as a service died on a disk that was full for the moment.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tsm, waitFor } from '../helpers/cli.js';
import { useSmallDisk } from '../helpers/small-disk.js';
import { killWatchers, searchPaths, startWatch, token, useWatchVaults } from './watch-process.js';

const { vault } = useWatchVaults();
afterAll(() => killWatchers());

describe('an index on a full disk', { timeout: 120_000 }, () => {
  const disk = useSmallDisk('1m', 'tsm watch with its index on a full disk');

  it('starts on a full disk, says the first sync failed, and writes it all once there is room', async (ctx) => {
    if (!disk.mounted) ctx.skip();
    const dir = vault({ 'a.md': '# A\n\nsmall note\n' });
    const built = join(mkdtempSync(join(tmpdir(), 'tsm-full-db-')), 'index.db');
    expect(tsm(['index', '--vault', dir, '--db', built]).code).toBe(0);
    // Room for the index as it is and a little more, not for the notes written below.
    disk.resize(`${Math.ceil(statSync(built).size / 1024) + 256}k`);
    const db = join(disk.path, 'index.db');
    copyFileSync(built, db);
    // Notes whose index cannot fit in the room left: 2 MB of distinct words.
    const big = token('bigword');
    for (let n = 0; n < 20; n++) {
      const words = Array.from({ length: 12_000 }, (_, i) => `w${n}x${i}q${(i * 7919) % 10007}`).join(' ');
      writeFileSync(join(dir, `big-${n}.md`), `# Big ${n}\n\n${big} ${words}\n`);
    }
    try {
      const w = await startWatch(dir, ['--db', db]);
      expect(w.stderr()).toMatch(/tsm watch: the first sync failed \(cannot write the index .*the disk is full/);
      disk.resize('256m');
      await waitFor(async () => (await searchPaths(dir, big, ['--db', db])).length === 20, 60_000, 500);
      await w.stop();
    } finally {
      await killWatchers(); // before the disk is unmounted
    }
  });
});

describe('a vault on a full disk', { timeout: 120_000 }, () => {
  const disk = useSmallDisk('1m', 'tsm watch with its vault on a full disk');

  it('starts when the vault itself is on a full disk (the index cannot even be made), leaves no empty watch.pid, and catches up', async (ctx) => {
    // The index's own file could not be made: the first sync failed, then opening the writer failed too, and the
    // watcher exited 1 after saying it would try again. Its pid file, opened before the write failed, was left
    // empty (naming no watcher) on the full disk.
    if (!disk.mounted) ctx.skip();
    const dir = join(disk.path, 'vault');
    mkdirSync(dir);
    const word = token('fullvault');
    for (let n = 0; n < 3; n++) writeFileSync(join(dir, `n${n}.md`), `# N${n}\n\n${word}\n`);
    disk.fillAllBut(0);
    try {
      const w = await startWatch(dir);
      expect(w.stderr()).toMatch(/tsm watch: the first sync failed \(cannot write the index .*the disk is full.*\); trying again in 1 s\n/);
      const pidFile = join(dir, '.tsm', 'watch.pid');
      expect(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : 'absent').not.toBe('');
      await waitFor(() => /a batch failed \(cannot write the index .*the disk is full.*\); retrying in 2 s/.test(w.stderr()), 10_000);
      disk.room();
      await waitFor(() => /3 added/.test(w.stderr()), 30_000);
      expect(await searchPaths(dir, word)).toHaveLength(3);
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') === `${w.child.pid}\n`, 10_000);
      expect(await w.stop()).toBe(0);
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      await killWatchers(); // before the disk is unmounted
    }
  });
});
