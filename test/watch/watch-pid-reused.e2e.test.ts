// `.tsm/watch.pid` naming a pid that is now another vault's `tsm watch` (after a reboot the pid may be given
// to whichever process starts, another watcher among them), with the built CLI. Before, the command line
// alone was checked: `tsm watch` on this vault refused ("a watcher already runs … (pid N)") until the file
// was removed by hand, and `tsm status` named the other vault's watcher. Now (Linux) a process that started
// after the file was written is not its watcher. Also: a watcher whose own file reads as older than its start
// (the clock stepped forward under it) dates it again, so it is still taken for the vault's watcher.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, waitFor } from '../helpers/cli.js';
import { startWatch, useWatchVaults } from './watch-process.js';

const { vault } = useWatchVaults();
const onLinux = process.platform === 'linux';

function watcherLine(dir: string): string {
  const r = tsm(['status', '--vault', dir]);
  expect(r.code, r.stderr).toBe(0);
  return /^watcher .*$/m.exec(r.stdout)?.[0] ?? '';
}

describe.runIf(onLinux)('a watch.pid whose pid is reused', () => {
  it("by another vault's tsm watch started after the file: no watcher on record, and tsm watch starts", { timeout: 90_000 }, async () => {
    const other = vault({ 'b.md': '# B\n\nbeta\n' });
    const here = vault({ 'a.md': '# A\n\nalpha\n' });
    const otherWatch = await startWatch(other);
    const otherPid = otherWatch.child.pid!;
    // The file an hour old, as one left from before a reboot; its pid now runs `tsm watch` on the other vault.
    const pidFile = join(here, '.tsm', 'watch.pid');
    writeFileSync(pidFile, `${otherPid}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(pidFile, hourAgo, hourAgo);
    expect(tsm(['index', '--vault', here]).code).toBe(0);

    expect(watcherLine(here)).toBe('watcher   not running');
    const w = await startWatch(here);
    expect(w.stderr()).not.toMatch(/a watcher already runs/);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${w.child.pid}\n`);
    expect(watcherLine(here)).toBe(`watcher   running (pid ${w.child.pid})`);
    // The other vault's watcher and its file are left as they were.
    expect(readFileSync(join(other, '.tsm', 'watch.pid'), 'utf8')).toBe(`${otherPid}\n`);
    expect(watcherLine(other)).toBe(`watcher   running (pid ${otherPid})`);
  });

  it('by its own watcher, with the clock stepped forward since it was written: dated again within seconds', { timeout: 90_000 }, async () => {
    const here = vault({ 'a.md': '# A\n\nalpha\n' });
    const w = await startWatch(here);
    const pidFile = join(here, '.tsm', 'watch.pid');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(pidFile, hourAgo, hourAgo);
    await waitFor(() => statSync(pidFile).mtimeMs > Date.now() - 60_000, 5_000);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${w.child.pid}\n`);
    expect(watcherLine(here)).toBe(`watcher   running (pid ${w.child.pid})`);
    const second = tsm(['watch', '--vault', here]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`a watcher already runs for ${here} (pid ${w.child.pid})`);
  });
});
