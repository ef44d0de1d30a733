// `tsm watch` started on a full disk: the first sync fails, and the watcher stays up and tries again, as the
// error's own fix says ("a running `tsm watch` tries again by itself"). It exited with code 1 instead, so a
// watcher started as a service died on a disk that was full for the moment.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tsm, waitFor } from '../helpers/cli.js';
import { killWatchers, searchPaths, startWatch, token, useWatchVaults } from './watch-process.js';

const { vault } = useWatchVaults();
afterAll(() => killWatchers());

it('starts on a full disk, says the first sync failed, and writes it all once there is room', async (ctx) => {
  const dir = vault({ 'a.md': '# A\n\nsmall note\n' });
  const built = join(mkdtempSync(join(tmpdir(), 'tsm-full-db-')), 'index.db');
  expect(tsm(['index', '--vault', dir, '--db', built]).code).toBe(0);
  const mountPoint = mkdtempSync(join(tmpdir(), 'tsm-full-mnt-'));
  try {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${Math.ceil(statSync(built).size / 1024) + 256}k`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (err) {
      console.log(`skipped: cannot mount a small tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
      ctx.skip();
      return;
    }
    const db = join(mountPoint, 'index.db');
    copyFileSync(built, db);
    // Notes whose index cannot fit in the room left: 2 MB of distinct words.
    const big = token('bigword');
    for (let n = 0; n < 20; n++) {
      const words = Array.from({ length: 12_000 }, (_, i) => `w${n}x${i}q${(i * 7919) % 10007}`).join(' ');
      writeFileSync(join(dir, `big-${n}.md`), `# Big ${n}\n\n${big} ${words}\n`);
    }
    const w = await startWatch(dir, ['--db', db]);
    expect(w.stderr()).toMatch(/tsm watch: the first sync failed \(cannot write the index .*the disk is full/);
    execFileSync('mount', ['-o', `remount,size=${256 * 1024}k`, mountPoint]);
    await waitFor(async () => (await searchPaths(dir, big, ['--db', db])).length === 20, 60_000, 500);
    await w.stop();
  } finally {
    await killWatchers();
    try {
      execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    } catch {
      // not mounted (skipped)
    }
    rmSync(mountPoint, { recursive: true, force: true });
  }
}, 120_000);

it('starts when the vault itself is on a full disk (the index cannot even be made), leaves no empty watch.pid, and catches up', async (ctx) => {
  // The index's own file could not be made: the first sync failed, then opening the writer failed too, and the
  // watcher exited 1 after saying it would try again. Its pid file, opened before the write failed, was left
  // empty (naming no watcher) on the full disk.
  const mountPoint = mkdtempSync(join(tmpdir(), 'tsm-full-vault-'));
  try {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (err) {
      console.log(`skipped: cannot mount a small tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
      ctx.skip();
      return;
    }
    const dir = join(mountPoint, 'vault');
    mkdirSync(dir);
    const word = token('fullvault');
    for (let n = 0; n < 3; n++) writeFileSync(join(dir, `n${n}.md`), `# N${n}\n\n${word}\n`);
    const fill = join(mountPoint, 'fill');
    const { bavail, bsize } = statfsSync(mountPoint);
    writeFileSync(fill, Buffer.alloc(bavail * bsize));
    const w = await startWatch(dir);
    expect(w.stderr()).toMatch(/tsm watch: the first sync failed \(cannot write the index .*the disk is full.*\); trying again in 1 s\n/);
    const pidFile = join(dir, '.tsm', 'watch.pid');
    expect(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : 'absent').not.toBe('');
    await waitFor(() => /a batch failed \(cannot write the index .*the disk is full.*\); retrying in 2 s/.test(w.stderr()), 10_000);
    rmSync(fill);
    await waitFor(() => /3 added/.test(w.stderr()), 30_000);
    expect(await searchPaths(dir, word)).toHaveLength(3);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') === `${w.child.pid}\n`, 10_000);
    expect(await w.stop()).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  } finally {
    await killWatchers();
    try {
      execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    } catch {
      // not mounted (skipped)
    }
    rmSync(mountPoint, { recursive: true, force: true });
  }
}, 120_000);
