// Two `tsm watch` started at the same instant on one vault, with the built CLI, round after round, with no
// pid file (on a new vault: no `.tsm/` yet; or beside an index) and with a stale one (its watcher killed):
// exactly one keeps running and is on record; the other
// exits 1 saying a watcher already runs. Before, each asked whether a watcher ran, then wrote `.tsm/watch.pid`
// over whatever was there: both could find none (or both the same stale one), and both watched and indexed.
// "The same instant": each process first waits, in a script --require'd before tsm loads, for one shared clock
// time, so both reach the check within a millisecond or so. The window is that narrow: the old code let both
// run in about one round of ten here, hence the rounds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/cli.js';
import { startWatch, useWatchVaults, type WatchProcess } from './watch-process.js';

const { vault } = useWatchVaults();
const ROUNDS = 18;

let barrier: string;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-watch-race-'));
  barrier = join(dir, 'start-at.cjs');
  writeFileSync(barrier, 'const at = Number(process.env.WATCH_RACE_AT);\nwhile (Date.now() < at) {}\n');
  return () => rmSync(dir, { recursive: true, force: true });
});

/** A pid whose process has ended, as a killed watcher's file names. */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  if (pid === undefined) throw new Error('could not run `true`');
  return pid;
}

/** Two watchers of `dir` that start their work at one clock time. */
function startTwo(dir: string): Promise<WatchProcess[]> {
  const wrapper = ['env', `NODE_OPTIONS=--require ${barrier}`, `WATCH_RACE_AT=${Date.now() + 700}`];
  return Promise.all([0, 1].map(() => startWatch(dir, [], { wrapper, waitReady: false })));
}

const ended = (w: WatchProcess) => w.child.exitCode !== null || w.child.signalCode !== null;

describe('two tsm watch started at once', () => {
  it('exactly one runs, with no pid file or a stale one; the other exits 1 naming it', { timeout: 180_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const kind = (['new vault', 'no pid file', 'stale pid file'] as const)[round % 3];
      const dir = vault({ 'a.md': '# A\n\nalpha\n' });
      const pidFile = join(dir, '.tsm', 'watch.pid');
      if (kind === 'new vault') rmSync(join(dir, '.tsm'), { recursive: true });
      if (kind === 'stale pid file') writeFileSync(pidFile, `${deadPid()}\n`);
      const both = await startTwo(dir);
      await waitFor(() => both.every((w) => ended(w) || /tsm watch: watching /.test(w.stderr())), 30_000);
      const said = `round ${round} (${kind}):\n${both.map((w) => w.stderr()).join('---\n')}`;
      const running = both.filter((w) => !ended(w));
      expect(running, said).toHaveLength(1);
      const [winner] = running;
      const loser = both.find((w) => w !== winner)!;
      expect(await loser.exited, said).toBe(1);
      expect(loser.stderr(), said).toMatch(/^tsm: a watcher already runs for /m);
      expect(loser.stderr(), said).toContain(`(pid ${winner.child.pid}); stop it first, or, if none runs`);
      expect(readFileSync(pidFile, 'utf8')).toBe(`${winner.child.pid}\n`);
      expect(existsSync(`${pidFile}.takeover`), 'the takeover guard left behind').toBe(false);
      expect(await winner.stop()).toBe(0);
      expect(existsSync(pidFile)).toBe(false);
    }
  });
});
