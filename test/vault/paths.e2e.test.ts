// The vault's path rules, through real `tsm index` runs (full scans and --files-from-stdin, which is how
// the watcher applies its batches): symlinks, Unicode normalisation, backslashes, names that are not
// UTF-8, dot-folders. Each case comes from an adversarial pass that found it mishandled.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let root: { dir: string; cleanup: () => void };
let vault: string;
beforeEach(() => {
  root = makeVault({
    'outside/passwd': 'root:x:0:0:root:/root:/bin/bash secretword\n',
    'outside/secret.md': '# Secret\n\nsecretword\n',
    'outside/notes/shared.md': '# Shared\n\nsharedword\n',
    'outside/notes/inner-out.md': '# Inner\n\ninnerword\n',
    'vault/real.md': '# Real\n\nrealword\n',
  });
  vault = join(root.dir, 'vault');
});
afterEach(() => root.cleanup());

function indexed(): string[] {
  const db = new Database(join(vault, '.tsm', 'index.db'), { readonly: true });
  const paths = (db.prepare('SELECT path FROM notes ORDER BY path').all() as { path: string }[]).map((r) => r.path);
  db.close();
  return paths;
}

function warnings(): Record<string, string> {
  const status = JSON.parse(tsm(['status', '--json'], { cwd: vault }).stdout) as { warningList: { path: string; message: string }[] };
  return Object.fromEntries(status.warningList.map((w) => [w.path, w.message]));
}

const index = (args: string[] = [], input?: string, stderr = '') => {
  const r = tsm(['index', ...args], { cwd: vault, input });
  expect(r.stderr).toBe(stderr);
  expect(r.code).toBe(0);
  return r;
};

describe('symlinks: one policy for indexing and serving', () => {
  beforeEach(() => {
    symlinkSync(join(root.dir, 'outside/passwd'), join(vault, 'passwd.md'));
    symlinkSync(join(root.dir, 'outside/secret.md'), join(vault, 'secret.md'));
    symlinkSync(join(root.dir, 'outside/notes'), join(vault, 'linked'));
    symlinkSync(join(vault, 'real.md'), join(vault, 'alias.md'));
    symlinkSync(vault, join(vault, 'loop'));
    symlinkSync(join(root.dir, 'outside/none.md'), join(vault, 'dangling.md'));
    symlinkSync(join(vault, 'ring-b.md'), join(vault, 'ring-a.md'));
    symlinkSync(join(vault, 'ring-a.md'), join(vault, 'ring-b.md'));
  });

  it('follows a symlinked folder of notes, a link inside the vault, and nothing that leads out', () => {
    index();
    expect(indexed()).toEqual(['alias.md', 'linked/inner-out.md', 'linked/shared.md', 'real.md']);
    const w = warnings();
    expect(w['passwd.md']).toMatch(/symlink to a file that is not a note: skipped/);
    expect(w['secret.md']).toMatch(/symlink to a file outside the vault: skipped/);
    expect(w['dangling.md']).toMatch(/broken symlink/);
    expect(w.loop).toMatch(/symlink loop/);
    // Two note links naming each other are a loop, not a broken link ("point it at an existing note").
    expect(w['ring-a.md']).toBe('symlink loop: skipped');
    expect(w['ring-b.md']).toBe('symlink loop: skipped');
    expect(tsm(['search', 'secretword', '-f', 'json'], { cwd: vault }).stdout).not.toContain('secret');
    expect(tsm(['search', 'sharedword', '-f', 'json'], { cwd: vault }).stdout).toContain('linked/shared.md');
  });

  it('applies the same policy to single paths (the watcher, --files-from-stdin)', () => {
    index();
    index(
      ['--files-from-stdin'],
      'passwd.md\nsecret.md\nlinked/shared.md\nalias.md\n',
      'tsm: 2 of 4 listed paths not taken:\n  passwd.md: symlink to a file that is not a note\n  secret.md: symlink to a file outside the vault\n',
    );
    expect(indexed()).toEqual(['alias.md', 'linked/inner-out.md', 'linked/shared.md', 'real.md']);
  });

  it('a link inside a symlinked folder may not lead out of it', () => {
    symlinkSync(join(root.dir, 'outside/passwd'), join(root.dir, 'outside/notes/pw.md'));
    index();
    expect(indexed()).not.toContain('linked/pw.md');
  });
});

describe('a path the listing refuses leaves the index, whatever it held before', () => {
  // Before, the sync's last look before forgetting a path (findOnDisk + a stat that follows links) found a
  // file there and kept the note: a note replaced by a link out kept its old text, found by search, until
  // `--full`; a second path to a folder stayed indexed twice.
  const plan = () => join(vault, 'daily', 'plan.md');
  beforeEach(() => {
    mkdirSync(join(vault, 'daily'));
    writeFileSync(plan(), '# Plan\n\noldplanword\n');
    index();
    expect(indexed()).toEqual(['daily/plan.md', 'real.md']);
    rmSync(plan());
    symlinkSync(join(root.dir, 'outside/secret.md'), plan());
  });

  it('a note replaced by a symlink out of the vault: tsm index removes it', () => {
    expect(index().stdout).toMatch(/^0 added, 0 updated, 1 removed/);
    expect(indexed()).toEqual(['real.md']);
    expect(tsm(['search', 'oldplanword', '-f', 'json'], { cwd: vault }).stdout).toBe('[]\n');
  });

  it('the same through single paths (the watcher, --files-from-stdin)', () => {
    expect(index(['--files-from-stdin'], 'daily/plan.md\n').stdout).toMatch(/^0 added, 0 updated, 1 removed/);
    expect(indexed()).toEqual(['real.md']);
  });
});

describe('a second path to a folder of the vault is not a second copy of its notes', () => {
  beforeEach(() => {
    mkdirSync(join(vault, 'knowledge', 'lora'), { recursive: true });
    writeFileSync(join(vault, 'knowledge', 'lora', 'guide.md'), '# Guide\n\nguideword\n');
  });

  it('single paths follow the scan: the note is taken under the path the scan walks, not the link', () => {
    symlinkSync('knowledge/lora', join(vault, 'lora-link'));
    index([], undefined, '');
    expect(indexed()).toEqual(['knowledge/lora/guide.md', 'real.md']);
    writeFileSync(join(vault, 'knowledge', 'lora', 'guide.md'), '# Guide\n\nguideword edited\n');
    // What the watcher hands over for one edit below a linked folder: the event under both paths.
    index(
      ['--files-from-stdin'],
      'knowledge/lora/guide.md\nlora-link/guide.md\n',
      'tsm: 1 of 2 listed paths not taken:\n  lora-link/guide.md: symlink loop or repeated folder: its notes are indexed under knowledge/lora/\n',
    );
    expect(indexed()).toEqual(['knowledge/lora/guide.md', 'real.md']);
  });

  it('tsm index removes the duplicate an index already holds', () => {
    // The index of a real copy, then the copy replaced by a link to the folder it copied: as an older
    // watcher left it.
    mkdirSync(join(vault, 'lora-link'));
    writeFileSync(join(vault, 'lora-link', 'guide.md'), '# Guide\n\nguideword\n');
    index();
    expect(indexed()).toEqual(['knowledge/lora/guide.md', 'lora-link/guide.md', 'real.md']);
    rmSync(join(vault, 'lora-link'), { recursive: true });
    symlinkSync('knowledge/lora', join(vault, 'lora-link'));
    expect(index().stdout).toMatch(/^0 added, 0 updated, 1 removed/);
    expect(indexed()).toEqual(['knowledge/lora/guide.md', 'real.md']);
  });

  it('a folder only a link leads to (its real path is skipped) is indexed under the link', () => {
    mkdirSync(join(vault, '.hidden'));
    writeFileSync(join(vault, '.hidden', 'kept.md'), '# Kept\n\nkeptword\n');
    symlinkSync('.hidden', join(vault, 'shown'));
    index();
    expect(indexed()).toEqual(['knowledge/lora/guide.md', 'real.md', 'shown/kept.md']);
    writeFileSync(join(vault, '.hidden', 'kept.md'), '# Kept\n\nkeptword edited\n');
    expect(index(['--files-from-stdin'], 'shown/kept.md\n').stdout).toMatch(/^0 added, 1 updated/);
  });
});

describe('file names', () => {
  const NFC = '\u30d7\u30ed\u30b8\u30a7\u30af\u30c8'; // プロジェクト
  const NFD = NFC.normalize('NFD');

  it('two names that differ only in NFC/NFD: one is indexed, the other reported, nothing silently lost', () => {
    writeFileSync(join(vault, `${NFC}.md`), '# A\n\nnfcword\n');
    writeFileSync(join(vault, `${NFD}.md`), '# B\n\nnfdword\n');
    index();
    expect(indexed()).toEqual(['real.md', `${NFC}.md`]);
    expect(Object.values(warnings()).join('\n')).toMatch(/differs from .* only in Unicode normalization \(NFC\/NFD\)/);
  });

  it('an NFD name is indexed under its NFC path and stays through single-path updates', () => {
    mkdirSync(join(vault, NFD));
    writeFileSync(join(vault, NFD, `${NFD}.md`), '# Project\n\nfirstword\n');
    index();
    const rel = `${NFC}/${NFC}.md`;
    expect(indexed()).toEqual(['real.md', rel]);
    writeFileSync(join(vault, NFD, `${NFD}.md`), '# Project\n\nsecondword and more\n');
    // The watcher hands sync NFC paths: before, the note was dropped on its first edit.
    expect(index(['--files-from-stdin'], `${rel}\n`).stdout).toMatch(/^0 added, 1 updated, 0 removed/);
    expect(tsm(['search', 'secondword', '-f', 'json'], { cwd: vault }).stdout).toContain(NFC);
    writeFileSync(join(vault, NFD, `${NFD}2.md`), '# New\n\nnewword\n');
    expect(index(['--files-from-stdin'], `${NFC}/${NFC}2.md\n`).stdout).toMatch(/^1 added/);
  });

  it('a backslash is part of a file name: the same path from a full scan and from single paths', () => {
    writeFileSync(join(vault, 'a\\b.md'), '# AB\n\nbackword\n');
    index();
    expect(indexed()).toEqual(['a\\b.md', 'real.md']);
    index(['--files-from-stdin'], 'a\\b.md\n');
    expect(indexed()).toEqual(['a\\b.md', 'real.md']);
  });

  it('a name that is not valid UTF-8 is reported, not silently ignored', () => {
    writeFileSync(Buffer.concat([Buffer.from(`${vault}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), '# Bad\n');
    index();
    expect(Object.entries(warnings()).find(([p]) => p.startsWith('bad'))?.[1]).toMatch(/not valid UTF-8/);
  });

  it('--files-from-stdin names a listed file whose name is not valid UTF-8 as such, as the scan does, not as a broken symlink', () => {
    writeFileSync(Buffer.concat([Buffer.from(`${vault}/bad`), Buffer.from([0xff, 0xfe]), Buffer.from('.md')]), '# Bad\n');
    index(); // (a first --files-from-stdin builds the whole index)
    expect(warnings()['bad\uFFFD\uFFFD.md']).toBe('the file name is not valid UTF-8, so it cannot be read: skipped; rename it');
    // As `git diff --name-only` prints it (core.quotePath), and as tsm prints it (U+FFFD for each bad byte), NUL-separated.
    const said = 'tsm: 1 of 1 listed path not taken:\n  bad\uFFFD\uFFFD.md: the file name is not valid UTF-8, so it cannot be read: rename it\n';
    for (const listed of ['"bad\\377\\376.md"\n', 'bad\uFFFD\uFFFD.md\0']) {
      const r = tsm(['index', '--files-from-stdin'], { cwd: vault, input: listed });
      expect(r.code, r.stderr).toBe(0);
      // It was "bad��.md: broken symlink".
      expect(r.stderr).toBe(said);
    }
  });

  it('a FIFO or a socket named like a note is reported, not silently ignored; a folder named x.md is walked', () => {
    expect(spawnSync('mkfifo', [join(vault, 'pipe.md')]).status).toBe(0);
    symlinkSync('pipe.md', join(vault, 'to-pipe.md'));
    mkdirSync(join(vault, 'folder.md'));
    writeFileSync(join(vault, 'folder.md', 'inside.md'), '# Inside\n');
    index();
    expect(indexed()).toEqual(['folder.md/inside.md', 'real.md']);
    const skipped = 'skipped: not a regular file (a pipe, a socket or a device)';
    expect(warnings()).toEqual({ 'pipe.md': skipped, 'to-pipe.md': skipped });
    const doctor = tsm(['doctor'], { cwd: vault }).stdout;
    expect(doctor).toContain(`pipe.md: ${skipped}\n        fix: remove it, or add it to .tsmignore`);
  });

  it('a .gitignore or .tsmignore that is a FIFO is reported and its rules are not applied: the index does not hang on it', () => {
    mkdirSync(join(vault, 'sub'));
    writeFileSync(join(vault, 'sub', 'b.md'), '# B\n');
    expect(spawnSync('mkfifo', [join(vault, 'sub', '.gitignore')]).status).toBe(0);
    expect(spawnSync('mkfifo', [join(vault, '.tsmignore')]).status).toBe(0);
    mkdirSync(join(vault, 'dir', '.gitignore'), { recursive: true }); // a folder named so is no rules file, for git either
    const r = tsm(['index'], { cwd: vault, timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(indexed()).toEqual(['real.md', 'sub/b.md']);
    const unread = 'cannot be read (not a regular file (a pipe, a socket or a device)): its ignore rules are not applied';
    expect(warnings()).toEqual({ '.tsmignore': unread, 'sub/.gitignore': unread });
    expect(tsm(['doctor'], { cwd: vault }).stdout).toContain(`sub/.gitignore: ${unread}\n        fix: make it a plain file your user can read (or remove it)`);
  });

  // Dot-named files too (they were notes): Obsidian lists neither, ripgrep skips both, and macOS writes a binary
  // `._name.md` beside every file on an exFAT or network drive.
  it('dot-folders and dot-named files are skipped, as Obsidian does', () => {
    writeFileSync(join(vault, '.hidden.md'), '# Hidden file\n');
    writeFileSync(join(vault, '._real.md'), Buffer.from([0, 5, 22, 7, 0, 2, 0, 0, 0x4d, 0x61, 0x63]));
    mkdirSync(join(vault, '.github'));
    writeFileSync(join(vault, '.github', 'PULL_REQUEST_TEMPLATE.md'), '# Template\n');
    mkdirSync(join(vault, 'sub', '.cache'), { recursive: true });
    writeFileSync(join(vault, 'sub', '.cache', 'x.md'), '# Cache\n');
    index();
    expect(indexed()).toEqual(['real.md']);
    const ignored = 'ignored (.tsmignore, .gitignore or a skipped folder)';
    index(
      ['--files-from-stdin'],
      '.github/PULL_REQUEST_TEMPLATE.md\nsub/.cache/x.md\n',
      `tsm: 2 of 2 listed paths not taken:\n  .github/PULL_REQUEST_TEMPLATE.md: ${ignored}\n  sub/.cache/x.md: ${ignored}\n`,
    );
    expect(indexed()).toEqual(['real.md']);
    index(['--files-from-stdin'], '.hidden.md\n', 'tsm: 1 of 1 listed path not taken:\n  .hidden.md: hidden (a name starting with "."): not a note\n');
    expect(indexed()).toEqual(['real.md']);
  });
});
