// Claiming `.tsm/watch.pid` (one try, as `tsm watch` and a running watcher's check make it): what each file
// found there comes to. The race of two starters is test/watch/watch-start-race.e2e.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimWatcherPid, restoreWatcherPid, watcherPidFile } from '../../src/vault/watcher-pid.js';
import { waitFor } from '../helpers/cli.js';

let vault: string;
let dir: string;
let file: string;
const later: (() => void)[] = [];
beforeEach(() => {
  vault = mkdtempSync(join(tmpdir(), 'tsm-watch-pid-'));
  dir = join(vault, '.tsm');
  file = watcherPidFile(dir);
});
afterEach(() => {
  for (const fn of later.splice(0)) fn();
  rmSync(vault, { recursive: true, force: true });
});

/** A live process whose command line is a watcher's (`node …/bin/tsm watch`), once it shows so. */
async function standInWatcher(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '/opt/tsm/bin/tsm', 'watch'], { stdio: 'ignore' });
  later.push(() => child.kill());
  const pid = child.pid!;
  // Until its exec, /proc shows the spawning process's command line.
  const shown = () => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('/opt/tsm/bin/tsm');
  await waitFor(shown, 5000, 10);
  return pid;
}

describe('claimWatcherPid', () => {
  it('makes the file (and .tsm/) when there is none, holding this pid', () => {
    expect(claimWatcherPid(dir)).toBe('claimed');
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    expect(existsSync(`${file}.takeover`)).toBe(false);
  });

  it('names a live watcher on record, and leaves its file', async () => {
    mkdirSync(dir);
    const pid = await standInWatcher();
    writeFileSync(file, `${pid}\n`);
    expect(claimWatcherPid(dir)).toBe(pid);
    expect(readFileSync(file, 'utf8')).toBe(`${pid}\n`);
  });

  it("takes over a file older than the live watcher its pid names (the pid reused after a reboot)", async () => {
    mkdirSync(dir);
    const pid = await standInWatcher();
    writeFileSync(file, `${pid}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, hourAgo, hourAgo);
    if (!existsSync(`/proc/${pid}/stat`)) return; // no /proc: the pid alone is the rule there
    expect(claimWatcherPid(dir)).toBe('claimed');
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
  });

  it("takes over a killed watcher's file", () => {
    mkdirSync(dir);
    writeFileSync(file, `${spawnSync('true').pid}\n`);
    expect(claimWatcherPid(dir)).toBe('claimed');
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('waits for an empty file just made (its maker is writing its pid), and takes over one 5 s old', () => {
    mkdirSync(dir);
    writeFileSync(file, '');
    expect(claimWatcherPid(dir)).toBe('busy');
    expect(readFileSync(file, 'utf8')).toBe('');
    const old = new Date(Date.now() - 5_000);
    utimesSync(file, old, old);
    expect(claimWatcherPid(dir)).toBe('claimed');
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('refuses a FIFO at its name, and leaves it', () => {
    mkdirSync(dir);
    if (spawnSync('mkfifo', [file]).status !== 0) return;
    expect(() => claimWatcherPid(dir)).toThrow(/is not a plain file .*the running watcher's pid there: move it aside/);
    expect(existsSync(file)).toBe(true);
  });
});

describe('restoreWatcherPid', () => {
  it("dates this watcher's own file again when it reads as older than this process (the clock stepped forward)", () => {
    if (!existsSync(`/proc/${process.pid}/stat`)) return; // no /proc: no start time to compare with
    expect(claimWatcherPid(dir)).toBe('claimed');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, hourAgo, hourAgo);
    expect(restoreWatcherPid(dir)).toBeNull(); // not written again: only dated
    expect(statSync(file).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('leaves the date of its own file written after it started', () => {
    expect(claimWatcherPid(dir)).toBe('claimed');
    const before = statSync(file).mtimeMs;
    expect(restoreWatcherPid(dir)).toBeNull();
    expect(statSync(file).mtimeMs).toBe(before);
  });
});
