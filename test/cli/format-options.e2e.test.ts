// An option of one output format given with another (`--budget` reads -f xml only, `--detail` -f md only,
// `--full` and `--include-content` -f json only) does nothing: tsm search says so in one stderr line each, and
// stdout is what it is without the option. `tsm search q --budget 100` printed every snippet whole, silently.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'a.md': `# Wombats\n\n${'The wombat digs a burrow under the hill. '.repeat(20)}\n`,
  'b.md': '# Burrows\n\nA wombat burrow has one entrance.\n',
});
const search = (args: string[]) => tsm(['search', 'wombat', ...args, '--vault', vault.dir]);
const notices = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !/^tsm: \d+ results? for /.test(l));

describe('tsm search: an option of another format', () => {
  it.each<[string[], string[], string]>([
    [['--budget', '100'], [], 'tsm: --budget applies to -f xml only; ignored'],
    [['--budget', '100', '-f', 'md'], ['-f', 'md'], 'tsm: --budget applies to -f xml only; ignored'],
    [['--detail', 'high', '-f', 'json'], ['-f', 'json'], 'tsm: --detail applies to -f md only; ignored'],
    [['--detail', 'none'], [], 'tsm: --detail applies to -f md only; ignored'],
    [['--full', '-f', 'xml'], ['-f', 'xml'], 'tsm: --full applies to -f json only; ignored'],
    [['--include-content', '1', '-f', 'md'], ['-f', 'md'], 'tsm: --include-content applies to -f json only; ignored'],
    [['-f', 'xml', '--ids', '--budget', '5'], ['-f', 'xml', '--ids'], 'tsm: --budget applies to -f xml only, not with --ids; ignored'],
  ])('%j: one warning, stdout as without it', (args, without, warning) => {
    const r = search(args);
    expect(r.code, r.stderr).toBe(0);
    expect(notices(r.stderr)).toEqual([warning]);
    expect(r.stdout).toBe(search(without).stdout);
  });

  it('says nothing where the option is read, and it is', () => {
    for (const args of [['-f', 'xml', '--budget', '100'], ['-f', 'md', '--detail', 'high'], ['-f', 'json', '--full', '--include-content', '1'], ['--no-full'], []]) {
      const r = search(args);
      expect(r.code, r.stderr).toBe(0);
      expect(notices(r.stderr), args.join(' ')).toEqual([]);
    }
    expect(search(['-f', 'xml', '--budget', '100']).stdout).not.toBe(search(['-f', 'xml']).stdout);
    expect(search(['-f', 'md', '--detail', 'none']).stdout).not.toBe(search(['-f', 'md', '--detail', 'high']).stdout);
  });
});
