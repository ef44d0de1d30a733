// Paths typed in NFD (macOS tab completion writes `é` as `e` + U+0301) name the same notes as their NFC
// form, which the index keeps: `tsm related`'s argument, `--path` and `path:`, whatever form the file's
// name has on disk.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const nfc = (s: string) => s.normalize('NFC');
const nfd = (s: string) => s.normalize('NFD');

const vault = useIndexedVault({
  [nfd('café.md')]: '# Café\n\nthe ocelot sleeps\n', // NFD on disk, as macOS tools write it
  [nfc('dir/thé.md')]: '# Thé\n\nocelot tea, see [[café]]\n', // NFC on disk
});

function paths(args: string[]): string[] {
  const r = tsm(['search', ...args, '-f', 'json', '--vault', vault.dir]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
}

describe('paths typed in NFD', () => {
  it('tsm related finds the note by an NFD path, whatever its name on disk', () => {
    for (const [typed, path] of [
      [nfd('café.md'), nfc('café.md')],
      [nfd('dir/thé.md'), nfc('dir/thé.md')],
      [nfd('dir/thé'), nfc('dir/thé.md')],
    ]) {
      const r = tsm(['related', typed, '--json', '--vault', vault.dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).path).toBe(path);
    }
  });

  it('--path and path: match by an NFD prefix', () => {
    expect(paths(['ocelot', '--path', nfd('café')])).toEqual([nfc('café.md')]);
    expect(paths(['ocelot', '--path', nfd('dir/th')])).toEqual([nfc('dir/thé.md')]);
    expect(paths([`ocelot path:${nfd('café.md')}`])).toEqual([nfc('café.md')]);
    expect(paths([`ocelot path:"${nfd('dir/thé')}"`])).toEqual([nfc('dir/thé.md')]);
  });

  it('a path out of the vault is refused, and says how to give one', () => {
    const r = tsm(['search', 'ocelot', '--path', '../elsewhere', '--vault', vault.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--path is outside the vault: \.\.\/elsewhere \(give a path relative to the vault root/);
    expect(tsm(['related', '/etc/passwd', '--vault', vault.dir]).stderr).toMatch(/the note is outside the vault: \/etc\/passwd/);
  });
});
