// Markdown a note holds must not stall indexing: every pathological shape is indexed, with its warning
// recorded, in an ordinary `tsm index` run (the timeout is generous: before the bounds these took minutes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');

const NOTES: Record<string, string> = {
  // 1,000 deep by indentation: 83 s before (400 deep: 8 s).
  'indent-list.md': lines(1_000, (i) => '  '.repeat(i) + `- item ${i} needle${i % 7}`) + '\n' + 'x'.repeat(600_000),
  'ordered-list.md': lines(1_000, (i) => '   '.repeat(i) + `1. item ${i}`),
  'quotes.md': lines(1_000, (i) => '>'.repeat(i + 1) + ' quoted'),
  'zigzag.md': lines(20_000, (i) => '  '.repeat(i % 16) + `- it ${i}`),
  'definitions.md': '[a]: <b\n'.repeat(30_000),
  'brackets.md': '['.repeat(300_000) + 'x' + ']'.repeat(300_000),
  'emphasis.md': '*_'.repeat(300_000) + 'x',
  'table.md': '| ' + lines(1, () => 'h | '.repeat(300)) + '\n|' + '---|'.repeat(300) + '\n' + lines(2_000, () => '| c '.repeat(300)),
  'plain.md': '# Plain\n\nAn ordinary note.\n',
};

describe('pathological markdown in an index run', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault(NOTES);
  });
  afterAll(() => vault.cleanup());

  it('indexes every note and records a warning for each approximated one', () => {
    const run = tsm(['index', '--json'], { cwd: vault.dir, timeoutMs: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ added: Object.keys(NOTES).length, skipped: 0 });
    const status = JSON.parse(tsm(['status', '--json'], { cwd: vault.dir }).stdout) as {
      warningList: { path: string; message: string }[];
    };
    const warned = (path: string) => status.warningList.filter((w) => w.path === path).map((w) => w.message);
    for (const p of ['indent-list.md', 'ordered-list.md', 'quotes.md']) {
      expect(warned(p)).toEqual([expect.stringMatching(/nested too deep/)]);
    }
    for (const p of ['zigzag.md', 'definitions.md']) expect(warned(p)).toEqual([expect.stringMatching(/too costly to parse exactly/)]);
    expect(warned('plain.md')).toEqual([]);
    const hit = tsm(['search', 'needle3', '-f', 'json'], { cwd: vault.dir });
    expect(hit.stdout).toContain('indent-list.md');
  });
});
