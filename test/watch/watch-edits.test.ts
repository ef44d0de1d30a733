// `tsm watch` end to end: what editors do to single notes, checked through `tsm search`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, waitFor } from '../helpers/cli.js';
import {
  noteCount,
  relatedJson,
  searchPaths,
  startWatch,
  token,
  waitForSearch,
  waitForValue,
  useWatchVaults,
} from './watch-process.js';

const { vault, later } = useWatchVaults();

/** A live process whose command line is a watcher's (`node …/bin/tsm watch`), stopped after the test. */
function standInWatcher(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '/opt/tsm/bin/tsm', 'watch'], { stdio: 'ignore' });
  later(() => child.kill());
  return child;
}

describe('tsm watch: start and stop', () => {
  it('indexes what is there, shows in tsm status, and exits 0 on SIGTERM', async () => {
    const word = token('start');
    const dir = vault({ 'a.md': `# A\n\n${word}\n`, 'sub/b.md': `# B\n\n${word}\n` });
    const w = await startWatch(dir);
    expect(w.stderr()).toMatch(/tsm watch: watching .* \(2 notes\)/);
    await waitForSearch(dir, word, ['a.md', 'sub/b.md']);

    const status = JSON.parse(tsm(['status', '--vault', dir, '--json']).stdout) as { watcher: { pid: number } | null };
    expect(status.watcher?.pid).toBe(w.child.pid);

    expect(await w.stop('SIGTERM')).toBe(0);
    expect(w.stderr()).toMatch(/tsm watch: stopped/);
    const after = JSON.parse(tsm(['status', '--vault', dir, '--json']).stdout) as { watcher: unknown };
    expect(after.watcher).toBeNull();
  });

  it('exits 0 on SIGINT too', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    expect(await w.stop('SIGINT')).toBe(0);
  });

  it('stops as cleanly on SIGHUP (its terminal closed, a logout), leaving no watch.pid', async () => {
    // Node resets SIGHUP to "terminate" at start-up, even under nohup: without a handler the watcher died
    // mid-batch and left .tsm/watch.pid naming a dead process.
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    expect(existsSync(join(dir, '.tsm', 'watch.pid'))).toBe(true);
    expect(await w.stop('SIGHUP')).toBe(0);
    expect(w.stderr()).toMatch(/SIGHUP: finishing the batch in hand[\s\S]*tsm watch: stopped/);
    expect(existsSync(join(dir, '.tsm', 'watch.pid'))).toBe(false);
  });

  it('catches up with changes made while it was not running', async () => {
    const old = token('old');
    const fresh = token('fresh');
    const dir = vault({ 'a.md': `# A\n\n${old}\n`, 'gone.md': `# G\n\n${old}\n` });
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    writeFileSync(join(dir, 'a.md'), `# A\n\n${fresh}\n`);
    rmSync(join(dir, 'gone.md'));
    const w = await startWatch(dir);
    expect(w.stderr()).toMatch(/1 updated, 1 removed/);
    expect(await searchPaths(dir, old)).toEqual([]);
    expect(await searchPaths(dir, fresh)).toEqual(['a.md']);
  });

  it('refuses a second watcher for the same vault', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const first = await startWatch(dir);
    const second = tsm(['watch', '--vault', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`already runs .*pid ${first.child.pid}`));
  });

  it('keeps its pid file when .tsm/ is deleted under it, and never removes another watcher\'s', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    const watcher = () => (JSON.parse(tsm(['status', '--vault', dir, '--json']).stdout) as { watcher: { pid: number } | null }).watcher?.pid;
    rmSync(join(dir, '.tsm'), { recursive: true });
    // Found gone by the watcher's timer, not by an event (none comes from .tsm/).
    await waitForValue(() => existsSync(join(dir, '.tsm', 'watch.pid')), true, 5000);
    // The index went with it, and is rebuilt by a batch of its own after the pid file is back: a search before
    // that batch is done exits 1 ("no index at …", "the index at … is empty"), which failed this test under load.
    await waitFor(() => /\(rescan: [^)]*the index file was replaced/.test(w.stderr()), 15_000);
    const word = token('after');
    writeFileSync(join(dir, 'b.md'), `# B\n\n${word}\n`);
    await waitForSearch(dir, word, ['b.md']);
    expect(watcher()).toBe(w.child.pid);
    const second = tsm(['watch', '--vault', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`already runs .*pid ${w.child.pid}`));

    // Another live watcher on record (one started while the file was gone): left as it is, also on exit.
    const other = standInWatcher();
    writeFileSync(join(dir, '.tsm', 'watch.pid'), `${other.pid}\n`);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await w.stop('SIGTERM')).toBe(0);
    expect(readFileSync(join(dir, '.tsm', 'watch.pid'), 'utf8')).toBe(`${other.pid}\n`);
    expect(w.stderr()).toMatch(/watch\.pid was gone; written again/);
  });

  it('starts when its pid file names a live process that is not a watcher (pid reused)', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    later(() => sleeper.kill());
    writeFileSync(join(dir, '.tsm', 'watch.pid'), `${sleeper.pid}\n`);
    if (process.platform === 'linux') {
      const w = await startWatch(dir);
      expect((JSON.parse(tsm(['status', '--vault', dir, '--json']).stdout) as { watcher: { pid: number } }).watcher.pid).toBe(w.child.pid);
    }
    // A process that may be a watcher: refused, with the way out should the file be stale.
    const other = standInWatcher();
    writeFileSync(join(dir, '.tsm', 'watch.pid'), `${other.pid}\n`);
    const r = tsm(['watch', '--vault', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`(pid ${other.pid}); stop it first, or, if none runs (its pid reused after a crash or a reboot), remove ${join(dir, '.tsm', 'watch.pid')}`);
  });

  // Its file written over by another program's pid while it ran: written again, but the line said the file
  // "was gone", of a file that was there.
  it.skipIf(process.platform !== 'linux')('says what its pid file named when it writes it again over another process\'s pid', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    later(() => sleeper.kill());
    const w = await startWatch(dir);
    const file = join(dir, '.tsm', 'watch.pid');
    writeFileSync(file, `${sleeper.pid}\n`);
    await waitFor(() => readFileSync(file, 'utf8') === `${w.child.pid}\n`);
    await waitFor(() => /written again/.test(w.stderr()));
    expect(w.stderr()).toContain(`tsm watch: ${file} named pid ${sleeper.pid}, no running watcher; written again\n`);
    expect(w.stderr()).not.toMatch(/was gone/);
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  // Its file written over with text that is no pid: the line said the file "was gone", of a file that was there.
  it('says its pid file held no pid when it writes it again over such text', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    const file = join(dir, '.tsm', 'watch.pid');
    writeFileSync(file, 'hello\n');
    await waitFor(() => readFileSync(file, 'utf8') === `${w.child.pid}\n`);
    await waitFor(() => /written again/.test(w.stderr()));
    expect(w.stderr()).toContain(`tsm watch: ${file} held "hello", not a pid; written again\n`);
    expect(w.stderr()).not.toMatch(/was gone/);
    expect(await w.stop('SIGTERM')).toBe(0);
  });

  it('rejects a bad --debounce as a usage error', () => {
    const dir = vault({ 'a.md': '# A\n' });
    for (const bad of ['soon', '-5', '1e9']) {
      const r = tsm(['watch', '--vault', dir, '--debounce', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--debounce/);
    }
  });
});

describe('tsm watch: editing notes', () => {
  it('indexes a new note, then its edits', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    const first = token('first');
    const second = token('second');
    writeFileSync(join(dir, 'new.md'), `# New\n\n${first}\n`);
    await waitForSearch(dir, first, ['new.md']);
    writeFileSync(join(dir, 'new.md'), `# New\n\n${second}\n`);
    await waitForSearch(dir, second, ['new.md']);
    expect(await searchPaths(dir, first)).toEqual([]);
    expect(w.stderr()).toMatch(/tsm watch: 1 added in \d+ ms \(new\.md\)/);
    expect(w.stderr()).toMatch(/tsm watch: 1 updated in \d+ ms \(new\.md\)/);
  });

  it('follows an atomic save (temporary file renamed over the note)', async () => {
    const before = token('before');
    const after = token('after');
    const dir = vault({ 'note.md': `# Note\n\n${before}\n` });
    await startWatch(dir);
    writeFileSync(join(dir, '.note.md.swp'), `# Note\n\n${after}\n`);
    renameSync(join(dir, '.note.md.swp'), join(dir, 'note.md'));
    await waitForSearch(dir, after, ['note.md']);
    expect(await searchPaths(dir, before)).toEqual([]);
  });

  it('keeps the last of two saves in a row', async () => {
    const v1 = token('vone');
    const v2 = token('vtwo');
    const dir = vault({ 'note.md': '# Note\n' });
    await startWatch(dir);
    writeFileSync(join(dir, 'note.md'), `# Note\n\n${v1}\n`);
    writeFileSync(join(dir, 'note.md'), `# Note\n\n${v2}\n`);
    await waitForSearch(dir, v2, ['note.md']);
    expect(await searchPaths(dir, v1)).toEqual([]);
  });

  it('leaves no trace of a note created and deleted at once, nor of files that are not notes', async () => {
    const ghost = token('ghost');
    const plain = token('plain');
    const done = token('sentinel');
    const dir = vault({ 'a.md': '# A\n' });
    const w = await startWatch(dir);
    writeFileSync(join(dir, 'ghost.md'), `# Ghost\n\n${ghost}\n`);
    rmSync(join(dir, 'ghost.md'));
    writeFileSync(join(dir, 'notes.txt'), `${plain}\n`);
    writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, 'sentinel.md'), `# S\n\n${done}\n`);
    await waitForSearch(dir, done, ['sentinel.md']);
    expect(await searchPaths(dir, ghost)).toEqual([]);
    expect(await searchPaths(dir, plain)).toEqual([]);
    // Named only as attachments checked (links may name them), never as notes.
    const naming = w.stderr().split('\n').filter((l) => /notes\.txt|image\.png/.test(l));
    expect(naming.every((l) => /attachments? checked/.test(l))).toBe(true);
    expect(noteCount(dir)).toBe(2);
  });

  it('follows a rename, and links re-resolve as notes appear, move and vanish', async () => {
    const word = token('target');
    const dir = vault({ 'hub.md': '# Hub\n\nSee [[target]].\n' });
    await startWatch(dir);
    // Links are re-resolved in the batch's last transaction, just after its notes: wait for them too.
    const hubTargets = (want: (string | null)[]) =>
      waitForValue(() => relatedJson(dir, 'hub.md').outgoing.map((l) => l.targetPath), want);
    const backlinksOf = (note: string, want: string[]) =>
      waitForValue(() => relatedJson(dir, note).backlinks.map((l) => l.sourcePath), want);
    await hubTargets([null]);

    writeFileSync(join(dir, 'target.md'), `# Target\n\n${word}\n`);
    await waitForSearch(dir, word, ['target.md']);
    await hubTargets(['target.md']);
    await backlinksOf('target.md', ['hub.md']);

    renameSync(join(dir, 'target.md'), join(dir, 'renamed.md'));
    await waitForSearch(dir, word, ['renamed.md']);
    await hubTargets([null]);

    mkdirSync(join(dir, 'sub'));
    renameSync(join(dir, 'renamed.md'), join(dir, 'sub/target.md'));
    await waitForSearch(dir, word, ['sub/target.md']);
    await hubTargets(['sub/target.md']);
    await backlinksOf('sub/target.md', ['hub.md']);

    rmSync(join(dir, 'sub/target.md'));
    await waitForSearch(dir, word, []);
    await hubTargets([null]);
  });

  it('an attachment added, moved away or deleted counts for links within its batch, as `tsm index` counts it', async () => {
    // Files that are no notes are not watched: a link to an image pasted into the vault stayed unresolved
    // (`tsm related`, and `tsm doctor` saying "add that file to the vault") until the next rescan.
    const dir = vault({ 'pics/.keep.md': '', 'hub.md': '# Hub\n\n![[photo.jpg]] and [[spec.pdf]]\n' });
    await startWatch(dir);
    const attached = (want: (string | null)[]) =>
      waitForValue(() => relatedJson(dir, 'hub.md').outgoing.map((l) => l.attachmentPath), want);
    await attached([null, null]);
    writeFileSync(join(dir, 'pics/photo.jpg'), Buffer.from([0xff, 0xd8, 0xff]));
    await attached(['pics/photo.jpg', null]);
    writeFileSync(join(dir, 'spec.pdf'), '%PDF-1.4\n');
    await attached(['pics/photo.jpg', 'spec.pdf']);
    renameSync(join(dir, 'pics/photo.jpg'), join(dir, 'pics/photo-old.jpg'));
    await attached([null, 'spec.pdf']);
    rmSync(join(dir, 'spec.pdf'));
    await attached([null, null]);
    const doctor = JSON.parse(tsm(['doctor', '--json', '--vault', dir]).stdout) as { problems: { message: string }[] };
    expect(doctor.problems.filter((p) => /photo\.jpg/.test(p.message))).toHaveLength(1);
  });
});
