// The notes and attachments the ignore rules leave out, with the rule that does (doctor, status and related
// tell links to them from broken ones): exactly the files the scan does not list, and none it never reads for
// another reason.
import { describe, expect, it, afterEach } from 'vitest';
import { ignoredFiles } from '../../src/vault/ignored-files.js';
import { scanVault } from '../../src/vault/scan.js';
import { makeVault } from '../helpers/cli.js';

const made: { dir: string; cleanup: () => void }[] = [];
afterEach(() => made.splice(0).forEach((v) => v.cleanup()));

describe('ignoredFiles', () => {
  it('names each ignored note and attachment with its rules file and what the pattern ignores, the file or a folder above it', () => {
    const v = makeVault({
      '.gitignore': 'drafts/\nbuild/\n*.pdf\n',
      '.tsmignore': 'private.md\n!build/\n',
      'sub/.gitignore': 'local-*.md\n',
      'a.md': 'x',
      'private.md': 'x',
      'drafts/x.md': 'x',
      'drafts/deep/y.md': 'x',
      'drafts/pic.png': 'not a note',
      'drafts/a.md~': 'an editor\'s backup: neither note nor attachment, as the scan has it',
      'spec.pdf': 'x',
      'img/ok.png': 'x',
      'build/out.md': 'x', // brought back by .tsmignore
      'build/out.png': 'x',
      'sub/local-notes.md': 'x',
      'sub/kept.md': 'x',
      // Never entered for another reason: no ignore rule of the user's, and Obsidian does not read them either.
      '.trash/old.md': 'x',
      '.trash/old.png': 'x',
      'node_modules/pkg/readme.md': 'x',
      '.hidden.md': 'x',
    });
    made.push(v);
    expect(ignoredFiles(v.dir, ['.md'])).toEqual([
      { path: 'drafts/deep/y.md', by: '.gitignore', rule: 'drafts/' },
      { path: 'drafts/pic.png', by: '.gitignore', rule: 'drafts/' },
      { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' },
      { path: 'private.md', by: '.tsmignore', rule: 'private.md' },
      { path: 'spec.pdf', by: '.gitignore', rule: 'spec.pdf' },
      { path: 'sub/local-notes.md', by: '.gitignore', rule: 'sub/local-notes.md' },
    ]);
    // And the scan lists every other note and attachment.
    const scan = scanVault(v.dir, { extensions: ['.md'] });
    expect(scan.files.map((f) => f.path)).toEqual(['a.md', 'build/out.md', 'sub/kept.md']);
    expect(scan.attachments).toEqual(['build/out.png', 'img/ok.png']);
  });

  it('a .tsmignore pattern that decides is named over a .gitignore one that matches too', () => {
    const v = makeVault({ '.gitignore': 'notes/\n', '.tsmignore': 'notes/\n', 'notes/a.md': 'x', 'b.md': 'x' });
    made.push(v);
    expect(ignoredFiles(v.dir, ['.md'])).toEqual([{ path: 'notes/a.md', by: '.tsmignore', rule: 'notes/' }]);
  });
});
