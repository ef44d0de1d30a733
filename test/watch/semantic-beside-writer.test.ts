// A watcher whose background training of the semantic model finishes while another writer holds the index's
// write lock (a `tsm index --full` holds it for its whole rebuild). Storing the model takes the lock: it used
// to wait inside SQLite's busy wait, which stops the whole thread — the watcher's socket, file events and
// Ctrl-C, and here the test's own timers — for 10 s, and then lost the training ("storing the retrained
// semantic model failed (database is locked)"). It now waits on a timer, as a batch does (watch-vault.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openReader } from '../../src/index/db.js';
import { SemanticStore } from '../../src/index/semantic/store.js';
import { loadConfig } from '../../src/vault/config.js';
import { watchVault } from '../../src/watch/watch-vault.js';
import { waitFor, writeFiles } from '../helpers/cli.js';

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const TOPICS = [
  ['phone', 'laptop', 'tablet', 'charger', 'screen', 'battery', 'bluetooth', 'cable'],
  ['melody', 'chord', 'rhythm', 'guitar', 'tempo', 'song', 'piano', 'lyrics'],
  ['flour', 'oven', 'dough', 'sugar', 'recipe', 'butter', 'yeast', 'crust'],
];

/** 36 notes of 10 sections (360, past the 300 a model needs), each about one topic. */
function vaultFiles(): Record<string, string> {
  let s = 7;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const files: Record<string, string> = { '.tsm/config.json': '{ "semantic": true }' };
  for (let n = 0; n < 36; n++) {
    const words = TOPICS[n % TOPICS.length];
    const parts = Array.from({ length: 10 }, (_, k) => `## Part ${k + 1}\n\n${Array.from({ length: 24 }, () => words[Math.floor(next() * words.length)]).join(' ')}\n`);
    files[`n${n}.md`] = `# Note ${n}\n\n${parts.join('\n')}`;
  }
  return files;
}

function modelKind(db: string): string | null {
  const r = openReader(db);
  try {
    return new SemanticStore(r).state()?.kind ?? null;
  } finally {
    r.close();
  }
}

it('a training done while another writer holds the lock is stored once it lets go, and the watcher keeps running meanwhile', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'tsm-sem-lock-'));
  cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
  const vault = join(parent, 'vault');
  writeFiles(vault, vaultFiles());
  const cfg = loadConfig({ vaultFlag: vault, env: {} });
  const controller = new AbortController();
  const notices: string[] = [];
  let lock: Database.Database | null = null;
  let late: number | null = null;
  const done = watchVault(cfg, {
    debounceMs: 50,
    signal: controller.signal,
    // The initial sync leaves the first training to the background; it starts right after this, and the
    // lock is taken before it.
    onReady: () => {
      lock = new Database(cfg.db);
      lock.exec('BEGIN IMMEDIATE');
      // Under vitest the training runs on this thread (no built worker), a fraction of a second for 360
      // sections; then its store waits for the lock. A timer set now must fire about on time: the old busy
      // wait held this thread for 10 s.
      const set = performance.now();
      setTimeout(() => (late = performance.now() - set - 2000), 2000);
    },
    onNotice: (m) => notices.push(m),
  });
  done.catch(() => {});
  cleanups.push(async () => {
    controller.abort();
    await done.catch(() => {});
    lock?.close();
  });
  await waitFor(() => late !== null, 30_000);
  expect(late).toBeLessThan(1500);
  expect(modelKind(cfg.db)).toBeNull();
  const held = lock as unknown as Database.Database;
  held.exec('COMMIT');
  held.close();
  lock = null;
  await waitFor(() => modelKind(cfg.db) === 'trained', 15_000);
  expect(notices.filter((m) => /failed/.test(m))).toEqual([]);
  controller.abort();
  await done;
});
