// Properties whose closing `---` was forgotten are read as text, as Obsidian reads them: the note lost its
// title, tags and date with no word of why. It is indexed as before, and now with a warning that says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

describe('frontmatter never closed', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault({
      'unclosed.md': '---\ntitle: Never closed\ntags: [project]\n\n# Walrus plans\n\nThe walrus text.\n',
      'rule.md': '---\n\nA walrus after a rule.\n',
      'closed.md': '---\ntitle: Closed walrus\n---\nBody.\n',
    });
  });
  afterAll(() => vault.cleanup());

  it('is indexed as text, with a warning that tsm status and tsm doctor name with its fix', () => {
    const run = tsm(['index', '--json'], { cwd: vault.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 3, skipped: 0 });
    const status = JSON.parse(tsm(['status', '--json'], { cwd: vault.dir }).stdout) as { warningList: { path: string; message: string }[] };
    expect(status.warningList).toEqual([
      { path: 'unclosed.md', message: 'frontmatter not closed: no `---` line ends the block line 1 opens, so its properties are read as text' },
    ]);
    const doctor = tsm(['doctor'], { cwd: vault.dir });
    expect(doctor.stdout + doctor.stderr).toMatch(/unclosed\.md: frontmatter not closed.*\n\s+fix: end the properties with a line of `---`/);
    const hits = JSON.parse(tsm(['search', 'walrus', '-f', 'json'], { cwd: vault.dir }).stdout) as { path: string }[];
    expect(hits.map((h) => h.path).sort()).toEqual(['closed.md', 'rule.md', 'unclosed.md']);
  });
});
