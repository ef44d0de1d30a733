// A tag may hold emoji, as Obsidian's does (its tag ends at whitespace and punctuation only): `#🚀` was no tag
// and `#done✅` was `done`, so `--tag 🚀` and `tag:📚` found nothing that Obsidian's Tags pane lists.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'rocket.md': '# Rocket\n\nLaunch plan #🚀 and reading #📚/to-read\n',
    'done.md': '# Done\n\nLaunch plan #done✅\n',
    'other.md': '# Other\n\nLaunch plan #done\n',
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const paths = (...args: string[]) =>
  (JSON.parse(tsm(['search', ...args, '-f', 'json'], { cwd: v.dir }).stdout) as { path: string }[]).map((r) => r.path).sort();

it('an emoji tag filters as any tag does, nested too', () => {
  expect(paths('launch', '--tag', '🚀')).toEqual(['rocket.md']);
  expect(paths('launch tag:📚')).toEqual(['rocket.md']);
  expect(paths('launch', '--tag', 'done✅')).toEqual(['done.md']);
  expect(paths('launch', '--tag', 'done')).toEqual(['other.md']);
});
