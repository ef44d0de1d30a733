// One index named by two vaults (a TSM_DB set once in a shell profile, or the same --db): the index holds
// one vault's notes, and a second vault is refused with the fix instead of replacing them (index-vault.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

describe('an index outside its vault, named by another vault', () => {
  it('is refused by every command of the other vault, and the first vault keeps its notes', () => {
    const v = makeVault({ 'one/a.md': '# A\n\nalpha from one\n', 'two/b.md': '# B\n\nbravo from two\n' });
    try {
      const db = join(v.dir, 'shared.db');
      const [one, two] = [join(v.dir, 'one'), join(v.dir, 'two')];
      expect(tsm(['index', '--vault', one, '--db', db]).code).toBe(0);
      for (const args of [['index'], ['search', 'bravo'], ['status'], ['related', 'b']]) {
        const r = tsm([...args, '--vault', two, '--db', db]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toContain(`the index ${db} holds the notes of the vault ${one}, not of ${two}`);
        expect(r.stderr).toMatch(/give this vault an index of its own/);
      }
      // The first vault by another name (a symlink to its folder) is the same vault.
      symlinkSync(one, join(v.dir, 'one-link'));
      const linked = tsm(['search', 'alpha', '--ids', '--vault', join(v.dir, 'one-link'), '--db', db]);
      expect(linked.code, linked.stderr).toBe(0);
      // TSM_DB the same way; the first vault's notes are all still there.
      expect(tsm(['index', '--vault', two], { env: { TSM_DB: db } }).code).toBe(1);
      const found = tsm(['search', 'alpha', '--ids', '--vault', one, '--db', db]);
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout.trim()).not.toBe('');
      // The prompt hook fails open: the prompt goes through, with nothing of the other vault injected.
      const hook = tsm(['hook', '--vault', two, '--db', db], { input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'alpha bravo', cwd: two, session_id: 's' }) });
      expect(hook.code).toBe(0);
      expect(hook.stdout).not.toContain('alpha from one');
    } finally {
      v.cleanup();
    }
  });

  it('follows its vault when the vault folder is moved, and a copy of a vault with its own .tsm/ index is a vault of its own', () => {
    const v = makeVault({ 'one/a.md': '# A\n\nalpha\n' });
    try {
      const db = join(v.dir, 'shared.db');
      expect(tsm(['index', '--vault', join(v.dir, 'one'), '--db', db]).code).toBe(0);
      renameSync(join(v.dir, 'one'), join(v.dir, 'moved'));
      const moved = tsm(['index', '--vault', join(v.dir, 'moved'), '--db', db]);
      expect(moved.code, moved.stderr).toBe(0);
      expect(tsm(['search', 'alpha', '--ids', '--vault', join(v.dir, 'moved'), '--db', db]).stdout.trim()).not.toBe('');
      // The default index lives in the vault: a copied vault takes its index along and uses it.
      expect(tsm(['index', '--vault', join(v.dir, 'moved')]).code).toBe(0);
      cpSync(join(v.dir, 'moved'), join(v.dir, 'copy'), { recursive: true });
      const copy = tsm(['search', 'alpha', '--ids', '--vault', join(v.dir, 'copy')]);
      expect(copy.code, copy.stderr).toBe(0);
      expect(copy.stdout.trim()).not.toBe('');
    } finally {
      v.cleanup();
    }
  });

  it("a .tsm/index.db that is a link to another vault's index is refused, with the fix, and the other vault keeps its notes", () => {
    // Only a linked `.tsm` folder was followed: with the file itself a link, `tsm index` of the second vault
    // said "1 added, 1 removed" and a search of the first one found the second one's note.
    const v = makeVault({ 'one/a.md': '# A\n\nalpha from one\n', 'two/b.md': '# B\n\nbravo from two\n', 'two/.tsm/keep': '' });
    try {
      const [one, two] = [join(v.dir, 'one'), join(v.dir, 'two')];
      expect(tsm(['index', '--vault', one]).code).toBe(0);
      const link = join(two, '.tsm', 'index.db');
      symlinkSync(join(one, '.tsm', 'index.db'), link);
      const said =
        `the index ${link} holds the notes of the vault ${one}, not of ${two} (${link} is a link to ${join(one, '.tsm', 'index.db')}): ` +
        'give this vault an index of its own (delete the link, and `tsm index` builds one there, or name another file with --db or TSM_DB)';
      for (const args of [['index'], ['search', 'bravo'], ['status']]) {
        const r = tsm([...args, '--vault', two]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe(`tsm: ${said}\n`);
      }
      const found = tsm(['search', 'alpha', '-f', 'json', '--vault', one]);
      expect(found.code, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['a.md']);
      // A link to a file outside every vault (a faster disk) is the vault's own index.
      rmSync(link);
      symlinkSync(join(v.dir, 'two-index.db'), link);
      expect(tsm(['index', '--vault', two]).code).toBe(0);
      expect(tsm(['search', 'bravo', '--ids', '--vault', two]).stdout.trim()).not.toBe('');
    } finally {
      v.cleanup();
    }
  });

  it('a vault copied with cp -al (its index a hard link of the first one\'s) is refused, and the first keeps its notes', () => {
    // Inside the vault by every name, the copy's index was its own: the copy's `tsm index` wrote its notes into
    // the first vault's index, and a search of the first vault found b.md, which it does not have.
    const v = makeVault({ 'one/a.md': '# A\n\nalpha from one\n' });
    try {
      const [one, two] = [join(v.dir, 'one'), join(v.dir, 'two')];
      expect(tsm(['index', '--vault', one]).code).toBe(0);
      expect(spawnSync('cp', ['-al', one, two]).status).toBe(0);
      writeFileSync(join(two, 'b.md'), '# B\n\nalpha from two\n');
      const index = join(two, '.tsm', 'index.db');
      for (const args of [['index'], ['search', 'alpha']]) {
        const r = tsm([...args, '--vault', two]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toBe(
          `tsm: the index ${index} holds the notes of the vault ${one}, not of ${two} (${index} is one of the file's 2 names: a hard link, as \`cp -al\` or a backup tool makes): ` +
            `give this vault an index of its own (delete ${index}, which leaves the other name, and \`tsm index\` builds one, or name another file with --db or TSM_DB)\n`,
        );
      }
      const found = tsm(['search', 'alpha', '-f', 'json', '--vault', one]);
      expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['a.md']);
      // The fix it names.
      rmSync(index);
      expect(tsm(['index', '--vault', two]).code).toBe(0);
      expect(JSON.parse(tsm(['search', 'alpha', '-f', 'json', '--vault', two]).stdout).map((h: { path: string }) => h.path).sort()).toEqual(['a.md', 'b.md']);
      expect(tsm(['index', '--vault', one]).stdout).toMatch(/^0 added, 0 updated, 0 removed, 1 unchanged/);
    } finally {
      v.cleanup();
    }
  });

  it('a .tsm that is a link to another vault\'s .tsm/ is refused, with the fix, and the other vault keeps its notes', () => {
    // The index counted as inside the vault by the name it was reached by: `tsm index` of the vault with the link
    // replaced the other vault's notes ("1 added, 1 removed"), and a search of the other vault found nothing.
    const v = makeVault({ 'one/a.md': '# A\n\nalpha from one\n', 'two/b.md': '# B\n\nbravo from two\n', 'elsewhere/keep': '' });
    try {
      const [one, two] = [join(v.dir, 'one'), join(v.dir, 'two')];
      expect(tsm(['index', '--vault', one]).code).toBe(0);
      symlinkSync(join(one, '.tsm'), join(two, '.tsm'));
      const said =
        `the index ${join(two, '.tsm/index.db')} holds the notes of the vault ${one}, not of ${two} (${join(two, '.tsm')} leads to ${join(one, '.tsm')}): ` +
        `give this vault an index of its own (make ${join(two, '.tsm')} a folder of its own, not a link, or name another file with --db or TSM_DB)`;
      for (const args of [['index'], ['search', 'bravo'], ['status']]) {
        const r = tsm([...args, '--vault', two]);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toBe(`tsm: ${said}\n`);
      }
      const found = tsm(['search', 'alpha', '--ids', '--vault', one]);
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout.trim()).not.toBe('');
      // A .tsm linked to a folder outside every vault (a faster disk) is the vault's own; a copy of the vault
      // that keeps the link is refused, as it would share the first one's index.
      const three = join(v.dir, 'three');
      cpSync(one, three, { recursive: true, filter: (src) => !src.endsWith('.tsm') });
      symlinkSync(join(v.dir, 'elsewhere'), join(three, '.tsm'));
      expect(tsm(['index', '--vault', three]).code).toBe(0);
      const copy = join(v.dir, 'copy');
      cpSync(three, copy, { recursive: true, verbatimSymlinks: true });
      const refused = tsm(['index', '--vault', copy]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`holds the notes of the vault ${three}, not of ${copy}`);
    } finally {
      v.cleanup();
    }
  });
});
