// `tsm watch` and Obsidian's daily-note settings: a change made in Obsidian re-types the notes at once,
// unchanged ones included (src/watch/classify.ts SETTINGS_FILES), while the rest of .obsidian/ stays unwatched.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { writeFiles } from '../helpers/cli.js';
import { searchPaths, startWatch, token, waitForSearch, waitForValue, useWatchVaults } from './watch-process.js';

const { vault } = useWatchVaults();
const CORE = '.obsidian/daily-notes.json';
const PERIODIC = '.obsidian/plugins/periodic-notes/data.json';

describe("tsm watch: Obsidian's daily-note settings", () => {
  it('a folder or format changed in Obsidian re-types the notes, unchanged ones too', async () => {
    const word = token('diary');
    const dir = vault({
      [CORE]: JSON.stringify({ folder: 'Diary', format: 'DD-MM-YYYY' }),
      '.obsidian/workspace.json': '{}',
      'Diary/27-11-2026.md': `# Friday\n\n${word}\n`,
      'Log/11-26-2026.md': `# Thursday\n\n${word}\n`,
    });
    const daily = () => searchPaths(dir, word, ['--type', 'daily']);
    await startWatch(dir);
    await waitForValue(daily, ['Diary/27-11-2026.md']);

    writeFileSync(join(dir, CORE), JSON.stringify({ folder: 'Diary', format: 'MM-DD-YYYY' }));
    await waitForValue(daily, []);
    // Periodic Notes' file, in folders made after the watcher started.
    writeFiles(dir, { [PERIODIC]: JSON.stringify({ daily: { enabled: true, folder: 'Log', format: 'MM-DD-YYYY' } }) });
    await waitForValue(daily, ['Log/11-26-2026.md']);
    // Obsidian's other files are not notes, nor reasons to re-read the vault.
    const later = token('later');
    writeFiles(dir, { '.obsidian/workspace.json': '{"x": 1}', '.obsidian/plugins/periodic-notes/x.md': `# X\n\n${later}\n`, 'b.md': `# B\n\n${later}\n` });
    await waitForSearch(dir, later, ['b.md']);
  });
});
