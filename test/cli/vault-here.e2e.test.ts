// Which vault a command run in a folder uses, as a user with several vaults and projects meets it: the
// built CLI in temporary folders (README, "Configuration and where the index lives").
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

describe('the vault of the current folder', () => {
  it('a folder reached through a symlink in the vault is in that vault, as the shell names it ($PWD)', () => {
    const v = makeVault({ 'notes/a.md': '# A\n\nalpha\n', 'elsewhere/ext/e.md': '# Ext\n\ngamma\n' });
    try {
      const vault = join(v.dir, 'notes');
      const real = join(v.dir, 'elsewhere/ext');
      symlinkSync(real, join(vault, 'ext'));
      expect(tsm(['index'], { cwd: vault }).code).toBe(0);
      // `cd ~/notes/ext`: the process's folder is the real one, outside the vault; the shell's is inside.
      const here = { cwd: real, env: { PWD: join(vault, 'ext') } };
      const found = tsm(['search', 'gamma', '--ids'], here);
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).not.toBe('');
      expect(tsm(['status', '--json'], here).stdout).toContain(`"vault": ${JSON.stringify(vault)}`);
      expect(tsm(['index'], here).code).toBe(0);
      expect(existsSync(join(real, '.tsm')), 'a second vault made in the link target').toBe(false);
      // $PWD naming another folder (a stale one) is not believed: the real folder is still not a vault.
      mkdirSync(join(v.dir, 'other'));
      const stale = tsm(['search', 'gamma'], { cwd: real, env: { PWD: join(v.dir, 'other') } });
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/no vault here: neither .*elsewhere\/ext nor/);
    } finally {
      v.cleanup();
    }
  });

  it('a symlink to a folder inside a vault still finds that vault by its real path', () => {
    const v = makeVault({ 'notes/.tsm/keep': '', 'notes/proj/p.md': '# P\n\nbeta\n' });
    try {
      symlinkSync(join(v.dir, 'notes/proj'), join(v.dir, 'proj-link'));
      const here = { cwd: join(v.dir, 'proj-link'), env: { PWD: join(v.dir, 'proj-link') } };
      expect(tsm(['index'], here).code).toBe(0);
      expect(tsm(['status', '--json'], here).stdout).toContain(`"vault": ${JSON.stringify(join(v.dir, 'notes'))}`);
      expect(existsSync(join(v.dir, 'notes/proj/.tsm'))).toBe(false);
    } finally {
      v.cleanup();
    }
  });

  it('~ in a path no shell expanded (settings.json env, .mcp.json args, --vault=~/…) is the home folder', () => {
    const home = makeVault({ 'notes/a.md': '# A\n\nalpha\n', 'project/.keep': '' });
    try {
      const cwd = join(home.dir, 'project');
      const env = { HOME: home.dir, TSM_VAULT: '~/notes', TSM_DB: '~/indexes/notes.db' };
      const indexed = tsm(['index'], { cwd, env });
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(existsSync(join(home.dir, 'indexes/notes.db'))).toBe(true);
      expect(readdirSync(cwd), 'a folder named ~ made in the current folder').toEqual(['.keep']);
      const found = tsm(['search', 'alpha', '--ids', '--vault=~/notes', '--db=~/indexes/notes.db'], { cwd, env: { HOME: home.dir } });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).not.toBe('');
      // The prompt hook, with TSM_VAULT from Claude Code's settings.json (its index in the vault's .tsm/).
      expect(tsm(['index', '--vault', join(home.dir, 'notes')]).code).toBe(0);
      const payload = { hook_event_name: 'UserPromptSubmit', prompt: 'alpha', cwd, session_id: 's1' };
      const hook = tsm(['hook'], { cwd, env: { HOME: home.dir, TSM_VAULT: '~/notes' }, input: JSON.stringify(payload) });
      expect(hook.code).toBe(0);
      expect(hook.stdout).toContain('a.md');
    } finally {
      home.cleanup();
    }
  });

  it('--db or $TSM_DB naming a folder: the fix is a file name in it, not moving the folder aside', () => {
    const v = makeVault({ 'notes/a.md': '# A\n\nalpha\n', 'indexes/keep.txt': 'mine' });
    try {
      const dir = join(v.dir, 'indexes');
      for (const [args, env, named] of [
        [['--db', dir], {}, '--db'],
        [[], { TSM_DB: dir }, 'TSM_DB'],
      ] as const) {
        const r = tsm(['search', 'alpha', '--vault', join(v.dir, 'notes'), ...args], { env });
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(`tsm: the index must be a file, and ${dir} is a folder: give ${named} a file name, like ${join(dir, 'index.db')}\n`);
      }
      expect(readdirSync(dir)).toEqual(['keep.txt']);
    } finally {
      v.cleanup();
    }
  });

  it('--vault or --db given twice counts the last one in every command, as search takes it', () => {
    // yargs made a repeated option an array, read as no --vault at all: `tsm index` made an index of the
    // current folder (an alias naming one vault, and another typed after it), and `--db` twice wrote the default index.
    const v = makeVault({ 'notes/a.md': '# A\n\nalpha\n', 'other/o.md': '# O\n\nomega\n', 'project/.keep': '' });
    try {
      const cwd = join(v.dir, 'project');
      const [notes, other, db] = [join(v.dir, 'notes'), join(v.dir, 'other'), join(v.dir, 'notes.db')];
      const indexed = tsm(['index', '--vault', other, '--vault', notes, '--db', join(v.dir, 'first.db'), '--db', db], { cwd });
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(indexed.stdout).toMatch(/^1 added/);
      expect(readdirSync(cwd), 'an index made in the current folder').toEqual(['.keep']);
      expect(existsSync(db)).toBe(true);
      expect(existsSync(join(v.dir, 'first.db'))).toBe(false);
      expect(existsSync(join(notes, '.tsm/index.db'))).toBe(false);
      for (const command of ['status', 'doctor']) {
        const r = tsm([command, '--json', '--vault', other, '--vault', notes, '--db', db], { cwd });
        expect(JSON.parse(r.stdout), command).toMatchObject({ vault: notes, db });
      }
      const found = tsm(['search', 'alpha', '--ids', '--vault', other, '--vault', notes, '--db', db], { cwd });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).not.toBe('');
    } finally {
      v.cleanup();
    }
  });

  it('an empty --vault or --db (an unset variable, or no value after the flag) is a usage error, never the current folder', () => {
    // They were the current folder: `tsm index --vault` in a vault's subfolder made a second vault there, and
    // `tsm search x --vault "$NOTES"` with NOTES unset indexed the code checkout it ran in.
    const v = makeVault({ 'notes/.tsm/keep': '', 'notes/a.md': '# A\n\nalpha\n', 'notes/sub/b.md': '# B\n\nbeta\n', 'project/README.md': '# Readme\n\nalpha\n' });
    try {
      const cases: [string[], string][] = [
        [['index', '--vault'], 'notes/sub'],
        [['index', '--vault', ''], 'notes/sub'],
        [['index', '--vault='], 'notes/sub'],
        [['index', '--db', ''], 'notes/sub'],
        [['status', '--vault', ''], 'notes/sub'],
        [['doctor', '--db', ''], 'notes/sub'],
        [['init', '--vault', ''], 'project'],
        [['search', 'alpha', '--vault', ''], 'project'],
        [['search', 'alpha', '--vault='], 'project'],
        [['search', 'alpha', '--db', ''], 'project'],
      ];
      for (const [args, folder] of cases) {
        const r = tsm(args, { cwd: join(v.dir, folder) });
        const flag = args.find((a) => a.startsWith('--'))?.replace(/=$/, '');
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stdout, args.join(' ')).toBe('');
        expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`tsm: ${flag} needs a value`);
      }
      expect(readdirSync(join(v.dir, 'notes/sub')), 'a second vault made in the subfolder').toEqual(['b.md']);
      expect(readdirSync(join(v.dir, 'project')), 'an index made in the project').toEqual(['README.md']);
      // The hook's command line is never refused (it ignores an empty value): it answers, exit 0.
      const payload = { hook_event_name: 'UserPromptSubmit', prompt: 'alpha', cwd: join(v.dir, 'project'), session_id: 's1' };
      expect(tsm(['hook', '--vault', ''], { cwd: join(v.dir, 'project'), input: JSON.stringify(payload) }).code).toBe(0);
      expect(readdirSync(join(v.dir, 'project'))).toEqual(['README.md']);
    } finally {
      v.cleanup();
    }
  });
});
