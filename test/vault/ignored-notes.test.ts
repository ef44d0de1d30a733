// The notes the ignore rules leave out, with the rule that does (`tsm doctor` tells links to them from broken
// ones): exactly the note files the scan does not list, and none it never reads for another reason.
import { describe, expect, it, afterEach } from 'vitest';
import { ignoredNotes } from '../../src/vault/ignored-notes.js';
import { scanVault } from '../../src/vault/scan.js';
import { makeVault } from '../helpers/cli.js';

const made: { dir: string; cleanup: () => void }[] = [];
afterEach(() => made.splice(0).forEach((v) => v.cleanup()));

describe('ignoredNotes', () => {
  it('names each ignored note with its rules file and what the pattern ignores, a note or a folder above it', () => {
    const v = makeVault({
      '.gitignore': 'drafts/\nbuild/\n',
      '.tsmignore': 'private.md\n!build/\n',
      'sub/.gitignore': 'local-*.md\n',
      'a.md': 'x',
      'private.md': 'x',
      'drafts/x.md': 'x',
      'drafts/deep/y.md': 'x',
      'drafts/pic.png': 'not a note',
      'build/out.md': 'x', // brought back by .tsmignore
      'sub/local-notes.md': 'x',
      'sub/kept.md': 'x',
      // Never entered for another reason: no ignore rule of the user's, and Obsidian does not read them either.
      '.trash/old.md': 'x',
      'node_modules/pkg/readme.md': 'x',
      '.hidden.md': 'x',
    });
    made.push(v);
    expect(ignoredNotes(v.dir, ['.md'])).toEqual([
      { path: 'drafts/deep/y.md', by: '.gitignore', rule: 'drafts/' },
      { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' },
      { path: 'private.md', by: '.tsmignore', rule: 'private.md' },
      { path: 'sub/local-notes.md', by: '.gitignore', rule: 'sub/local-notes.md' },
    ]);
    // And the scan lists every other note.
    expect(scanVault(v.dir, { extensions: ['.md'] }).files.map((f) => f.path)).toEqual(['a.md', 'build/out.md', 'sub/kept.md']);
  });

  it('a .tsmignore pattern that decides is named over a .gitignore one that matches too', () => {
    const v = makeVault({ '.gitignore': 'notes/\n', '.tsmignore': 'notes/\n', 'notes/a.md': 'x', 'b.md': 'x' });
    made.push(v);
    expect(ignoredNotes(v.dir, ['.md'])).toEqual([{ path: 'notes/a.md', by: '.tsmignore', rule: 'notes/' }]);
  });
});
