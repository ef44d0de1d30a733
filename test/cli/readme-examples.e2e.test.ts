// Every `tsm search` of README.md's Examples, run as written on a copy of vault-example/ (the vault the
// README's quick start names): each finds something. Measured before: '"sync engine" -dataview tag:project
// sync*' and `gateway --after 2026-03 --before 2026-06` found nothing there, so the README showed two
// features by commands that print no result.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellWords } from '../../src/hooks/claude-check.js';
import { copyVaultExample, ROOT, tsm } from '../helpers/cli.js';

// "先月" (last month) is read from this date, as search.e2e's fixed one.
const ENV = { TSM_NOW: '2026-11-22', TZ: 'UTC' };
let root = '';
let vault = '';

/** The `tsm search …` lines of the README's Examples block, without their comments and pipes. */
function readmeSearches(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /### Examples\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('tsm search '))
    .map((l) => l.replace(/\s+#\s.*$/, '').split(' | ')[0].trim());
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-readme-'));
  vault = join(root, 'vault-example');
  copyVaultExample(vault);
  expect(tsm(['index', '--vault', vault], { env: ENV }).code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('README examples on vault-example', () => {
  it('the Examples block has its searches', () => {
    expect(readmeSearches().length).toBeGreaterThanOrEqual(8);
  });

  it.each(readmeSearches())('%s finds something', (line) => {
    const r = tsm([...shellWords(line).slice(1), '--vault', vault], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^tsm: [1-9]\d* results? for /m);
  });
});
