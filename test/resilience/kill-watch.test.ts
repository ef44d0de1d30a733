// docs/reliability.md: `kill -9` of `tsm watch` — during its first index or while it applies a stream of edits,
// atomic saves, new notes, deletions and moves — never damages the index, and the next `tsm watch`
// (or `tsm index`) brings it to exactly what a clean build of the vault gives.
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm } from '../helpers/cli.js';
import { cleanReference, expectSameAsClean, generatedVault, problemsIfAny, type Reference, type VaultOnDisk } from './fixture.js';
import { VaultMutator } from './mutator.js';
import { sleep, startWatcher } from './processes.js';
import { Picker, rng, testSeed } from './vault-gen.js';

const NOTES = 250;
/** Kill points: two during the watcher's first index, the others in the middle of a stream of changes. */
const CYCLES = 8;
const READY_TIMEOUT_MS = 30_000;

const seed = testSeed();
let vault: VaultOnDisk | undefined;
let ref: Reference | undefined;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what}: no answer within ${ms} ms`)))]);
}

describe('kill -9 during tsm watch', { timeout: 120_000 }, () => {
  afterAll(() => {
    ref?.cleanup();
    vault?.cleanup();
  });

  it(`converges to a clean build after ${CYCLES} kills while files change`, async () => {
    assertBuilt();
    console.log(`kill-watch: seed ${seed} (replay with TSM_TEST_SEED=${seed})`);
    const v = (vault = generatedVault(seed + 1, NOTES));
    const mutator = new VaultMutator(v.dir, seed, v.first.notes);
    const pick = new Picker(rng(seed + 2));
    const log: string[] = [];
    let changes = 0;
    let killedWhileApplying = 0;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const watcher = startWatcher(v.dir, ['--debounce', '40']);
      const duringFirstIndex = cycle === 0 || cycle === CYCLES / 2;
      let what: string;
      if (duringFirstIndex) {
        // The first cycle builds the index from nothing; the other catches up with changes made while no
        // watcher ran. Kill before it is ready.
        const delay = pick.int(150, 1200);
        await sleep(delay);
        what = `during the first index at ${delay} ms${/watching/.test(watcher.stderr()) ? ' (already ready)' : ''}`;
      } else {
        await withTimeout(watcher.ready, READY_TIMEOUT_MS, 'tsm watch ready');
        const burstMs = pick.int(150, 1500);
        const end = Date.now() + burstMs;
        let made = 0;
        while (Date.now() < end) {
          mutator.step();
          made++;
          await sleep(pick.int(2, 40));
        }
        const batches = watcher.stderr().split('\n').filter((l) => / in \d+ ms/.test(l)).length;
        if (batches > 0) killedWhileApplying++;
        what = `after ${made} changes in ${burstMs} ms, ${batches} batches applied`;
        changes += made;
      }
      const code = await watcher.stop('SIGKILL');
      expect(code, `cycle ${cycle}: the watcher should have been killed, it exited:\n${watcher.stderr()}`).toBeNull();
      expect(problemsIfAny(v.db), `cycle ${cycle}: integrity after kill -9 ${what}`).toEqual([]);
      log.push(`kill #${cycle + 1} ${what}`);
      // Changes while no watcher runs: the next one must pick them up in its first index.
      for (let k = pick.int(0, 5); k > 0; k--, changes++) mutator.step();
    }

    // A watcher started now catches up with everything, and then its index is a clean build's.
    ref = await cleanReference(v.dir);
    const last = startWatcher(v.dir);
    await withTimeout(last.ready, READY_TIMEOUT_MS, 'tsm watch ready');
    await expectSameAsClean(v.dir, v.db, ref, 'index kept by the restarted watcher');
    expect(await last.stop('SIGTERM'), last.stderr()).toBe(0);
    const again = tsm(['index', '--vault', v.dir, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 0, removed: 0 });

    console.log(`kill-watch (seed ${seed}): ${changes} changes\n  ${log.join('\n  ')}`);
    expect(killedWhileApplying).toBeGreaterThanOrEqual(3);
  });
});
