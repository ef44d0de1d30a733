// `tsm watch` and a folder this user may not read for a while (`chmod 000` and back, `mkdir -m 000` then
// `chmod 755`). chokidar fails to watch it (EACCES) yet counts it as watched, and never looks again: the
// folder's notes left the index and never came back, and later edits in it were never indexed, until a restart.
//
// Root reads anything, so as root the watcher runs without the two capabilities that let it (setpriv drops
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH): inotify and readdir then give it a real EACCES, as to any user.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/cli.js';
import { startWatch, token, useWatchVaults, waitForSearch } from './watch-process.js';

const { vault } = useWatchVaults();

/** Runs `body`, then gives `folder` its mode back whatever happened, so that a run as a user can remove the vault. */
async function restoring(folder: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    try {
      chmodSync(folder, 0o755);
    } catch {
      // never made
    }
  }
}

const DROP = '-dac_override,-dac_read_search';
const asRoot = process.getuid?.() === 0;
const wrapper = asRoot ? ['setpriv', `--inh-caps=${DROP}`, `--bounding-set=${DROP}`] : [];
/** Whether the watcher can be made to meet a permission it lacks: any user does; root only through setpriv. */
const canDeny = !asRoot || spawnSync(wrapper[0], [...wrapper.slice(1), 'true']).status === 0;
const why = 'as root without setpriv (util-linux) the watcher reads anything, and no EACCES can be had';

const note = (word: string, title: string) => `# ${title}\n\n${word}\n`;

describe.skipIf(!canDeny)(`tsm watch: a folder unreadable for a while (${asRoot ? 'root without DAC capabilities' : 'this user'})`, () => {
  for (const poll of [false, true]) {
    it(`${poll ? '--poll' : 'native'}: chmod 000 then 755: its notes come back and its edits are indexed`, async () => {
      const word = token('lora');
      const files: Record<string, string> = { 'knowledge/a.md': note('alpha', 'A') };
      for (let i = 1; i <= 7; i++) files[`knowledge/lora/n${i}.md`] = note(word, `L${i}`);
      const dir = vault(files);
      const folder = join(dir, 'knowledge/lora');
      await restoring(folder, async () => {
        const w = await startWatch(dir, poll ? ['--poll'] : [], { wrapper });
        const paths = Object.keys(files).filter((p) => p.startsWith('knowledge/lora/'));
        await waitForSearch(dir, word, paths);

        chmodSync(folder, 0o000);
        await waitForSearch(dir, word, []); // as `tsm index` does: an unreadable folder's notes leave the index
        chmodSync(folder, 0o755);
        await waitForSearch(dir, word, paths);

        const edit = token('edit');
        writeFileSync(join(folder, 'n3.md'), note(edit, 'L3'));
        await waitForSearch(dir, edit, ['knowledge/lora/n3.md']);
        expect(w.stderr()).toContain('cannot watch knowledge/lora (permission denied)');
        // One rescan may give more than one reason: under load chokidar also reported the folder removed while
        // unreadable, and the rescan that brought it back said "folders deleted and made again: …, readable again: …".
        expect(w.stderr()).toMatch(/rescan: (?:[^\n]*, )?readable again: knowledge\/lora; watching it anew/);
      });
    }, 60_000);
  }

  it('native: a folder made with mkdir -m 000, then given its mode: its notes are indexed', async () => {
    const dir = vault({ 'a.md': note('alpha', 'A') });
    const folder = join(dir, 'newd');
    await restoring(folder, async () => {
      const w = await startWatch(dir, [], { wrapper });
      mkdirSync(folder, { mode: 0o000 });
      chmodSync(folder, 0o000); // whatever the umask
      // The batch of the new folder comes after chokidar tried to watch it (addDir, then its watch).
      await waitFor(() => w.stderr().includes('rescan: folder added: newd'), 15_000);
      chmodSync(folder, 0o755);
      const word = token('newd');
      writeFileSync(join(folder, 'a.md'), note(word, 'D'));
      await waitForSearch(dir, word, ['newd/a.md']);
      const edit = token('edit');
      writeFileSync(join(folder, 'a.md'), note(edit, 'D'));
      await waitForSearch(dir, edit, ['newd/a.md']);
      expect(w.stderr()).toContain('cannot watch newd (permission denied)');
    });
  }, 60_000);
});

it.skipIf(canDeny)(`tsm watch and unreadable folders: skipped (${why})`, () => {});
