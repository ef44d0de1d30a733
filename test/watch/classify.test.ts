import { machineShortOf } from '../../src/core/machine-limits.js';
import { statSync, mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  classifyEvent,
  createIgnoredTest,
  handlesAdvice,
  isNoteName,
  vaultRelative,
  watchFailureKind,
} from '../../src/watch/classify.js';

const MD = ['.md'];

describe('vaultRelative', () => {
  it('gives /-separated NFC paths below the vault', () => {
    expect(vaultRelative('/v', '/v/a/b.md')).toBe('a/b.md');
    expect(vaultRelative('/v', '/v/ノート/カ\u3099.md')).toBe('ノート/ガ.md');
  });
  it('is null for the vault itself and for paths outside it', () => {
    expect(vaultRelative('/v', '/v')).toBeNull();
    expect(vaultRelative('/v', '/other/a.md')).toBeNull();
    expect(vaultRelative('/v', '/v2/a.md')).toBeNull();
  });
  it('keeps names that merely start with two dots', () => {
    expect(vaultRelative('/v', '/v/..notes.md')).toBe('..notes.md');
  });
});

describe('classifyEvent', () => {
  it('turns note events into paths to check', () => {
    for (const ev of ['add', 'change', 'unlink'] as const) {
      expect(classifyEvent(ev, 'notes/a.md', MD)).toEqual({ kind: 'note', rel: 'notes/a.md' });
    }
    expect(classifyEvent('change', 'UPPER.MD', MD)).toEqual({ kind: 'note', rel: 'UPPER.MD' });
  });
  it('honours configured extensions', () => {
    expect(classifyEvent('add', 'a.markdown', ['.md', '.markdown'])).toEqual({ kind: 'note', rel: 'a.markdown' });
    expect(classifyEvent('add', 'a.markdown', MD)).toEqual({ kind: 'none' });
  });
  it('ignores files that are not notes, and a bare extension', () => {
    expect(classifyEvent('add', 'img/photo.png', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('change', 'notes/a.md.swp', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('add', 'notes/.md', MD)).toEqual({ kind: 'none' });
  });
  it('ignores everything below always-skipped folders', () => {
    for (const rel of ['.git/x.md', '.tsm/index.db', 'a/node_modules/b.md', '.obsidian/ws.md', '.trash/old.md']) {
      expect(classifyEvent('add', rel, MD)).toEqual({ kind: 'none' });
    }
    expect(classifyEvent('addDir', '.git/objects', MD)).toEqual({ kind: 'none' });
    for (const rel of ['logseq/bak/pages/p/2026-11-20T09_14_03.521Z.Desktop.md', 'g/logseq/version-files/base/pages/p.md']) {
      expect(classifyEvent('add', rel, MD)).toEqual({ kind: 'none' });
    }
    expect(classifyEvent('add', 'bak/p.md', MD)).toEqual({ kind: 'note', rel: 'bak/p.md' });
  });
  it("rescans when Obsidian's daily-note settings change, and for nothing else of .obsidian/", () => {
    for (const rel of ['.obsidian/daily-notes.json', '.obsidian/plugins/periodic-notes/data.json']) {
      expect(classifyEvent('change', rel, MD)).toEqual({ kind: 'rescan', reason: `${rel} changed` });
      expect(classifyEvent('unlink', rel, MD)).toEqual({ kind: 'rescan', reason: `${rel} removed` });
    }
    expect(classifyEvent('change', '.obsidian/workspace.json', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('change', 'sub/.obsidian/daily-notes.json', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('addDir', '.obsidian/plugins', MD)).toEqual({ kind: 'none' });
  });
  it("rescans when the vault's dendron.yml comes, changes or goes: it decides how labelled links read", () => {
    expect(classifyEvent('add', 'dendron.yml', MD)).toEqual({ kind: 'rescan', reason: 'dendron.yml changed' });
    expect(classifyEvent('unlink', 'dendron.yml', MD)).toEqual({ kind: 'rescan', reason: 'dendron.yml removed' });
    expect(classifyEvent('change', 'sub/dendron.yml', MD)).toEqual({ kind: 'none' });
    const dir = mkdtempSync(join(tmpdir(), 'tsm-classify-'));
    writeFileSync(join(dir, 'dendron.yml'), 'version: 5\n');
    writeFileSync(join(dir, 'other.yml'), 'x\n');
    const ignored = createIgnoredTest(dir, MD);
    expect(ignored(join(dir, 'dendron.yml'), statSync(join(dir, 'dendron.yml')))).toBe(false);
    expect(ignored(join(dir, 'other.yml'), statSync(join(dir, 'other.yml')))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
  it('takes a name that came or went in a folder (an `entry`) as an attachment to check, when it would be one', () => {
    expect(classifyEvent('entry', 'pics/photo.jpg', MD)).toEqual({ kind: 'attachment', rel: 'pics/photo.jpg' });
    expect(classifyEvent('entry', 'a.md', MD)).toEqual({ kind: 'none' }); // chokidar's own events
    expect(classifyEvent('entry', 'Makefile', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('entry', '.DS_Store', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('entry', 'notes/a.md~', MD)).toEqual({ kind: 'none' }); // an editor's backup at each save
    expect(classifyEvent('entry', 'notes/#a.md#', MD)).toEqual({ kind: 'none' });
    expect(classifyEvent('entry', '.obsidian/workspace.json', MD)).toEqual({ kind: 'none' });
  });

  it('rescans when folders come or go', () => {
    expect(classifyEvent('addDir', 'new', MD)).toEqual({ kind: 'rescan', reason: 'folder added: new' });
    expect(classifyEvent('unlinkDir', 'old/sub', MD)).toEqual({ kind: 'rescan', reason: 'folder removed: old/sub' });
  });
  it('rescans when ignore rules change: any .gitignore, any .tsmignore', () => {
    expect(classifyEvent('change', '.tsmignore', MD)).toEqual({ kind: 'rescan', reason: '.tsmignore changed' });
    expect(classifyEvent('unlink', 'sub/.gitignore', MD)).toEqual({ kind: 'rescan', reason: 'sub/.gitignore removed' });
    expect(classifyEvent('add', '.gitignore', MD)).toEqual({ kind: 'rescan', reason: '.gitignore changed' });
    expect(classifyEvent('change', 'sub/.tsmignore', MD)).toEqual({ kind: 'rescan', reason: 'sub/.tsmignore changed' });
    expect(classifyEvent('unlink', 'a/b/.tsmignore', MD)).toEqual({ kind: 'rescan', reason: 'a/b/.tsmignore removed' });
  });
});

describe('createIgnoredTest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-classify-'));
  mkdirSync(join(dir, 'sub'));
  for (const f of ['a.md', 'b.png', '.gitignore', 'sub/.tsmignore']) writeFileSync(join(dir, f), 'x');
  const ignored = createIgnoredTest(dir, MD);
  const st = (rel: string) => statSync(join(dir, rel));

  it('never ignores the vault itself or folders by their name alone', () => {
    expect(ignored(dir)).toBe(false);
    expect(ignored(join(dir, 'sub'), st('sub'))).toBe(false);
    expect(ignored(join(dir, 'pictures.png'))).toBe(false); // no stats: could be a folder
  });
  it("enters .obsidian/ only on the way to Obsidian's daily-note settings", () => {
    mkdirSync(join(dir, '.obsidian/plugins/periodic-notes'), { recursive: true });
    mkdirSync(join(dir, '.obsidian/plugins/other'), { recursive: true });
    for (const f of ['.obsidian/daily-notes.json', '.obsidian/workspace.json', '.obsidian/plugins/periodic-notes/data.json']) writeFileSync(join(dir, f), '{}');
    for (const rel of ['.obsidian', '.obsidian/plugins', '.obsidian/plugins/periodic-notes']) {
      expect(ignored(join(dir, rel))).toBe(false);
      expect(ignored(join(dir, rel), st(rel))).toBe(false);
    }
    for (const rel of ['.obsidian/daily-notes.json', '.obsidian/plugins/periodic-notes/data.json']) expect(ignored(join(dir, rel), st(rel))).toBe(false);
    for (const rel of ['.obsidian/workspace.json', '.obsidian/plugins/other']) expect(ignored(join(dir, rel), st(rel))).toBe(true);
  });
  it('ignores always-skipped folders with or without stats', () => {
    expect(ignored(join(dir, '.tsm'))).toBe(true);
    expect(ignored(join(dir, '.tsm/index.db-wal'))).toBe(true);
    expect(ignored(join(dir, 'x/.git'))).toBe(true);
    expect(ignored(join(dir, 'node_modules/pkg/readme.md'))).toBe(true);
    expect(ignored(join(dir, 'logseq/bak'))).toBe(true);
    expect(ignored(join(dir, 'logseq/bak/pages/p/x.md'))).toBe(true);
    expect(ignored(join(dir, 'bak'))).toBe(false);
  });
  it('ignores files that are neither notes nor ignore rules', () => {
    expect(ignored(join(dir, 'b.png'), st('b.png'))).toBe(true);
    expect(ignored(join(dir, 'a.md'), st('a.md'))).toBe(false);
    expect(ignored(join(dir, '.gitignore'), st('.gitignore'))).toBe(false);
    expect(ignored(join(dir, 'sub/.tsmignore'), st('sub/.tsmignore'))).toBe(false);
  });
  it('does not enter folders the loop test refuses', () => {
    const refuseSub = createIgnoredTest(dir, MD, (abs) => abs === join(dir, 'sub'));
    expect(refuseSub(join(dir, 'sub'), st('sub'))).toBe(true);
    expect(refuseSub(join(dir, 'sub'))).toBe(false); // no stats: decided later, when chokidar has them
    expect(refuseSub(join(dir, 'a.md'), st('a.md'))).toBe(false);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});

describe('watch failures', () => {
  const err = (code: string) => Object.assign(new Error(code), { code });
  it('classes ENOSPC, EMFILE and ENFILE as running out of handles', () => {
    expect(watchFailureKind(err('ENOSPC'))).toBe('handles');
    expect(watchFailureKind(err('EMFILE'))).toBe('handles');
    expect(watchFailureKind(err('ENFILE'))).toBe('handles');
    expect(watchFailureKind(err('EACCES'))).toBe('permission');
    expect(watchFailureKind(err('EPERM'))).toBe('permission');
    expect(watchFailureKind(new Error('plain'))).toBe('other');
    expect(watchFailureKind(undefined)).toBe('other');
  });
  it('tells the user which limit to raise', () => {
    expect(handlesAdvice(err('ENOSPC'))).toMatch(/max_user_watches/);
    expect(handlesAdvice(err('EMFILE'))).toMatch(/ulimit -n/);
  });
  it('words a process or system out of files as every command does (core/machine-limits.ts)', () => {
    // It said `ulimit -n 65536` where every other command says 4096, and the same for ENFILE, the system's
    // limit, which no ulimit raises.
    expect(handlesAdvice(err('EMFILE'))).toBe(`${machineShortOf(err('EMFILE'))}, to get instant updates again`);
    expect(handlesAdvice(err('ENFILE'))).toBe(`${machineShortOf(err('ENFILE'))}, to get instant updates again`);
    expect(handlesAdvice(err('ENFILE'))).toMatch(/fs\.file-max/);
  });
});

describe('isNoteName', () => {
  it('is case-insensitive and needs a name before the extension', () => {
    expect(isNoteName('A.Md', MD)).toBe(true);
    expect(isNoteName('.md', MD)).toBe(false);
    expect(isNoteName('a.mdx', MD)).toBe(false);
  });

  it('a hidden name is no note, and its events are no note events', () => {
    for (const name of ['.draft.md', '._note.md', '.#note.md']) {
      expect(isNoteName(name, MD)).toBe(false);
      expect(classifyEvent('add', `notes/${name}`, MD)).toEqual({ kind: 'none' });
    }
    expect(isNoteName('draft.md', MD)).toBe(true);
  });
});
