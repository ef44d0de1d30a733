// A real full disk for the tests that need one: a small tmpfs mounted for one describe block, filled on
// demand. Mounting needs root (CI runs as root here); elsewhere the tests skip and say why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export interface SmallDisk {
  /** A temporary folder beside the disk, on the ordinary disk. */
  readonly root: string;
  /** The small disk's mount point. */
  readonly path: string;
  /** False where no tmpfs can be mounted: the tests skip. */
  readonly mounted: boolean;
  /** Fills the disk but for `freeKb` (its pages are 4 KiB); `room()` takes the filling away. */
  fillAllBut(freeKb?: number): void;
  room(): void;
  /** Gives the mounted disk a new size (`'300k'`, `'256m'`), its files kept: a disk that fills, then grows. */
  resize(size: string): void;
}

/** Mounts a tmpfs of `size` (`'2m'`) before the block's tests and unmounts it after; `what` names them in a skip. */
export function useSmallDisk(size: string, what: string): SmallDisk {
  const disk = { root: '', path: '', mounted: false } as { root: string; path: string; mounted: boolean };
  const fill = () => join(disk.path, 'fill');
  beforeAll(() => {
    disk.root = mkdtempSync(join(tmpdir(), 'tsm-disk-'));
    disk.path = join(disk.root, 'disk');
    mkdirSync(disk.path);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk.path], { stdio: 'pipe' });
      disk.mounted = true;
    } catch (err) {
      console.log(`skipped "${what}": cannot mount a small tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
    }
  });
  afterAll(() => {
    if (disk.mounted) execFileSync('umount', [disk.path], { stdio: 'pipe' });
    rmSync(disk.root, { recursive: true, force: true });
  });
  return {
    get root() {
      return disk.root;
    },
    get path() {
      return disk.path;
    },
    get mounted() {
      return disk.mounted;
    },
    fillAllBut(freeKb = 0) {
      rmSync(fill(), { force: true });
      const { bavail, bsize } = statfsSync(disk.path);
      writeFileSync(fill(), Buffer.alloc(Math.max(0, bavail * bsize - freeKb * 1024)));
    },
    room() {
      rmSync(fill(), { force: true });
    },
    resize(size: string) {
      execFileSync('mount', ['-o', `remount,size=${size}`, disk.path], { stdio: 'pipe' });
    },
  };
}
