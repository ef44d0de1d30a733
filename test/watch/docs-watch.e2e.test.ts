// docs/watch.md against the BUILT `tsm watch`: the options of the page's first block and the default debounce
// it states (`--help`), and the lines it quotes for a start and a stop, from a real watcher.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, tsm, waitFor } from '../helpers/cli.js';
import { startWatch, useWatchVaults } from './watch-process.js';

// The page's text with its line breaks as spaces: a quoted line may wrap.
const page = readFileSync(join(ROOT, 'docs/watch.md'), 'utf8').replace(/\s+/g, ' ');
const { vault } = useWatchVaults();

it('the options the page shows are those `tsm watch --help` lists, with the default it states', () => {
  const help = tsm(['watch', '--help']).stdout;
  const block = /```sh\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/watch.md'), 'utf8'))?.[1] ?? '';
  const flags = [...block.matchAll(/^tsm watch (--[a-z-]+)/gm)].map((m) => m[1]);
  expect(flags.length).toBeGreaterThan(0);
  for (const flag of flags) expect(help).toMatch(new RegExp(`^\\s+${flag}\\s`, 'm'));
  const stated = /`--debounce` milliseconds \(default (\d+)\)/.exec(page)?.[1];
  expect(stated).toBeDefined();
  expect(help).toMatch(new RegExp(`--debounce .*\\[default: ${stated}\\]`));
});

it('a start and a Ctrl-C print the lines the page quotes', { timeout: 60_000 }, async () => {
  const dir = vault({ 'a.md': '# A\n\nalpha\n' });
  const w = await startWatch(dir, ['--poll']);
  await waitFor(() => /polling started\)\n/.test(w.stderr()));
  expect(await w.stop('SIGINT')).toBe(0);
  const lines = w.stderr().trimEnd().split('\n');
  expect(lines).toEqual([
    expect.stringMatching(/^tsm watch: indexed 1 added, 0 updated, 0 removed, 0 unchanged in \d+\.\d\d s$/),
    `tsm watch: watching ${dir} (1 note, polling)`,
    expect.stringMatching(/^tsm watch: no changes in \d+ ms \(rescan: polling started\)$/),
    'tsm watch: SIGINT: finishing the batch in hand, then stopping (again to stop at once)',
    'tsm watch: stopped',
  ]);
  // The page's forms of them: its example of the first sync's line, `<n> notes` then `, polling`, the stop.
  expect(page).toMatch(/tsm watch: indexed \d+ added, \d+ updated, \d+ removed, \d+ unchanged in \d+\.\d\d s/);
  expect(page).toContain('`tsm watch: watching <vault> (<n> notes)`');
  expect(page).toContain('(`, polling` after the count when it polls: `--poll`');
  expect(page).toContain(`\`${lines[3]}\``);
  expect(page).toContain(`\`${lines[4]}\``);
});
