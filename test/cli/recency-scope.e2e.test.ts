// Where recency counts, by the built CLI (docs/search.md, section 2): daily and session notes always decay
// with age; a knowledge note's date counts only when the query asks for time (a temporal expression or a
// date filter). On vaults whose reference notes carry `created:` dates an old note is as good an answer as a
// new one: decaying them cost 0.002–0.081 nDCG@10 on every dated set (search.md, "Recency").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

const ENV = { TSM_NOW: '2026-11-28T09:00:00Z', TZ: 'UTC' };
const TEXT = 'antenna gain measured on the bench with the collar prototype\n';

let vault: { dir: string; cleanup: () => void };
const write = (rel: string, text: string) => {
  mkdirSync(join(vault.dir, rel, '..'), { recursive: true });
  writeFileSync(join(vault.dir, rel), text);
};
const scores = (...args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'json', '--vault', vault.dir], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries((JSON.parse(r.stdout) as { path: string; score: number }[]).map((h) => [h.path, h.score]));
};

beforeAll(() => assertBuilt());
beforeEach(() => {
  vault = makeVault();
  write('knowledge/a-2019.md', `---\ncreated: 2019-03-01\n---\n# Antenna A\n\n${TEXT}`);
  write('knowledge/b-2026.md', `---\ncreated: 2026-11-01\n---\n# Antenna B\n\n${TEXT}`);
  write('daily/2019-03-02.md', `# 2019-03-02\n\n${TEXT}`);
  write('daily/2026-11-20.md', `# 2026-11-20\n\n${TEXT}`);
  expect(tsm(['index', '--vault', vault.dir], { env: ENV }).code).toBe(0);
});
afterEach(() => vault.cleanup());

describe('recency', () => {
  it("leaves a knowledge note's date out of a query that asks for no time, and decays daily notes", () => {
    const s = scores('antenna gain');
    expect(s['knowledge/a-2019.md']).toBeGreaterThan(0);
    expect(s['knowledge/a-2019.md']).toBe(s['knowledge/b-2026.md']);
    expect(s['daily/2026-11-20.md']).toBeGreaterThan(s['daily/2019-03-02.md']);
  });

  it("counts a knowledge note's date when the query asks for time", () => {
    const filtered = scores('antenna gain', '--after', '2019-01-01');
    expect(filtered['knowledge/b-2026.md']).toBeGreaterThan(filtered['knowledge/a-2019.md']);
    // `this year` ranks the year's notes first, recency counted, then the rest (search.ts, searchSnapshot):
    // without recency the 2019 note would lead, by path.
    const r = tsm(['search', 'antenna gain this year', '-f', 'json', '--vault', vault.dir], { env: ENV });
    expect((JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path).filter((p) => p.startsWith('knowledge/'))).toEqual(['knowledge/b-2026.md', 'knowledge/a-2019.md']);
  });
});
