// `tsm watch` and the vault's path rules (src/vault/paths.ts): NFD names as macOS writes them, edits that
// keep size and mtime, symlinks out of the vault, dot-folders. Checked through `tsm search`.
import { mkdirSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexChanges, searchPaths, startWatch, token, useWatchVaults, waitForSearch, waitForValue } from './watch-process.js';

const { vault } = useWatchVaults();
const NFC = '\u30d7\u30ed\u30b8\u30a7\u30af\u30c8'; // プロジェクト
const NFD = NFC.normalize('NFD');

describe('tsm watch: path rules', () => {
  it('keeps an NFD-named note through edits, and adds new NFD-named notes', async () => {
    const first = token('first');
    const dir = vault({});
    mkdirSync(join(dir, NFD));
    writeFileSync(join(dir, NFD, `${NFD}.md`), `# P\n\n${first}\n`);
    await startWatch(dir);
    await waitForSearch(dir, first, [`${NFC}/${NFC}.md`]);
    const second = token('second');
    writeFileSync(join(dir, NFD, `${NFD}.md`), `# P\n\n${second}\n`);
    await waitForSearch(dir, second, [`${NFC}/${NFC}.md`]);
    const added = token('added');
    writeFileSync(join(dir, NFD, `\u30ac${NFD}.md`.normalize('NFD')), `# G\n\n${added}\n`);
    await waitForSearch(dir, added, [`${NFC}/\u30ac${NFC}.md`]);
  });

  it('sees an edit that keeps size and mtime', async () => {
    const before = token('aaaa');
    const after = token('bbbb');
    const dir = vault({ 'a.md': `# A\n\n${before}\n` });
    const time = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(dir, 'a.md'), time, time);
    await startWatch(dir);
    await waitForSearch(dir, before, ['a.md']);
    writeFileSync(join(dir, 'a.md'), `# A\n\n${after}\n`);
    utimesSync(join(dir, 'a.md'), time, time);
    expect(statSync(join(dir, 'a.md')).mtime.getTime()).toBe(time.getTime());
    await waitForSearch(dir, after, ['a.md']);
  });

  // chokidar's native handler drops a 'change' whose file was read after its last write (atime past mtime)
  // unless the mtime moved: `touch -m -r stamp` after an edit, on a note tsm had read, went unseen.
  it('sees an edit that keeps size and mtime on a note read since (atime past mtime)', async () => {
    const before = token('readaaaa');
    const after = token('readbbbb');
    const dir = vault({ 'a.md': `# A\n\n${before}\n` });
    const time = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(dir, 'a.md'), new Date(), time);
    await startWatch(dir);
    await waitForSearch(dir, before, ['a.md']);
    writeFileSync(join(dir, 'a.md'), `# A\n\n${after}\n`);
    utimesSync(join(dir, 'a.md'), new Date(), time);
    const st = statSync(join(dir, 'a.md'));
    expect(st.atimeMs).toBeGreaterThan(st.mtimeMs);
    await waitForSearch(dir, after, ['a.md']);
  });

  it('sees an edit that keeps size and mtime under --poll too', async () => {
    const before = token('pollaaaa');
    const after = token('pollbbbb');
    const dir = vault({ 'a.md': `# A\n\n${before}\n` });
    const time = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(dir, 'a.md'), time, time);
    const w = await startWatch(dir, ['--poll']);
    // After the catch-up rescan that follows the poller's start, only the poller can see the edit.
    await waitForValue(() => /rescan: polling started/.test(w.stderr()), true);
    writeFileSync(join(dir, 'a.md'), `# A\n\n${after}\n`);
    utimesSync(join(dir, 'a.md'), time, time);
    await waitForSearch(dir, after, ['a.md']);
  });

  it('never indexes a symlink out of the vault, nor notes in dot-folders', async () => {
    const secret = token('secret');
    const shown = token('shown');
    const dir = vault({ 'a.md': '# A\n' });
    const outside = vault({ 'secret.md': `# S\n\n${secret}\n` });
    await startWatch(dir);
    symlinkSync(join(outside, 'secret.md'), join(dir, 'linked.md'));
    mkdirSync(join(dir, '.github'));
    writeFileSync(join(dir, '.github', 'x.md'), `# X\n\n${secret}\n`);
    writeFileSync(join(dir, 'b.md'), `# B\n\n${shown}\n`);
    await waitForSearch(dir, shown, ['b.md']);
    expect(await searchPaths(dir, secret)).toEqual([]);
  });

  it('drops a note replaced by a symlink out of the vault (ln -sfn), as a fresh build has none', async () => {
    const old = token('oldplan');
    const dir = vault({ 'daily/plan.md': `# Plan\n\n${old}\n`, 'a.md': '# A\n' });
    const outside = vault({ 'secret.md': `# S\n\n${token('secret')}\n` });
    await startWatch(dir);
    await waitForSearch(dir, old, ['daily/plan.md']);
    // ln -sfn: the link is made aside and renamed over the note.
    symlinkSync(join(outside, 'secret.md'), join(dir, 'daily', 'plan.tmp'));
    renameSync(join(dir, 'daily', 'plan.tmp'), join(dir, 'daily', 'plan.md'));
    await waitForSearch(dir, old, []);
    expect(indexChanges(dir)).toEqual({ added: 0, updated: 0, removed: 0 });
  });

  it('indexes a note below a symlink to a folder of the vault once, under its real path', async () => {
    const first = token('guide');
    const dir = vault({ 'knowledge/lora/guide.md': `# Guide\n\n${first}\n` });
    symlinkSync('knowledge/lora', join(dir, 'lora-link'));
    const w = await startWatch(dir);
    await waitForSearch(dir, first, ['knowledge/lora/guide.md']);
    const edited = token('edited');
    writeFileSync(join(dir, 'knowledge/lora/guide.md'), `# Guide\n\n${edited}\n`);
    await waitForSearch(dir, edited, ['knowledge/lora/guide.md']);
    // chokidar reports the edit under both paths; only the scan's path is taken.
    await waitForValue(() => /lora-link\/guide\.md/.test(w.stderr()), true);
    expect(await searchPaths(dir, edited)).toEqual(['knowledge/lora/guide.md']);
    expect(indexChanges(dir)).toEqual({ added: 0, updated: 0, removed: 0 });
  });
});
