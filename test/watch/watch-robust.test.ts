// `tsm watch` end to end: other processes beside it, signals mid-batch, a vanishing vault, and running
// out of watch handles.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, tsmAsync, writeFiles } from '../helpers/cli.js';
import {
  indexChanges,
  noteCount,
  searchPaths,
  startWatch,
  token,
  waitForSearch,
  useWatchVaults,
} from './watch-process.js';
import { waitFor } from '../helpers/cli.js';

const requireCjs = createRequire(import.meta.url);

function integrityCheck(dbPath: string): string[] {
  const Database = requireCjs('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  } finally {
    db.close();
  }
}

const { vault, later } = useWatchVaults();

const note = (word: string) => `# Note\n\n${word}\n`;

describe('tsm watch beside other processes', () => {
  it('shares the index with tsm index and searches: no lock errors, no lost update', { timeout: 120_000 }, async () => {
    const word = token('shared');
    const seed: Record<string, string> = {};
    for (let i = 0; i < 300; i++) seed[`bulk/n${i}.md`] = note(`filler${i}`);
    const dir = vault(seed);
    const w = await startWatch(dir);

    const expected: string[] = [];
    const others: Promise<{ code: number | null; stderr: string }>[] = [];
    for (let round = 0; round < 6; round++) {
      const batch: Record<string, string> = {};
      for (let i = 0; i < 5; i++) batch[`live/r${round}-${i}.md`] = note(word);
      writeFiles(dir, batch);
      expected.push(...Object.keys(batch));
      // A full rebuild by hand, an incremental index and searches, all while the watcher writes.
      others.push(tsmAsync(['index', '--vault', dir, ...(round % 3 === 0 ? ['--full'] : [])]));
      others.push(tsmAsync(['search', '--vault', dir, word]));
      others.push(tsmAsync(['search', '--vault', dir, '-f', 'xml', `filler${round}`]));
      await new Promise((r) => setTimeout(r, 100)); // spread the writes over several batches
    }
    const results = await Promise.all(others);
    for (const r of results) {
      expect(r.stderr).not.toMatch(/locked|busy/i);
      expect(r.code, r.stderr).toBe(0);
    }
    await waitForSearch(dir, word, expected, 30_000);
    expect(w.stderr()).not.toMatch(/locked|busy|failed/i);
    expect(await searchPaths(dir, 'filler299')).toEqual(['bulk/n299.md']);
  });
});

describe('tsm watch: stopping', () => {
  it('finishes the batch in hand on SIGINT, then exits 0 with the index whole', { timeout: 120_000 }, async () => {
    const word = token('inhand');
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir, ['--debounce', '400']);
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`many/n${i}.md`] = note(`${word} item${i}`);
    // The 600 notes come as one folder moved in, so they are one batch (docs/watch.md: a folder added is a rescan,
    // which reads every note there at once). Written straight into the vault they were one batch only if all 600
    // writes fit in the batch's window (400 ms of quiet, 2 s at most): on a loaded machine the writes took 2.3–4.7 s
    // and the watcher applied them as two batches (e.g. 316 added, then 284), so no line said 600 added.
    const staging = mkdtempSync(join(tmpdir(), 'tsm-watch-staging-'));
    later(() => rmSync(staging, { recursive: true, force: true }));
    writeFiles(staging, files);
    renameSync(join(staging, 'many'), join(dir, 'many'));
    // Stop as soon as the batch has started writing (its first notes are searchable).
    await waitFor(async () => (await searchPaths(dir, word)).length > 0, 30_000, 20);
    expect(await w.stop('SIGINT')).toBe(0);
    const err = w.stderr();
    expect(err).toMatch(/SIGINT: finishing the batch in hand/);
    expect(err.indexOf('600 added')).toBeGreaterThan(-1);
    expect(err.indexOf('600 added')).toBeLessThan(err.indexOf('tsm watch: stopped'));
    // The whole batch landed: every note is there, and a fresh `tsm index` finds nothing left to do.
    expect(noteCount(dir)).toBe(601);
    expect(await searchPaths(dir, 'item599')).toEqual(['many/n599.md']);
    expect(integrityCheck(join(dir, '.tsm/index.db'))).toEqual(['ok']);
    expect(indexChanges(dir)).toEqual({ added: 0, updated: 0, removed: 0 });
  });

  it('stops at once on SIGINT before the first sync ended: exit 130, no pid file, and tsm index goes on from there', { timeout: 120_000 }, async () => {
    const word = token('firstsync');
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`bulk/n${i}.md`] = `# Note ${i}\n\n${word} item${i}\n\n${'filler text '.repeat(40)}\n`;
    const dir = vault(files);
    const w = await startWatch(dir, [], { waitReady: false });
    // The index file is made as the first sync opens it: the signal lands while that sync runs (3,000 notes).
    await waitFor(() => existsSync(join(dir, '.tsm/index.db')), 60_000, 10);
    expect(await w.stop('SIGINT')).toBe(130);
    const err = w.stderr();
    expect(err).toMatch(/tsm watch: SIGINT before the first sync ended: stopping now/);
    expect(err).not.toMatch(/tsm watch: watching /);
    expect(err).not.toMatch(/finishing the batch in hand/);
    expect(existsSync(join(dir, '.tsm/watch.pid'))).toBe(false);
    // What it wrote stays; the next tsm index writes the rest, and the index is whole.
    const r = tsm(['index', '--vault', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // The first sync did not run on to its end: the notes it had not written are this sync's.
    expect((JSON.parse(r.stdout) as { added: number }).added).toBeGreaterThan(0);
    expect(noteCount(dir)).toBe(3000);
    expect(integrityCheck(join(dir, '.tsm/index.db'))).toEqual(['ok']);
    expect(await searchPaths(dir, 'item2999')).toEqual(['bulk/n2999.md']);
    expect(indexChanges(dir)).toEqual({ added: 0, updated: 0, removed: 0 });
  });

  it('survives kill -9 mid-batch: the next tsm index gives an intact index equal to a clean build', { timeout: 120_000 }, async () => {
    const word = token('killed');
    const dir = vault({ 'a.md': `# A\n\n${word}\n` });
    const w = await startWatch(dir);
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`many/n${i}.md`] = note(`${word} item${i}`);
    writeFiles(dir, files);
    await waitFor(async () => (await searchPaths(dir, word)).length > 1, 30_000, 20);
    expect(await w.stop('SIGKILL')).toBeNull();

    const status = JSON.parse(tsm(['status', '--vault', dir, '--json']).stdout) as { watcher: unknown };
    expect(status.watcher).toBeNull(); // the pid file left behind names a dead process
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    expect(integrityCheck(join(dir, '.tsm/index.db'))).toEqual(['ok']);
    const queries = [word, 'item0', 'item599', 'item300'];
    const after = await Promise.all(queries.map((q) => searchPaths(dir, q)));
    expect(tsm(['index', '--vault', dir, '--full']).code).toBe(0);
    expect(await Promise.all(queries.map((q) => searchPaths(dir, q)))).toEqual(after);
    expect(noteCount(dir)).toBe(601);
  });

  it('stops (exit 1, its pid file removed) once another tsm changed the index to another schema, instead of retrying forever', async () => {
    const dir = vault({ 'a.md': note(token('before')) });
    const w = await startWatch(dir);
    // What another tsm's migration leaves: the index of another schema version (db.ts assertSchema).
    const Database = requireCjs('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(join(dir, '.tsm/index.db'));
    db.prepare("UPDATE meta SET value = '999' WHERE key = 'schema_version'").run();
    db.close();
    writeFileSync(join(dir, 'b.md'), note(token('after')));
    expect(await w.exited).toBe(1);
    expect(w.stderr()).toMatch(/tsm: the index at .* is now schema version 999 \(another tsm changed it\), .*nothing was written; restart it with the tsm that changed the index \(tsm --version\); stopped watching/);
    expect(w.stderr()).not.toMatch(/retrying/);
    expect(existsSync(join(dir, '.tsm/watch.pid'))).toBe(false);
  });

  it('rebuilds an index file deleted under it within seconds, not at the next change of the vault', async () => {
    // Its connection kept the deleted file's -wal and -shm, which a new index.db at the path would share: every
    // `tsm search`, `tsm index` (what the message advised) and prompt hook failed with "disk I/O error; a full
    // disk …?" until a note changed and the batch rebuilt the index, maybe hours later.
    const word = token('kept');
    const dir = vault({ 'a.md': note(word) });
    const w = await startWatch(dir);
    writeFileSync(join(dir, 'b.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md']);
    rmSync(join(dir, '.tsm', 'index.db'));
    await waitFor(() => /index file .* was deleted or replaced; rebuilding it/.test(w.stderr()) && /2 added/.test(w.stderr()), 10_000);
    expect(await searchPaths(dir, word)).toEqual(['a.md', 'b.md']);
    expect(await w.stop()).toBe(0);
  });

  it('rebuilds an index file overwritten in place (same inode) with what is no database, keeping the old one aside', async () => {
    // Same file, same identity: the watcher went on with its connection, its batches failed for good
    // ("database disk image is malformed", no fix named) and readers said the index was unusable.
    const word = token('over');
    const dir = vault({ 'a.md': note(word) });
    const w = await startWatch(dir);
    writeFileSync(join(dir, 'b.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md']);
    const db = join(dir, '.tsm', 'index.db');
    const inode = statSync(db).ino;
    writeFileSync(db, randomBytes(50_000)); // `head -c 50000 /dev/urandom > .tsm/index.db`
    expect(statSync(db).ino).toBe(inode);
    await waitFor(() => /index file .* is no longer a usable database \(overwritten or damaged\); rebuilding it/.test(w.stderr()) && /2 added/.test(w.stderr()), 10_000);
    expect(await searchPaths(dir, word)).toEqual(['a.md', 'b.md']);
    expect(readdirSync(join(dir, '.tsm')).filter((f) => f.startsWith('index.db.corrupt-'))).toHaveLength(1);
    expect(await w.stop()).toBe(0);
  });

  it('rebuilds an index damaged past its header, once a batch meets the damage', async () => {
    // The header still reads as SQLite's, so only a read finds it: the batch failed ("database disk image is
    // malformed") and was retried on the same damage forever.
    const word = token('pages');
    const files: Record<string, string> = {};
    for (let n = 0; n < 30; n++) files[`n${n}.md`] = note(`${word} ${randomBytes(2000).toString('base64')}`);
    const dir = vault(files);
    const w = await startWatch(dir);
    const db = join(dir, '.tsm', 'index.db');
    await waitFor(() => statSync(`${db}-wal`, { throwIfNoEntry: false })?.size === 0, 10_000); // all of it in index.db
    const size = statSync(db).size;
    const fd = openSync(db, 'r+');
    writeSync(fd, randomBytes(size - 100), 0, size - 100, 100);
    closeSync(fd);
    writeFileSync(join(dir, 'new.md'), note(word));
    await waitFor(() => /a batch failed \(the index at .* is damaged \(database disk image is malformed\)/.test(w.stderr()) && /31 added/.test(w.stderr()), 10_000);
    expect(w.stderr()).toMatch(/is no longer a usable database \(overwritten or damaged\); rebuilding it/);
    expect(await searchPaths(dir, word)).toHaveLength(31);
    expect(await w.stop()).toBe(0);
  });

  it('leaves a --db file outside .tsm overwritten with what is no tsm index as it is, and names the fix', async () => {
    const word = token('theirs');
    const dir = vault({ 'a.md': note(word) });
    const dbDir = mkdtempSync(join(tmpdir(), 'tsm-own-db-'));
    later(() => rmSync(dbDir, { recursive: true, force: true }));
    const db = join(dbDir, 'mine.db');
    const w = await startWatch(dir, ['--db', db]);
    const theirs = randomBytes(50_000);
    writeFileSync(db, theirs);
    await waitFor(() => /is not a tsm index .*tsm leaves it as it is: give --db a new file name/.test(w.stderr()), 10_000);
    expect(readFileSync(db).equals(theirs)).toBe(true);
    expect(readdirSync(dbDir).filter((f) => f.includes('corrupt'))).toEqual([]);
    expect(await w.stop()).toBe(0);
    expect(readFileSync(db).equals(theirs)).toBe(true); // not even its close wrote to it
  });

  it('a command that meets the old -wal of an index deleted under a watcher names the watcher, not a full disk', async () => {
    // Within the second before the watcher rebuilds it, `tsm search` made a new index.db that shares the old
    // -wal and -shm, and SQLite said "disk I/O error"; the message asked about a full disk. It takes a -wal
    // that holds a rebuild (the first deletion's) and a change after it. The watcher is paused (SIGSTOP) so
    // that the second lasts as long as the test needs.
    const word = token('held');
    const dir = vault({ 'a.md': note(word) });
    const w = await startWatch(dir);
    writeFileSync(join(dir, 'b.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md']);
    rmSync(join(dir, '.tsm', 'index.db'));
    await waitFor(() => /2 added/.test(w.stderr()), 10_000);
    writeFileSync(join(dir, 'c.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md', 'c.md']);
    w.child.kill('SIGSTOP');
    try {
      rmSync(join(dir, '.tsm', 'index.db'));
      const r = await tsmAsync(['search', word, '--vault', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`(disk I/O error): \`tsm watch\` (pid ${w.child.pid}) runs for this vault`);
      expect(r.stderr).toMatch(/opens the index again within a second: run the command again, or stop the watcher\n$/);
      expect(r.stderr).not.toMatch(/full disk/);
    } finally {
      w.child.kill('SIGCONT');
    }
    await waitFor(() => /3 added/.test(w.stderr()), 10_000);
    await waitForSearch(dir, word, ['a.md', 'b.md', 'c.md']);
    expect(await w.stop()).toBe(0);
  });

  it('the -wal deleted under a watcher: it writes what the file held into the index and opens it again, so searches answer', async () => {
    // The watcher went on writing to the deleted -wal, and every `tsm search`, `tsm index` and hook failed
    // with "disk I/O error" until it stopped (its message said it would rebuild the index within a second).
    // Now it notices within a second (its vault check), as it notices the index file itself deleted.
    const word = token('walgone');
    const dir = vault({ 'a.md': note(word) });
    const w = await startWatch(dir);
    writeFileSync(join(dir, 'b.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md']);
    rmSync(join(dir, '.tsm', 'index.db-wal'));
    // The batch's line comes once the index is open again (its notice comes before the checkpoint).
    await waitFor(() => /rescan: the index's -wal file was deleted\)/.test(w.stderr()), 10_000);
    expect(w.stderr()).toMatch(/index\.db-wal was deleted; opening the index again/);
    // b.md was in the deleted -wal only: the checkpoint (or the rescan) kept it.
    await waitForSearch(dir, word, ['a.md', 'b.md']);
    writeFileSync(join(dir, 'c.md'), note(word));
    await waitForSearch(dir, word, ['a.md', 'b.md', 'c.md']);
    expect(await w.stop()).toBe(0);
    const clean = tsm(['index', '--vault', dir]);
    expect(clean.stdout).toMatch(/^0 added, 0 updated, 0 removed, 3 unchanged/);
  });

  it('says so and exits 1 when the vault folder disappears, keeping the index', async () => {
    const word = token('kept');
    const parent = mkdtempSync(join(tmpdir(), 'tsm-gone-'));
    later(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, 'vault');
    const db = join(parent, 'index.db');
    writeFiles(dir, { 'a.md': note(word) });
    const w = await startWatch(dir, ['--db', db]);
    renameSync(dir, join(parent, 'elsewhere'));
    expect(await w.exited).toBe(1);
    expect(w.stderr()).toContain(`tsm: the vault folder ${dir} has disappeared; stopped watching (the index at ${db} is kept)`);
    renameSync(join(parent, 'elsewhere'), dir);
    const r = tsm(['search', '--vault', dir, '--db', db, '-f', 'json', word]);
    expect((JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path)).toEqual(['a.md']);
  });

  it('and when another folder takes the vault folder\'s place (moved away, a new one made there at once)', async () => {
    // Checked by path alone, the swap went unseen: the watcher ran on, watching the moved folder, and edits
    // in the new one never reached the index, while `tsm status` showed it running (so the hooks synced nothing).
    const parent = mkdtempSync(join(tmpdir(), 'tsm-swap-'));
    later(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, 'vault');
    writeFiles(dir, { 'a.md': '# A\n' });
    writeFiles(join(parent, 'new'), { 'a.md': '# A\n', 'b.md': '# B\n' });
    const w = await startWatch(dir, ['--db', join(parent, 'index.db')]);
    renameSync(dir, join(parent, 'old'));
    renameSync(join(parent, 'new'), dir);
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 5000));
    expect(await Promise.race([w.exited, timeout])).toBe(1);
    expect(w.stderr()).toMatch(/tsm: the vault folder .*vault was replaced by another folder; stopped watching: start `tsm watch[^`]*` again/);
  });

  it('also when the vault is deleted outright', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tsm-gone-'));
    later(() => rmSync(parent, { recursive: true, force: true }));
    const dir = join(parent, 'vault');
    writeFiles(dir, { 'a.md': '# A\n', 'sub/b.md': '# B\n' });
    const w = await startWatch(dir);
    rmSync(dir, { recursive: true });
    expect(await w.exited).toBe(1);
    // Its index lay inside it: the line said "(the index is kept)" of a file `rm -rf` had just deleted.
    expect(w.stderr()).toContain(`tsm: the vault folder ${dir} has disappeared; stopped watching (its index, inside it, went with it)`);
    expect(w.stderr()).not.toMatch(/is kept/);
    expect(existsSync(dir)).toBe(false);
  });
});

/** A user namespace with its own (tiny) inotify limit: real ENOSPC without touching the host's limit. */
function canLimitWatches(): boolean {
  const r = spawnSync('unshare', ['-U', '-r', 'sh', '-c', 'echo 10 > /proc/sys/user/max_inotify_watches'], { encoding: 'utf8' });
  return r.status === 0;
}

describe('tsm watch: out of watch handles', () => {
  it.skipIf(process.platform !== 'linux' || !canLimitWatches())(
    'falls back to polling on ENOSPC, says so, and still sees every change',
    { timeout: 60_000 },
    async () => {
      const word = token('polled');
      const files: Record<string, string> = {};
      for (let i = 0; i < 40; i++) files[`f${i % 4}/n${i}.md`] = note(`seed${i}`);
      const dir = vault(files);
      const wrapper = ['unshare', '-U', '-r', 'sh', '-c', 'echo 20 > /proc/sys/user/max_inotify_watches && exec "$@"', 'sh'];
      const w = await startWatch(dir, [], { wrapper });
      expect(w.stderr()).toMatch(/ENOSPC/);
      expect(w.stderr()).toMatch(/max_user_watches/);
      expect(w.stderr()).toMatch(/falling back to polling/);
      expect(w.stderr()).toMatch(/watching .*\(40 notes, polling\)/);
      writeFileSync(join(dir, 'f1/n1.md'), note(word));
      writeFiles(dir, { 'newdir/x.md': note(word) });
      await waitForSearch(dir, word, ['f1/n1.md', 'newdir/x.md']);
      rmSync(join(dir, 'f2'), { recursive: true });
      await waitForSearch(dir, 'seed2', []);
      expect(await w.stop('SIGTERM')).toBe(0);
    },
  );

  it.skipIf(process.platform !== 'linux' || !canLimitWatches())(
    'out of inotify instances (EMFILE with file descriptors to spare): names that limit, not `ulimit -n`',
    { timeout: 60_000 },
    async () => {
      // Other programs holding the user's 128 instances, as editors and watchers do: before, the advice
      // was to raise `ulimit -n`, which changes nothing.
      const word = token('instances');
      const dir = vault({ 'a.md': note('seed') });
      const wrapper = ['unshare', '-U', '-r', 'sh', '-c', 'echo 0 > /proc/sys/user/max_inotify_instances && exec "$@"', 'sh'];
      const w = await startWatch(dir, [], { wrapper });
      expect(w.stderr()).toMatch(/inotify instances .*EMFILE.*fs\.inotify\.max_user_instances=1024.*falling back to polling/);
      expect(w.stderr()).not.toMatch(/ulimit/);
      writeFileSync(join(dir, 'b.md'), note(word));
      await waitForSearch(dir, word, ['b.md']);
      expect(await w.stop('SIGTERM')).toBe(0);
    },
  );

  it('polls when asked to (--poll)', async () => {
    const word = token('asked');
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir, ['--poll']);
    expect(w.stderr()).toMatch(/\(1 note, polling\)/);
    writeFileSync(join(dir, 'b.md'), note(word));
    await waitForSearch(dir, word, ['b.md']);
  });
});
