// A first build (and an older tsm's `tsm index --full`) marks the index as being built until its last step, so a
// search meanwhile says it may miss notes and the prompt hook injects nothing (src/index/build-state.ts). Any
// other sync that ended during the build — a Stop hook's one-note sync, a watcher's batch, SessionStart's
// background `tsm index` — took the mark for a stopped build's and ended it: seen on the Obsidian Hub,
// a Stop hook 1.5 s into a 10 s `--full`, then `tsm search` gave 111 of 155 results without a word and the
// prompt hook injected them. The building process is recorded with the mark now (meta `bulk_load_pid`):
// while it lives, only it ends the build; once it is gone (killed), the next sync that lists the whole
// vault ends it. Two more ways the mark was ended early, on a copy of the handbook (4,559 notes): a
// `--full` ended the mark of a second `--full` begun 7 s after it, which had emptied the index again (2,927
// notes in it, and searches said nothing for 20 s); and a Stop hook's one-note sync ended the mark of a
// `--full` killed with 864 notes written. (This tsm's `--full` writes in one transaction, so no other process
// ever sees its mark: full-rebuild-readers.test.ts. The builds of the whole index below are first builds.)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';
import { removeIndex } from './fixture.js';
import { runAndKillWhen } from './processes.js';

let vault: { dir: string; cleanup: () => void };
let other: ChildProcess | undefined;
const db = () => join(vault.dir, '.tsm', 'index.db');

/** The mark a build sets at its start (note-writer.ts beginBulkLoad), by process `pid`. */
function markBuildBy(pid: number): void {
  const conn = new Database(db());
  conn.exec("INSERT INTO sections_fts (sections_fts, rank) VALUES ('automerge', 0)");
  conn.exec("INSERT INTO notes_fts (notes_fts, rank) VALUES ('automerge', 0)");
  conn.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('bulk_load_pid', ?)").run(String(pid));
  conn.close();
}

const incomplete = () => /the index is being built/.test(tsm(['search', '--vault', vault.dir, 'antenna']).stderr);

beforeAll(() => {
  assertBuilt();
  vault = makeVault({
    'knowledge/antenna.md': '# Antenna\n\nThe quarter-wave whip antenna gives the best range.\n',
    'knowledge/battery.md': '# Battery\n\nThe battery lasts three days with the antenna on.\n',
  });
  expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
});
afterEach(async () => {
  if (other && other.exitCode === null && other.signalCode === null) {
    other.kill('SIGKILL');
    await new Promise((r) => other!.once('exit', r)); // reaped: a zombie's pid still answers kill(pid, 0)
  }
  other = undefined;
});
afterAll(() => vault.cleanup());

describe("another sync during a build of the whole index", () => {
  it('leaves the mark of a build whose process still runs', async () => {
    other = spawn('sleep', ['60']);
    markBuildBy(other.pid!);
    expect(incomplete()).toBe(true);
    // A hook's sync of one note, and a whole-vault incremental sync, while that build runs.
    const r = tsm(['index', '--vault', vault.dir, '--files-from-stdin'], { input: 'knowledge/antenna.md\n' });
    expect(r.code).toBe(0);
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    expect(incomplete()).toBe(true);
  });

  it('ends the mark of a build whose process is gone (killed) at the next sync of the whole vault, not of a few notes', async () => {
    other = spawn('sleep', ['60']);
    const pid = other.pid!;
    markBuildBy(pid);
    other.kill('SIGKILL');
    await new Promise((r) => other!.once('exit', r));
    // The build wrote only some notes: one note's sync does not write the rest.
    expect(tsm(['index', '--vault', vault.dir, '--files-from-stdin'], { input: 'knowledge/antenna.md\n' }).code).toBe(0);
    expect(incomplete()).toBe(true);
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    expect(incomplete()).toBe(false);
    const conn = new Database(db(), { readonly: true });
    expect(conn.prepare("SELECT value FROM meta WHERE key = 'bulk_load_pid'").get()).toBeUndefined();
    conn.close();
  });
});

describe('builds of the whole index of 1,500 notes', () => {
  let big: { dir: string; cleanup: () => void };
  const bigDb = () => join(big.dir, '.tsm', 'index.db');
  beforeAll(() => {
    const notes: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) notes[`notes/n${i}.md`] = `# Note ${i}\n\nThe relay ${i} keeps the collar antenna in range of base ${i % 7}.\n`;
    big = makeVault(notes);
    expect(tsm(['index', '--vault', big.dir]).code).toBe(0);
  });
  afterAll(() => big.cleanup());
  const bigIncomplete = () => /the index is being built/.test(tsm(['search', '--vault', big.dir, 'relay']).stderr);

  it('the first of two to end leaves the mark of the one that emptied the index after it began', async () => {
    removeIndex(bigDb());
    const first = spawn(process.execPath, [TSM, 'index', '--vault', big.dir], { env: cleanEnv(), stdio: 'ignore' });
    const firstExit = new Promise<number | null>((r) => first.once('exit', (code) => r(code)));
    other = spawn('sleep', ['60']);
    // What a second build does at its start (beginRebuild; an older tsm's `--full`), here while the first
    // still writes: it empties the index and takes the mark. The emptying is left out: the mark is what is tested.
    let taken = false;
    for (let tries = 0; tries < 2000 && !taken; tries++) {
      // Opened once the build has made the file (opening first would make an empty one), each time: its schema comes in a while.
      const conn = existsSync(bigDb()) ? new Database(bigDb(), { timeout: 20_000 }) : null;
      try {
        const mark = conn?.prepare("SELECT value FROM meta WHERE key = 'bulk_load_pid'").pluck().get() as string | undefined;
        taken = conn !== null && mark === String(first.pid) && conn.prepare("UPDATE meta SET value = ? WHERE key = 'bulk_load_pid' AND value = ?").run(String(other.pid), mark).changes === 1;
      } catch {
        // no schema yet
      } finally {
        conn?.close();
      }
      if (!taken) await new Promise((r) => setTimeout(r, 5));
    }
    expect(taken, 'the first build ended before its mark was seen: make the vault bigger').toBe(true);
    expect(await firstExit).toBe(0);
    expect(bigIncomplete()).toBe(true);
  }, 60_000);

  // A build killed (its mark left), its pid then given to another process: by the pid alone the build was
  // taken for running, and its mark kept, until the next rebuild.
  it.skipIf(!existsSync('/proc/self/stat'))('a sync ends the mark of a killed build whose pid another process has now (Linux: it started after the build)', async () => {
    expect(tsm(['index', '--vault', big.dir]).code).toBe(0); // ends the previous case's mark
    expect(bigIncomplete()).toBe(false);
    // A first build, killed once its mark is there (read by a connection of its own each time: the file is
    // made by the build).
    removeIndex(bigDb());
    const mark = (): string | undefined => {
      if (!existsSync(bigDb())) return undefined;
      const reader = new Database(bigDb(), { readonly: true });
      try {
        return reader.prepare("SELECT value FROM meta WHERE key = 'bulk_load_pid'").pluck().get() as string | undefined;
      } catch {
        return undefined; // no schema yet
      } finally {
        reader.close();
      }
    };
    const killed = await runAndKillWhen(['index', '--vault', big.dir], () => mark() !== undefined);
    const recorded = mark();
    expect(killed.killed && recorded !== undefined, 'the build ended before its mark was seen').toBe(true);
    other = spawn('sleep', ['60']);
    const conn = new Database(bigDb());
    // The build began a minute ago (bulk_load_since), before the process that has its pid now.
    expect(recorded).toMatch(/^\d+$/); // a bare pid, as an older tsm reads it
    conn.prepare("UPDATE meta SET value = ? WHERE key = 'bulk_load_pid'").run(String(other.pid));
    conn.prepare("UPDATE meta SET value = ? WHERE key = 'bulk_load_since'").run(`${other.pid}@${Date.now() - 60_000}`);
    conn.close();
    expect(tsm(['index', '--vault', big.dir]).code).toBe(0);
    expect(bigIncomplete()).toBe(false);
  }, 60_000);
});
