// The built `tsm` on the things users meet first: which folder is a vault, usage errors that name the
// fix, colours, --version, related -n.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpWrap } from '../../src/cli/yargs-cli.js';
import { makeVault, packageWithout, ROOT, tsm } from '../helpers/cli.js';

const NOTES = {
  'a.md': '# Antenna notes\n\nThe LoRa antenna gain matters. See [[b]] and [[c]].\n',
  'b.md': '# Battery\n\nLoRa sleep current and [[a]].\n',
  'c.md': '# Collar\n\nLinks to [[a]].\n',
};

let marked: { dir: string; cleanup: () => void };
beforeAll(() => {
  marked = makeVault({ ...NOTES, '.tsm/.keep': '' });
  expect(tsm(['index'], { cwd: marked.dir }).code).toBe(0);
});
afterAll(() => marked.cleanup());

describe('the vault a command works on is one the user chose', () => {
  it('tsm search in a folder that is no vault: exit 1, an error naming the fix, nothing created', () => {
    const v = makeVault(NOTES);
    try {
      const r = tsm(['search', 'LoRa'], { cwd: v.dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/no vault here/);
      expect(r.stderr).toMatch(/tsm init/);
      expect(r.stderr).toMatch(/--vault/);
      expect(existsSync(join(v.dir, '.tsm'))).toBe(false);
      for (const cmd of [['status'], ['related', 'a']]) expect(tsm(cmd, { cwd: v.dir }).code).toBe(1);
      expect(readdirSync(v.dir).sort()).toEqual(['a.md', 'b.md', 'c.md']);
    } finally {
      v.cleanup();
    }
  });

  it('a named vault (--vault, as in the README quick start), an Obsidian vault, and `tsm index` are deliberate', () => {
    for (const setup of ['flag', 'obsidian', 'index'] as const) {
      const v = makeVault(NOTES);
      try {
        if (setup === 'obsidian') mkdirSync(join(v.dir, '.obsidian'));
        if (setup === 'index') expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
        const r = tsm(['search', 'LoRa', '-f', 'json', ...(setup === 'flag' ? ['--vault', v.dir] : [])], { cwd: v.dir });
        expect(r.code, `${setup}: ${r.stderr}`).toBe(0);
        expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
        expect(existsSync(join(v.dir, '.tsm', 'index.db'))).toBe(true);
      } finally {
        v.cleanup();
      }
    }
  });

  it('the README quick start works on the bundled vault-example', () => {
    const r = tsm(['search', 'LoRa', '--vault', 'vault-example', '--db', join(marked.dir, 'example.db'), '--ids'], { cwd: ROOT });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+(\n\d+)*\n$/); // --ids: one id a line, and a final newline
  });
});

describe('small things users hit', () => {
  it('-n 0 is a usage error with nothing on stdout', () => {
    const r = tsm(['search', 'LoRa', '-n', '0'], { cwd: marked.dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--limit takes a whole number of results, 1 or more/);
  });

  it('an empty date flag is a usage error, as an empty --tag is, not a search of every date', () => {
    for (const flag of ['--after', '--before', '--recent', '--year', '--tag']) {
      const r = tsm(['search', 'lora', flag, ''], { cwd: marked.dir });
      expect(r.code, flag).toBe(2);
      expect(r.stdout, flag).toBe('');
      expect(r.stderr.split('\n')[0], flag).toMatch(new RegExp(`^tsm: ${flag} (takes|must not be empty)`));
    }
  });

  it('a number option given something else names what was typed and what it takes, in every command', () => {
    // yargs read `-n abc` as NaN, and related, index and watch said "got NaN"; `-n Infinity` listed all links.
    const cases: [string[], RegExp][] = [
      [['related', 'a', '-n', 'abc'], /--limit takes a whole number of notes, 1 or more \(got "abc"\)/],
      [['related', 'a', '-n', '2.5'], /--limit takes a whole number of notes, 1 or more \(got "2\.5"\)/],
      [['related', 'a', '-n', 'Infinity'], /--limit takes a whole number of notes, 1 or more \(got "Infinity"\)/],
      [['related', 'a', '-n'], /--limit needs a value/],
      [['search', 'LoRa', '-n', 'abc'], /--limit takes a whole number of results, 1 or more \(got "abc"\)/],
      [['search', 'LoRa', '-n', '0x10'], /--limit takes a whole number of results, 1 or more \(got "0x10"\)/],
      [['search', 'LoRa', '-n', '-1'], /--limit takes a whole number of results, 1 or more \(got "-1"\)/],
      [['search', 'LoRa', '-f', 'xml', '--budget', 'abc'], /--budget takes a whole number of characters, 0 or more \(got "abc"\)/],
      [['search', 'LoRa', '-f', 'json', '--include-content', '1.5'], /--include-content takes a whole number of results, 0 or more \(got "1\.5"\)/],
      [['search', 'LoRa', '--year', '20x6'], /--year takes a four-digit year \(got "20x6"\)/],
      [['index', '--embed', '--threads', 'abc'], /--threads takes a whole number from 1 to 64 \(got "abc"\)/],
      [['watch', '--debounce', 'soon'], /--debounce takes a number of milliseconds from 0 to 60000 \(got "soon"\)/],
    ];
    for (const [args, message] of cases) {
      const r = tsm(args, { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(message);
    }
    // yargs still labels them as numbers
    expect(tsm(['related', '--help']).stdout).toMatch(/--limit .*\[number\]/);
  });

  it('an option followed by `--` or another option is the same usage error, not node\'s "argument is ambiguous"', () => {
    const cases: [string[], RegExp][] = [
      [['search', '-n', '--', 'x'], /^tsm: --limit takes a whole number of results, 1 or more \(got "--"\)$/],
      [['search', '--limit', '--', 'x'], /^tsm: --limit takes a whole number of results, 1 or more \(got "--"\)$/],
      [['search', 'LoRa', '-n', '-f', 'json'], /^tsm: --limit takes a whole number of results, 1 or more \(got "-f"\)$/],
      [['search', 'LoRa', '-f', 'xml', '--budget', '--full'], /^tsm: --budget takes a whole number of characters, 0 or more \(got "--full"\)$/],
      [['search', '--path', '--', 'x'], /^tsm: --path needs a value \(got "--"; one that starts with "-" is written --path=-value\)$/],
      // The yargs commands whose note or path may follow `--`: related said "tsm related needs a note".
      [['related', '-n', '--', 'a'], /^tsm: --limit takes a whole number of notes, 1 or more \(got "--"\)$/],
      [['related', '--limit', '--', 'a'], /^tsm: --limit takes a whole number of notes, 1 or more \(got "--"\)$/],
      [['related', '--vault', '--', 'a'], /^tsm: --vault needs a value \(got "--"; one that starts with "-" is written --vault=-value\)$/],
      [['ingest-session', '--db', '--', 'x.jsonl'], /^tsm: --db needs a value \(got "--"; one that starts with "-" is written --db=-value\)$/],
    ];
    for (const [args, message] of cases) {
      const r = tsm(args, { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).not.toMatch(/ambiguous/);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(message);
    }
  });

  it('a number option takes a whole number however it is written, and the last of two', () => {
    const lines = (args: string[]) => tsm(args, { cwd: marked.dir }).stdout.trim().split('\n').length;
    expect(lines(['search', 'LoRa', '--ids', '-n', '1e3'])).toBe(lines(['search', 'LoRa', '--ids', '-n', '1000']));
    expect(lines(['search', 'LoRa', '--ids', '-n', '5', '-n', '1'])).toBe(1);
    const related = tsm(['related', 'a', '--json', '-n', '5', '-n', '1'], { cwd: marked.dir });
    expect(related.code, related.stderr).toBe(0);
    expect(JSON.parse(related.stdout).outgoing).toHaveLength(1);
  });

  it('tsm index --threads is checked before the sync, and is refused without --embed', () => {
    // A vault never indexed: a refused command leaves it without an index.
    const v = makeVault({ ...NOTES, '.tsm/.keep': '' });
    try {
      const alone = tsm(['index', '--threads', '2'], { cwd: v.dir });
      expect(alone.code).toBe(2);
      expect(alone.stdout).toBe('');
      expect(alone.stderr).toMatch(/--threads sets the embedding model's threads: use it with --embed/);
      const bad = tsm(['index', '--embed', '--threads', '0'], { cwd: v.dir });
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(/--threads takes a whole number from 1 to 64/);
      expect(existsSync(join(v.dir, '.tsm/index.db'))).toBe(false);
    } finally {
      v.cleanup();
    }
  });

  it('an unknown option names the closest one, with balanced quotes', () => {
    const r = tsm(['search', 'LoRa', '--limt', '3'], { cwd: marked.dir });
    expect(r.code).toBe(2);
    const first = r.stderr.split('\n')[0];
    expect(first).toContain('did you mean --limit?');
    expect((first.match(/"/g) ?? []).length % 2).toBe(0);
    expect((first.match(/'/g) ?? []).length % 2).toBe(0);
    const v = tsm(['--versoin'], { cwd: marked.dir });
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('did you mean --version?');
    // With no command, an option some command takes asks for the command; only a name none takes is a typo.
    // Measured before: `tsm --json` said "unknown option --json" (only search's options were known there),
    // while `tsm --limit 3` asked for a command.
    for (const args of [['--json'], ['--limit', '3'], ['--debounce', '5'], ['--model-dir', 'm']]) {
      const named = tsm(args, { cwd: marked.dir });
      expect(named.code, args.join(' ')).toBe(2);
      expect(named.stderr.split('\n')[0], args.join(' ')).toBe('tsm: name a command: tsm --help lists them');
    }
    expect(tsm(['--jsn'], { cwd: marked.dir }).stderr.split('\n')[0]).toBe('tsm: unknown option --jsn');
    const s = tsm(['status', '--jsno'], { cwd: marked.dir });
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('did you mean --json?');
    // Every command's own options are offered, not only the shared ones.
    for (const [args, meant] of [
      [['index', '--embd'], '--embed'],
      [['index', '--embed', '--thread', '2'], '--threads'],
      [['init', '--claude', '--sharde'], '--shared'],
    ] as const) {
      const r2 = tsm([...args], { cwd: marked.dir });
      expect(r2.code).toBe(2);
      expect(r2.stderr).toContain(`did you mean ${meant}?`);
    }
  });

  it("an option of another command is said to be that command's, never suggested back as itself", () => {
    // Measured before: `tsm index --verbose` said "unknown option --verbose (did you mean --verbose?)".
    for (const [args, owners] of [
      [['index', '--verbose'], 'tsm search'],
      [['status', '--verbose'], 'tsm search'],
      [['index', '--limit', '3'], 'tsm search and tsm related'],
      [['serve', '--json'], 'tsm status, tsm doctor, tsm index, tsm related, tsm ingest-session and tsm model'],
    ] as const) {
      const r = tsm([...args], { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`tsm: unknown option ${args[1]} (${args[1]} is an option of ${owners})`);
    }
    // A close name this command does not take either is said to be another's; one it takes is as before.
    const near = tsm(['index', '--verbos'], { cwd: marked.dir });
    expect(near.code).toBe(2);
    expect(near.stderr.split('\n')[0]).toBe('tsm: unknown option --verbos (did you mean --verbose? an option of tsm search)');
    expect(tsm(['index', '--ful'], { cwd: marked.dir }).stderr.split('\n')[0]).toBe('tsm: unknown option --ful (did you mean --full?)');
  });

  it('a negated flag is named as typed, and is its option all the same', () => {
    // Measured before: `tsm status --no-embed` said 'unexpected argument "embed"' (yargs names it without its
    // no-), `tsm index --no-ful` 'unexpected argument "ful"', and search's fast path only "unknown option --no-embed".
    for (const [args, says] of [
      [['status', '--no-embed'], 'unknown option --no-embed (--embed is an option of tsm index)'],
      [['index', '--no-verbose'], 'unknown option --no-verbose (--verbose is an option of tsm search)'],
      [['index', '--no-ful'], 'unknown option --no-ful (did you mean --no-full?)'],
      [['search', 'LoRa', '--no-embed'], 'unknown option --no-embed (--embed is an option of tsm index); a query word that starts with "-" goes after --, as in: -- --no-embed'],
      // search takes --limit, just not negated: no other command is named for it.
      [['search', 'LoRa', '--no-limit'], 'unknown option --no-limit; a query word that starts with "-" goes after --, as in: -- --no-limit'],
    ] as const) {
      const r = tsm([...args], { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`tsm: ${says}`);
    }
  });

  it('a value option negated is refused, never read as not given', () => {
    // Measured before: `tsm status --no-vault` ran on the current folder (yargs negates any option, and false
    // read as no --vault), `--no-db` on the default index, `tsm model list --no-model` on the default model, and
    // `tsm related x --no-limit` said "--limit needs a value". Search's fast path refused them already.
    for (const args of [['status', '--no-vault'], ['status', '--no-db'], ['model', 'list', '--no-model'], ['related', 'x', '--no-limit'], ['watch', '--no-debounce']]) {
      const name = args[args.length - 1].slice(5);
      const r = tsm(args, { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`tsm: unknown option --no-${name}: --${name} takes a value; leave it out for its default`);
    }
  });

  it("search's fast path says whose option another command's is, in the words yargs' commands use", () => {
    // Measured before: `tsm search LoRa --embed` said "unknown option --embed" and `--pol` no suggestion, while
    // `tsm status --embed` named tsm index: the table of whose option is whose lived in yargs-cli.ts only.
    for (const [flag, says] of [
      ['--embed', '(--embed is an option of tsm index)'],
      ['--debounce', '(--debounce is an option of tsm watch)'],
      ['--pol', '(did you mean --poll? an option of tsm watch)'],
      ['--embd', '(did you mean --embed? an option of tsm index)'],
    ] as const) {
      const fast = tsm(['search', 'LoRa', flag], { cwd: marked.dir });
      expect(fast.code, flag).toBe(2);
      expect(fast.stdout, flag).toBe('');
      expect(fast.stderr.split('\n')[0], flag).toBe(`tsm: unknown option ${flag} ${says}; a query word that starts with "-" goes after --, as in: -- ${flag}`);
      expect(tsm(['status', flag], { cwd: marked.dir }).stderr.split('\n')[0], flag).toBe(`tsm: unknown option ${flag} ${says}`);
    }
    // Never an option the fast path then refuses, nor the name rejected: it takes no --version.
    expect(tsm(['search', 'LoRa', '--versoin'], { cwd: marked.dir }).stderr.split('\n')[0]).toBe('tsm: unknown option --versoin; a query word that starts with "-" goes after --, as in: -- --versoin');
    expect(tsm(['search', 'LoRa', '--version'], { cwd: marked.dir }).stderr.split('\n')[0]).toBe('tsm: unknown option --version; a query word that starts with "-" goes after --, as in: -- --version');
    expect(tsm(['status', '--versoin'], { cwd: marked.dir }).stderr.split('\n')[0]).toBe('tsm: unknown option --versoin (did you mean --version?)');
  });

  it('says so without loading the yargs command table: a package whose dist/lazy/yargs-cli.js is gone still says it', () => {
    const pkg = packageWithout(['lazy/yargs-cli.js']);
    try {
      const run = (args: string[]) => pkg.run(args, marked.dir);
      const r = run(['search', 'LoRa', '--embed']);
      expect(r.status).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe('tsm: unknown option --embed (--embed is an option of tsm index); a query word that starts with "-" goes after --, as in: -- --embed');
      expect(run(['status', '--embed']).status).not.toBe(2); // the copy is one without yargs: the check can fail
    } finally {
      pkg.cleanup();
    }
  });

  it('`tsm search q --json`, written as `tsm status --json` is, names -f json (an option named like a value names its option)', () => {
    for (const [flag, meant] of [['--json', '-f json'], ['--xml', '-f xml'], ['--md', '-f md'], ['--high', '--detail high']] as const) {
      const r = tsm(['search', 'LoRa', flag], { cwd: marked.dir });
      expect(r.code, flag).toBe(2);
      expect(r.stdout, flag).toBe('');
      expect(r.stderr.split('\n')[0], flag).toBe(`tsm: unknown option ${flag} (did you mean ${meant}?); a query word that starts with "-" goes after --, as in: -- ${flag}`);
    }
  });

  it("a usage error points to the command's own help, where its options are listed; with no command, to tsm --help", () => {
    // Measured before: every one said "Run `tsm --help` for usage.", which lists the commands, not their options.
    const cases: [string[], string][] = [
      [['search', '--bogus', 'x'], 'tsm search --help'],
      [['search', '-f', 'yaml', 'x'], 'tsm search --help'],
      [['search'], 'tsm search --help'],
      [['index', '--bogus'], 'tsm index --help'],
      [['index', '--threads', '2'], 'tsm index --help'],
      [['status', '--bogus'], 'tsm status --help'],
      [['related'], 'tsm related --help'],
      [['init', '--shared'], 'tsm init --help'],
      [['model', 'pull', '--bogus'], 'tsm model --help'],
      [['bogus'], 'tsm --help'],
      [['--bogus'], 'tsm --help'],
      // An option's value is no command: `index` below is a vault's name (measured before: tsm index --help).
      [['--vault', 'index', 'search', 'x', '--bogus'], 'tsm search --help'],
      [['--db', 'index', 'status', '--bogus'], 'tsm status --help'],
      [['--vault=index', 'status', '--bogus'], 'tsm status --help'],
      [['-n', 'index', 'related', 'a'], 'tsm related --help'],
      [['--vault', 'index'], 'tsm --help'],
    ];
    for (const [args, help] of cases) {
      const r = tsm(args, { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^tsm: .*\\nRun \`${help}\` for usage\\.\\n$`));
      // And that help lists what the error is about.
      if (args[0] === 'search' || args[0] === 'index') expect(tsm([...help.split(' ').slice(1)]).stdout).toContain(args[0] === 'index' ? '--threads' : '--format');
    }
    // A hook never exits 2 nor points to help: its error is the hook's (README, Exit codes).
    const hook = tsm(['hook', '--bogus'], { cwd: marked.dir, input: '{"hook_event_name":"Stop","session_id":"s","transcript_path":"/nonexistent"}' });
    expect(hook.code).not.toBe(2);
    expect(hook.stderr).not.toContain('--help');
  });

  it('an unknown command is named as such, with the closest command, never its options', () => {
    const b = tsm(['bogus', '--vault', marked.dir], { cwd: marked.dir });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/^tsm: unknown command bogus; the commands: index, search, status/);
    expect(b.stderr).not.toContain('--vault');
    for (const args of [['statsu'], ['statsu', '--json'], ['--vault', marked.dir, 'statsu']]) {
      const r = tsm(args, { cwd: marked.dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('unknown command statsu (did you mean status?)');
    }
  });

  it('a folder given as an argument (`tsm index ~/notes`, as rg takes one) is refused with --vault named, nothing indexed', () => {
    const here = makeVault({ 'n.md': '# N\n' });
    try {
      for (const cmd of ['index', 'status', 'watch', 'doctor']) {
        const r = tsm([cmd, here.dir], { cwd: marked.dir });
        expect(r.code, cmd).toBe(2);
        expect(r.stderr, cmd).toContain(`unexpected argument "${here.dir}" (a folder: name a vault with --vault ${here.dir})`);
      }
      expect(existsSync(join(here.dir, '.tsm'))).toBe(false);
      // A word that is no folder keeps the plain message.
      expect(tsm(['index', 'no-such-folder'], { cwd: marked.dir }).stderr).toMatch(/unexpected argument "no-such-folder"\n/);
    } finally {
      here.cleanup();
    }
  });

  it('--help prints each example command whole on a line of its own, at any terminal width', () => {
    const lines = (cmd: string) => tsm([cmd, '--help']).stdout.split('\n').map((l) => l.trim());
    expect(lines('index')).toContain('git diff --name-only | tsm index --files-from-stdin');
    expect(lines('index')).toContain('# check only these files');
    expect(lines('search')).toContain('tsm search -f json --type knowledge --recent 3m "antenna gain"');
    expect(lines('model')).toContain('tsm model pull intfloat/multilingual-e5-small');
    // yargs wraps at helpWrap(the terminal's columns): never narrower than that longest example and its indent
    const longest = 'tsm search -f json --type knowledge --recent 3m "antenna gain"'.length + 4;
    for (const columns of [20, 40, 60]) expect(helpWrap(columns)).toBeGreaterThanOrEqual(longest);
    expect([helpWrap(80), helpWrap(200), helpWrap(undefined)]).toEqual([80, 100, 100]);
  });

  // The help said "$TSM_SNIPPET_BUDGET or 1500", leaving out the setting that `tsm init` writes.
  it("search --help names --budget's defaults as they apply: $TSM_SNIPPET_BUDGET, then config.json's snippetBudget", () => {
    const help = tsm(['search', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('(default $TSM_SNIPPET_BUDGET, else "snippetBudget" in .tsm/config.json, else 1500)');
  });

  it('--version prints the package version', () => {
    const r = tsm(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it('tsm related takes -n', () => {
    const all = tsm(['related', 'a', '--json'], { cwd: marked.dir });
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).backlinks).toHaveLength(2);
    const one = tsm(['related', 'a', '-n', '1', '--json'], { cwd: marked.dir });
    const j = JSON.parse(one.stdout);
    expect(j.backlinks).toHaveLength(1);
    expect(j.outgoing).toHaveLength(1);
    expect(tsm(['related', 'a', '-n', '1'], { cwd: marked.dir }).stdout).toMatch(/backlinks \(1 of 2\)/);
    expect(tsm(['related', 'a', '-n', '0'], { cwd: marked.dir }).code).toBe(2);
  });

  it('colour: never to a pipe, unless FORCE_COLOR; NO_COLOR and FORCE_COLOR=0 refuse it', () => {
    const ansi = /\u001b\[/;
    expect(tsm(['search', 'LoRa'], { cwd: marked.dir }).stdout).not.toMatch(ansi);
    expect(tsm(['search', 'LoRa'], { cwd: marked.dir, env: { FORCE_COLOR: '1' } }).stdout).toMatch(ansi);
    expect(tsm(['search', 'LoRa'], { cwd: marked.dir, env: { FORCE_COLOR: '0' } }).stdout).not.toMatch(ansi);
    expect(tsm(['search', 'LoRa'], { cwd: marked.dir, env: { NO_COLOR: '1' } }).stdout).not.toMatch(ansi);
  });
});
