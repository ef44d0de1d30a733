// docs/reliability.md: `kill -9` of `tsm index` at any moment leaves either the previous or the new state of each
// note (never half a note), and the next `tsm index` converges to what a clean build gives.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm } from '../helpers/cli.js';
import { cleanReference, expectSameAsClean, generatedVault, removeIndex, switchVault, type Reference, type VaultOnDisk } from './fixture.js';
import { inspectIndex, wholeNoteDifferences, type IndexDump } from './index-check.js';
import { runAndKill, runAndKillWhen } from './processes.js';
import { laterVault, Picker, rng, testSeed, type GeneratedVault } from './vault-gen.js';

const NOTES = 400;
/** Notes changed between the two versions: fewer than sync's parallel threshold, so one transaction each. */
const EDITS = 120;
/** Three modes × four strata of the build's duration. */
const KILL_POINTS = 12;
const MODES = ['fresh', 'full', 'update'] as const;
type Mode = (typeof MODES)[number];

const seed = testSeed();
let vault: VaultOnDisk;
const versions: { files: GeneratedVault; ref: Reference }[] = [];
const durationMs: Record<Mode, number> = { fresh: 0, full: 0, update: 0 };
/** Notes the same in both versions. */
let unchanged = 0;

function timed(args: string[]): number {
  const started = performance.now();
  const r = tsm(args);
  if (r.code !== 0) throw new Error(`tsm ${args.join(' ')} failed: ${r.stderr}`);
  return performance.now() - started;
}

/**
 * The state a kill left: a healthy file whose every note is whole and equal to that note in a clean
 * build of one of the vault's versions. Returns how many notes it holds of the version on disk now.
 */
function expectWholeNotes(label: string, target: number): { notes: number; current: number } {
  if (!existsSync(vault.db)) return { notes: 0, current: 0 }; // killed before the file was created
  const { problems, dump } = inspectIndex(vault.db);
  expect(problems, `${label}: integrity after the kill`).toEqual([]);
  if (dump === null) return { notes: 0, current: 0 }; // killed while creating the schema
  const refs = versions.map((v) => v.ref.dump);
  expect(wholeNoteDifferences(dump, refs).slice(0, 10), `${label}: half-written notes after the kill`).toEqual([]);
  const want = refs[target];
  let current = 0;
  for (const [path, note] of dump.notes) if (JSON.stringify(want.notes.get(path)?.sections) === JSON.stringify(note.sections)) current++;
  return { notes: dump.notes.size, current };
}

describe('kill -9 during tsm index', { timeout: 150_000 }, () => {
  beforeAll(async () => {
    assertBuilt();
    console.log(`kill-index: seed ${seed} (replay with TSM_TEST_SEED=${seed})`);
    vault = generatedVault(seed, NOTES);
    const later = laterVault(seed, vault.first, EDITS);
    versions.push({ files: vault.first, ref: await cleanReference(vault.dir) });
    durationMs.fresh = versions[0].ref.buildMs;
    timed(['index', '--vault', vault.dir]);
    durationMs.full = timed(['index', '--vault', vault.dir, '--full']);
    switchVault(vault, later);
    versions.push({ files: later, ref: await cleanReference(vault.dir) });
    durationMs.update = timed(['index', '--vault', vault.dir]);
    const [a, b] = versions.map((v) => v.ref.dump.notes);
    unchanged = [...a].filter(([path, note]) => JSON.stringify(b.get(path)?.sections) === JSON.stringify(note.sections)).length;
    const ms = (m: Mode) => `${Math.round(durationMs[m])} ms`;
    console.log(`kill-index: ${a.size} notes; fresh build ${ms('fresh')}, --full ${ms('full')}, update of ${b.size - unchanged} notes ${ms('update')}`);
  }, 90_000);

  afterAll(() => {
    for (const v of versions) v.ref.cleanup();
    vault?.cleanup();
  });

  it(`converges to a clean build after ${KILL_POINTS} kills in fresh, --full and incremental builds`, async () => {
    const pick = new Picker(rng(seed));
    const log: string[] = [];
    let killed = 0;
    let caughtMidWrite = 0;
    let target = 1; // the later version is on disk and indexed
    // A run that finishes before its kill teaches the real duration; the point is tried again (a few times).
    for (let i = 0, attempt = 1; i < KILL_POINTS && attempt <= KILL_POINTS + 4; attempt++) {
      const mode = MODES[i % MODES.length];
      const strata = KILL_POINTS / MODES.length;
      const stratum = Math.floor(i / MODES.length);
      // Spread over the whole run in strata: start-up, schema, parsing, write transactions, links.
      const delay = Math.round(((stratum + pick.random()) / strata) * durationMs[mode] * 0.8);
      if (mode === 'fresh') removeIndex(vault.db);
      if (mode === 'update') {
        target = 1 - target;
        switchVault(vault, versions[target].files);
      }
      const outcome = await runAndKill(['index', '--vault', vault.dir, ...(mode === 'full' ? ['--full'] : [])], delay);
      const label = `kill #${i + 1} (${mode}, ${delay} ms)`;
      if (!outcome.killed) {
        expect(outcome.code, `${label}: ${outcome.stderr}`).toBe(0);
        durationMs[mode] = Math.min(durationMs[mode], outcome.ms);
      }
      const left = expectWholeNotes(label, target);
      const total = versions[target].ref.dump.notes.size;
      if (outcome.killed) {
        killed++;
        i++;
      }
      const midWrite = mode === 'update' ? left.current > unchanged && left.current < total : left.notes > 0 && left.notes < total;
      if (outcome.killed && midWrite) caughtMidWrite++;

      // Every third point also kills the recovery half-way: recovering from a recovery must work too.
      if (attempt % 3 === 0) {
        const again = await runAndKill(['index', '--vault', vault.dir], Math.round(pick.random() * durationMs.update));
        expectWholeNotes(`${label}, recovery killed after ${again.ms} ms`, target);
      }

      const recovery = tsm(['index', '--vault', vault.dir]);
      expect(recovery.code, `${label}: recovery failed: ${recovery.stderr}`).toBe(0);
      await expectSameAsClean(vault.dir, vault.db, versions[target].ref, label);
      const state = outcome.killed ? `killed with ${left.notes} notes (${left.current} current)` : 'finished before the kill';
      log.push(`${label}: ${state}; recovery: ${recovery.stdout.trim()}`);
    }
    console.log(`kill-index (seed ${seed}): ${caughtMidWrite} kills between two notes\n  ${log.join('\n  ')}`);
    // The test only proves something if the kills hit running builds.
    expect(killed).toBeGreaterThanOrEqual(10);
  });

  it('converges after kills right between two notes of an incremental update', async () => {
    // Random delays may miss the short stretch where notes are written one by one; these kills wait for
    // the first written note (seen by a reader, as a search would) and strike at once.
    for (let round = 0; round < 2; round++) {
      // Each round updates the index to the other version of the vault.
      const target = vault.current === versions[0].files ? 1 : 0;
      switchVault(vault, versions[target].files);
      const wanted = versions[target].ref.dump;
      const startCount = currentNotes(wanted);
      const outcome = await runAndKillWhen(['index', '--vault', vault.dir], () => currentNotes(wanted) > startCount);
      const label = `kill between notes #${round + 1} (after ${outcome.ms} ms)`;
      expect(outcome.killed, `${label}: the update finished before the kill`).toBe(true);
      const left = expectWholeNotes(label, target);
      expect(left.current, `${label}: some notes of the new version written`).toBeGreaterThan(startCount);
      expect(left.current, `${label}: not all of them`).toBeLessThan(wanted.notes.size);
      const recovery = tsm(['index', '--vault', vault.dir]);
      expect(recovery.code, recovery.stderr).toBe(0);
      await expectSameAsClean(vault.dir, vault.db, versions[target].ref, label);
    }
  });
});

/** Notes of the index equal to `wanted`'s version, read the way any reader would (quick, read-only). */
function currentNotes(wanted: IndexDump): number {
  if (!existsSync(vault.db)) return 0;
  const db = new Database(vault.db, { readonly: true, fileMustExist: true });
  try {
    let n = 0;
    for (const r of db.prepare('SELECT path, hash FROM notes').all() as { path: string; hash: string }[]) {
      if (wantedHashes(wanted).get(r.path) === r.hash) n++;
    }
    return n;
  } finally {
    db.close();
  }
}

const hashCache = new WeakMap<IndexDump, Map<string, string>>();
function wantedHashes(dump: IndexDump): Map<string, string> {
  let m = hashCache.get(dump);
  if (!m) {
    m = new Map([...dump.notes].map(([path, note]) => [path, (JSON.parse(note.fields) as { hash: string }).hash]));
    hashCache.set(dump, m);
  }
  return m;
}
