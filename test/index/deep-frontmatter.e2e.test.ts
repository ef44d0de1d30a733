// Frontmatter nested thousands deep (`tags: [[[[…`) ended js-yaml's recursion, and the note's warning said
// only "Maximum call stack size exceeded"; nested over 64 levels, its values were left out with no warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const nested = (n: number) => `${'['.repeat(n)}deep${']'.repeat(n)}`;

describe('frontmatter nested very deep', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault({
      'thousands.md': `---\ntags: ${nested(20_000)}\n---\n# Thousands walrus\n`,
      'hundred.md': `---\ntitle: Hundred walrus\ntags: ${nested(100)}\n---\nBody.\n`,
      'plain.md': '---\ntags: [ok]\n---\n# Plain walrus\n',
    });
  });
  afterAll(() => vault.cleanup());

  it('is indexed, with a warning that says what is wrong', () => {
    const run = tsm(['index', '--json'], { cwd: vault.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: 3, skipped: 0 });
    const status = JSON.parse(tsm(['status', '--json'], { cwd: vault.dir }).stdout) as { warningList: { path: string; message: string }[] };
    expect(status.warningList).toEqual([
      { path: 'hundred.md', message: 'frontmatter: values nested deeper than 64 levels left out' },
      { path: 'thousands.md', message: 'malformed YAML frontmatter, indexed as text: lists or mappings nested too deep to read (thousands of levels)' },
    ]);
    const hits = JSON.parse(tsm(['search', 'walrus', '-f', 'json'], { cwd: vault.dir }).stdout) as { path: string; title: string }[];
    expect(hits.map((h) => [h.path, h.title]).sort()).toEqual([
      ['hundred.md', 'Hundred walrus'],
      ['plain.md', 'Plain walrus'],
      ['thousands.md', 'Thousands walrus'],
    ]);
  });
});
