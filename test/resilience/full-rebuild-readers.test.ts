// `tsm index --full` of an index that exists keeps the old index answering until the new one is whole
// (src/index/sync.ts: one write transaction from the emptying to the semantic model's training). It used
// to empty the index in its first transaction and write the notes back in many: on the handbook a search
// found 0 results, then a growing part of them, for 13 s, then 6 s of results ranked without the semantic
// model (and no word said about it), and the prompt hook injected nothing or that meanwhile.
// Real processes on a real vault and SQLite file: the built CLI's `index --full`, `search`, `watch`.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm, tsmAsync, writeFiles } from '../helpers/cli.js';
import { startWatch, killWatchers, token, waitForSearch } from '../watch/watch-process.js';
import { generatedVault, type VaultOnDisk } from './fixture.js';
import { runAndKill } from './processes.js';
import { COMPARE_QUERIES, testSeed } from './vault-gen.js';

// No recency decay (scores must not move with the clock between two searches); the semantic model on, as by
// default: its training ends the rebuild, and searches during it must not lose it.
const CONFIG = JSON.stringify({ halfLifeDays: { daily: 0, knowledge: 0, session: 0 } });
/** Enough notes that a `--full` takes some seconds, so that several searches run during one. */
const NOTES = 1500;
const QUERY = COMPARE_QUERIES[0];

let v: VaultOnDisk;
/** What the search returned before any rebuild, and how long a `--full` takes here. */
let before: { stdout: string; fullMs: number };

/** `tsm search` as the JSON a client reads (section ids and all: the old index keeps them). */
async function search(): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return tsmAsync(['search', '--vault', v.dir, '-f', 'json', '-n', '20', QUERY]);
}

beforeAll(async () => {
  const seed = testSeed();
  v = generatedVault(seed, NOTES);
  writeFiles(v.dir, { '.tsm/config.json': CONFIG });
  expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
  // A first `--full`, timed: the index then holds what a `--full` makes (ids above every old id), and a
  // second `--full` gives the same results but for the ids.
  const started = performance.now();
  expect(tsm(['index', '--vault', v.dir, '--full']).code).toBe(0);
  const fullMs = performance.now() - started;
  const r = await search();
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).length).toBe(20);
  before = { stdout: r.stdout, fullMs };
  console.log(`full-rebuild-readers: seed ${seed}, ${NOTES} notes, --full ${Math.round(fullMs)} ms`);
}, 240_000);
afterAll(async () => {
  await killWatchers();
  v?.cleanup();
});

describe('tsm index --full of an index that exists', () => {
  it('leaves searches during it answering what they answered before it', async () => {
    const full = tsmAsync(['index', '--vault', v.dir, '--full']);
    let done = false;
    void full.then(() => (done = true));
    const during: { stdout: string; stderr: string }[] = [];
    while (!done) {
      const r = await search();
      expect(r.code).toBe(0);
      if (!done) during.push(r);
    }
    expect((await full).code).toBe(0);
    expect(during.length, 'too few searches ran during the --full: make the vault bigger').toBeGreaterThanOrEqual(3);
    // A search that began after the commit but ended before this process saw the --full exit (its WAL
    // checkpoint, its exit) answers from the new index: the same results under the new section ids (CI
    // met one). Every answer is the old index's or the new one's, whole, and never the old after the new.
    const after = await search();
    expect(after.stdout).not.toBe(before.stdout); // new ids: the two are told apart
    let sawNew = false;
    for (const r of during) {
      expect(r.stderr).not.toMatch(/being built/);
      if (r.stdout === after.stdout) sawNew = true;
      else expect(r.stdout).toBe(sawNew ? after.stdout : before.stdout);
    }
    expect(during.filter((r) => r.stdout === before.stdout).length).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('killed at any point (SIGKILL), leaves the old index answering the same, whole', async () => {
    let reference = await search();
    let fullMs = before.fullMs;
    // Early (notes being written), half way, and late (the semantic model's training). The machine is shared:
    // a rebuild that ends before its kill is timed again, is the index compared with, and is tried again.
    for (const share of [0.25, 0.5, 0.75]) {
      let outcome = await runAndKill(['index', '--vault', v.dir, '--full'], Math.round(fullMs * share));
      for (let tries = 0; !outcome.killed && tries < 3; tries++) {
        fullMs = outcome.ms;
        reference = await search();
        outcome = await runAndKill(['index', '--vault', v.dir, '--full'], Math.round(fullMs * share));
      }
      expect(outcome.killed, `the --full ended before ${share} of its time`).toBe(true);
      const conn = new Database(v.db, { readonly: true });
      expect(conn.pragma('integrity_check', { simple: true })).toBe('ok');
      conn.close();
      const r = await search();
      expect(r.stderr, `killed at ${share}`).not.toMatch(/being built/);
      expect(r.stdout, `killed at ${share}`).toBe(reference.stdout);
    }
    // And the next sync finds nothing to do: the old index is whole.
    const next = tsm(['index', '--vault', v.dir, '--json']);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ added: 0, updated: 0, removed: 0 });
  }, 240_000);

  it('a watcher running meanwhile keeps an edit made during it', async () => {
    const watcher = await startWatch(v.dir);
    const word = token('duringfull');
    const note = v.first.notes[7];
    const full = tsmAsync(['index', '--vault', v.dir, '--full']);
    // Well inside the rebuild: the watcher's batch meets the rebuild's write lock and waits its turn.
    await new Promise((r) => setTimeout(r, before.fullMs * 0.3));
    writeFiles(v.dir, { [note]: `# Edited during the rebuild\n\nThe ${word} relay was moved to the ridge.\n` });
    const r = await full;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await waitForSearch(v.dir, word, [note], 60_000);
    expect(watcher.stderr()).not.toMatch(/failed|locked|busy/i);
    await watcher.stop();
  }, 240_000);
});
