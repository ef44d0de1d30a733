// A plain command line of a command without operands runs without yargs (src/cli/cli.ts); every other one goes
// to yargs as before. What must hold: the plain path takes exactly the options yargs declares for the command,
// reads them as yargs would, and only ever runs a line yargs would have run the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainCommandLine } from '../../src/cli/cli.js';
import { plainCommandOptions } from '../../src/cli/command-options.js';
import { makeVault, packageWithout, tsm } from '../helpers/cli.js';

const PLAIN = ['index', 'status', 'doctor', 'init', 'watch', 'serve'];

describe('plainCommandLine', () => {
  it('reads a plain line of each such command, defaults included, as yargs reads it', () => {
    expect(plainCommandLine(['status'])).toEqual({ command: 'status', args: { json: false } });
    expect(plainCommandLine(['index', '--vault', 'v', '--full', '--json', '--db=x.db'])).toEqual({
      command: 'index',
      args: { vault: 'v', db: 'x.db', full: true, json: true, 'files-from-stdin': false, embed: false },
    });
    expect(plainCommandLine(['watch', '--debounce', '1e3', '--poll'])?.args).toEqual({ debounce: 1000, poll: true });
    expect(plainCommandLine(['watch'])?.args).toEqual({ debounce: 150, poll: false });
    expect(plainCommandLine(['doctor', '--no-json'])?.args).toEqual({ json: false });
    expect(plainCommandLine(['serve', '--vault', 'a', '--vault', 'b'])?.args).toEqual({ vault: 'b' }); // the last of two, as stringOption takes it
    expect(plainCommandLine(['init', '--claude', '--shared'])?.args).toEqual({ claude: true, shared: true });
  });

  it('leaves to yargs every line that is not plain, and every command with operands', () => {
    const notPlain = [
      [],
      ['search', 'x'],
      ['hook'],
      ['related', 'a.md'],
      ['ingest-session', 'x.jsonl'],
      ['model', 'list'],
      ['index', '/some/folder'], // an operand: yargs names --vault
      ['index', '-x'],
      ['status', '--help'],
      ['status', '-h'],
      ['status', '--version'],
      ['status', '--', 'x'],
      ['status', '--embed'], // another command's option: yargs says whose
      ['status', '--bogus'],
      ['status', '--json=true'],
      ['status', '--vault'],
      ['status', '--vault', ''], // an empty value: yargs' check names it
      ['status', '--no-vault'],
      ['watch', '--debounce', 'soon'],
      ['watch', '--debounce', '-5'],
      ['index', '--threads', '0'],
      ['--vault', 'v', 'status'], // an option before the command
    ];
    for (const argv of notPlain) expect(plainCommandLine(argv), argv.join(' ')).toBeNull();
  });
});

describe('the plain path, end to end', () => {
  let vault: { dir: string; cleanup: () => void };
  beforeAll(() => {
    vault = makeVault({ 'a.md': '# A\n\nantenna text\n', '.tsm/.keep': '' });
  });
  afterAll(() => vault.cleanup());

  it('takes the options yargs lists in each command’s help, no more and no fewer', () => {
    for (const command of PLAIN) {
      const help = tsm([command, '--help'], { cwd: vault.dir });
      expect(help.code, command).toBe(0);
      const listed = [...help.stdout.matchAll(/^\s+(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1]).filter((o) => o !== 'help' && o !== 'version');
      expect(Object.keys(plainCommandOptions(command) ?? {}).sort(), command).toEqual(listed.sort());
    }
  });

  it('runs without yargs: a package whose dist/lazy/yargs-cli.js is gone runs `tsm index` and `tsm status --json`, and fails only where yargs is needed', () => {
    const pkg = packageWithout(['lazy/yargs-cli.js']);
    try {
      const run = (args: string[]) => pkg.run(args, vault.dir);
      const index = run(['index', '--json']);
      expect(index.status, index.stderr).toBe(0);
      expect(JSON.parse(index.stdout)).toMatchObject({ added: 1 });
      const status = run(['status', '--json']);
      expect(status.status, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ notes: 1 });
      // A line that is not plain goes to yargs, which this copy lacks.
      expect(run(['status', '--help']).status).toBe(1);
      expect(run(['status', '--bogus']).status).toBe(1);
    } finally {
      pkg.cleanup();
    }
  });

  it('says what yargs said for a line that is not plain', () => {
    expect(tsm(['status', '--bogus'], { cwd: vault.dir }).stderr.split('\n')[0]).toMatch(/^tsm: unknown option --bogus/);
    const folder = tsm(['index', vault.dir], { cwd: vault.dir });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`(a folder: name a vault with --vault ${vault.dir})`);
  });
});
