import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPathInVault } from '../../src/mcp/vault-path.js';
import { typedVaultPath as vaultRelative } from '../../src/vault/paths.js';

let root: string;
let vault: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-mcp-paths-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'notes'), { recursive: true });
  writeFileSync(join(vault, 'notes', 'a.md'), 'a');
  writeFileSync(join(root, 'outside.md'), 'secret');
  symlinkSync(join(root, 'outside.md'), join(vault, 'notes', 'out.md'));
  symlinkSync(join(vault, 'notes', 'a.md'), join(vault, 'inside-link.md'));
  symlinkSync(root, join(vault, 'up'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('vaultRelative', () => {
  it('turns relative and absolute paths inside the vault into vault paths', () => {
    expect(vaultRelative(vault, 'notes/a.md')).toBe('notes/a.md');
    expect(vaultRelative(vault, './notes/../notes/a.md')).toBe('notes/a.md');
    expect(vaultRelative(vault, join(vault, 'notes', 'a.md'))).toBe('notes/a.md');
    expect(vaultRelative(vault, 'notes/')).toBe('notes/');
    expect(vaultRelative(vault, '.')).toBe('');
    expect(vaultRelative(vault, 'cafe\u0301.md')).toBe('café.md');
  });

  it('refuses paths that leave the vault, empty paths and NUL bytes', () => {
    for (const p of ['..', '../x.md', 'notes/../../x.md', '/etc/passwd', root, `${vault}-other/x.md`]) {
      expect(() => vaultRelative(vault, p), p).toThrow(/outside the vault/);
    }
    expect(() => vaultRelative(vault, ' ')).toThrow(/must not be empty/);
    expect(() => vaultRelative(vault, 'a\0b', 'file')).toThrow(/^file must not contain NUL/);
  });
});

describe('vaultRelative, the vault named through a symlink', () => {
  it("takes an absolute path in the vault's real folder, and still refuses ../ out of the name", () => {
    const named = join(root, 'named');
    symlinkSync(vault, named);
    // Was "outside the vault": the same file, named as realpath (or macOS's /private/tmp) names it.
    expect(vaultRelative(named, join(vault, 'notes', 'a.md'))).toBe('notes/a.md');
    expect(vaultRelative(named, join(vault, 'notes') + '/')).toBe('notes/');
    expect(vaultRelative(named, join(named, 'notes', 'a.md'))).toBe('notes/a.md');
    for (const p of ['../vault/notes/a.md', `${vault}-other/x.md`, root]) expect(() => vaultRelative(named, p), p).toThrow(/outside the vault/);
  });
});

describe('realPathInVault', () => {
  it('resolves files and symlinks that stay inside the vault', () => {
    expect(realPathInVault(vault, 'notes/a.md')).toBe(realpathSync(join(vault, 'notes', 'a.md')));
    expect(realPathInVault(vault, 'inside-link.md')).toBe(realpathSync(join(vault, 'notes', 'a.md')));
  });

  it('refuses a note that is a symlink out of the vault, and missing files', () => {
    expect(() => realPathInVault(vault, 'notes/out.md')).toThrow(/symlink/);
    expect(() => realPathInVault(vault, 'notes/none.md')).toThrow(/not found/);
    expect(() => realPathInVault(vault, '../outside.md')).toThrow(/outside the vault/);
  });

  it('serves what indexing indexes: notes in a symlinked folder (the user put it in the vault)', () => {
    expect(realPathInVault(vault, 'up/outside.md')).toBe(realpathSync(join(root, 'outside.md')));
  });

  it('serves a symlinked file only when it leads inside the vault or a symlinked folder on its own path (docs/mcp.md)', () => {
    mkdirSync(join(root, 'shelf'));
    writeFileSync(join(root, 'shelf', 'n.md'), 'n');
    symlinkSync(join(root, 'shelf'), join(vault, 'shelf'));
    symlinkSync(join(root, 'shelf', 'n.md'), join(root, 'shelf', 'alias.md'));
    symlinkSync(join(root, 'shelf', 'n.md'), join(vault, 'elsewhere.md'));
    expect(realPathInVault(vault, 'shelf/n.md')).toBe(realpathSync(join(root, 'shelf', 'n.md')));
    expect(realPathInVault(vault, 'shelf/alias.md')).toBe(realpathSync(join(root, 'shelf', 'n.md')));
    expect(() => realPathInVault(vault, 'elsewhere.md')).toThrow(/leads outside the vault through a symlink/);
  });

  it('finds a note whose name is NFD on disk by its NFC path', () => {
    writeFileSync(join(vault, 'notes', '\u30d5\u309a\u30ed\u30b7\u3099\u30a7\u30af\u30c8.md'), 'nfd');
    expect(realPathInVault(vault, 'notes/\u30d7\u30ed\u30b8\u30a7\u30af\u30c8.md')).toBe(
      realpathSync(join(vault, 'notes', '\u30d5\u309a\u30ed\u30b7\u3099\u30a7\u30af\u30c8.md')),
    );
  });

  it('works when the vault itself is reached through a symlink', () => {
    const linkedVault = join(root, 'vault-link');
    symlinkSync(vault, linkedVault);
    expect(realPathInVault(linkedVault, 'notes/a.md')).toBe(realpathSync(join(vault, 'notes', 'a.md')));
    expect(() => realPathInVault(linkedVault, 'notes/out.md')).toThrow(/symlink/);
  });
});
