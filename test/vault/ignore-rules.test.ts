// Ignore files as git reads them: the scan and the single-path filter against explicit cases and against git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPathFilter, scanVault } from '../../src/vault/scan.js';
import { makeVault } from '../helpers/cli.js';

const made: { dir: string; cleanup: () => void }[] = [];
function vault(files: Record<string, string>): string {
  const v = makeVault(files);
  made.push(v);
  return v.dir;
}
afterEach(() => made.splice(0).forEach((v) => v.cleanup()));
const opts = { extensions: ['.md'] };

/** The notes the scan finds, checked to be exactly those the single-path filter (watcher, --files-from-stdin) takes. */
function notes(v: string, all: string[]): string[] {
  const found = scanVault(v, opts).files.map((f) => f.path);
  const ok = createPathFilter(v, opts);
  expect(all.filter((p) => ok(p)).sort()).toEqual(found);
  return found;
}

describe('ignore rules', () => {
  it("a deeper .gitignore's !pattern brings back a note a shallower one ignores, as in git", () => {
    const files = { '.gitignore': 'lit/*.md\n', 'lit/.gitignore': '!special.md\n', 'lit/special.md': 'x', 'lit/plain.md': 'x' };
    expect(notes(vault(files), ['lit/special.md', 'lit/plain.md'])).toEqual(['lit/special.md']);
  });

  it('.tsmignore is read after every .gitignore: its !pattern brings back what a .gitignore ignores (as ripgrep reads .ignore)', () => {
    const v = vault({
      '.gitignore': 'private/\n*.draft.md\n',
      'sub/.gitignore': 'local.md\n',
      '.tsmignore': '!private/\n!keep.draft.md\n!sub/local.md\nprivate/secret.md\n',
      'private/a.md': 'x',
      'private/secret.md': 'x',
      'keep.draft.md': 'x',
      'other.draft.md': 'x',
      'sub/local.md': 'x',
    });
    const all = ['private/a.md', 'private/secret.md', 'keep.draft.md', 'other.draft.md', 'sub/local.md'];
    expect(notes(v, all)).toEqual(['keep.draft.md', 'private/a.md', 'sub/local.md']);
  });

  it('a .tsmignore in a folder applies below that folder, as a .gitignore there does', () => {
    const v = vault({
      'sub/.tsmignore': 'secret.md\n/top.md\nin/x.md\n',
      'sub/secret.md': 'x',
      'sub/deep/secret.md': 'x',
      'sub/top.md': 'x',
      'sub/deep/top.md': 'x',
      'sub/in/x.md': 'x',
      'secret.md': 'x',
      'other/secret.md': 'x',
    });
    const all = ['sub/secret.md', 'sub/deep/secret.md', 'sub/top.md', 'sub/deep/top.md', 'sub/in/x.md', 'secret.md', 'other/secret.md'];
    expect(notes(v, all)).toEqual(['other/secret.md', 'secret.md', 'sub/deep/top.md']);
  });

  it('a deeper .tsmignore wins over a shallower one, and at one level .tsmignore wins over .gitignore', () => {
    const v = vault({
      '.tsmignore': 'lit/*.md\n',
      'lit/.tsmignore': '!keep.md\n',
      'lit/keep.md': 'x',
      'lit/plain.md': 'x',
      'sub/.gitignore': 'back.md\n!out.md\n',
      'sub/.tsmignore': '!back.md\nout.md\n',
      'sub/back.md': 'x',
      'sub/out.md': 'x',
    });
    expect(notes(v, ['lit/keep.md', 'lit/plain.md', 'sub/back.md', 'sub/out.md'])).toEqual(['lit/keep.md', 'sub/back.md']);
  });

  it('any .tsmignore wins over a deeper .gitignore, as ripgrep ranks .ignore over .gitignore before depth', () => {
    const v = vault({
      'a/.tsmignore': '!b/local.md\nb/shared.md\n',
      'a/b/.gitignore': 'local.md\n!shared.md\n',
      'a/b/local.md': 'x',
      'a/b/shared.md': 'x',
    });
    expect(notes(v, ['a/b/local.md', 'a/b/shared.md'])).toEqual(['a/b/local.md']);
  });

  it('a .tsmignore in a folder that cannot be read is reported, as the root one is', () => {
    const v = vault({ 'sub/a.md': 'x' });
    mkdirSync(join(v, 'sub/.tsmignore'));
    expect(scanVault(v, opts).warnings).toEqual([]); // a folder so named is no rules file
    rmSync(join(v, 'sub/.tsmignore'), { recursive: true });
    execFileSync('mkfifo', [join(v, 'sub/.tsmignore')]);
    expect(scanVault(v, opts).warnings.map((w) => w.path)).toEqual(['sub/.tsmignore']);
  });

  it('a note in an ignored folder stays ignored whatever re-includes it, as git cannot re-include it', () => {
    const v = vault({ '.gitignore': 'drafts/\n!drafts/keep.md\n', 'drafts/.gitignore': '!keep.md\n', 'drafts/keep.md': 'x', 'a.md': 'x' });
    expect(notes(v, ['drafts/keep.md', 'a.md'])).toEqual(['a.md']);
  });

  it('a pattern written in NFD matches the note, whose path is NFC', () => {
    const nfd = 'プロ.md'.normalize('NFD');
    const v = vault({ '.tsmignore': `${nfd}\n`, 'sub/.gitignore': `${'ガ'.normalize('NFD')}/\n`, [nfd]: 'x', 'sub/ガ/a.md': 'x', 'b.md': 'x' });
    expect(notes(v, ['プロ.md', 'sub/ガ/a.md', 'b.md'])).toEqual(['b.md']);
  });

  it('decides every case as `git ls-files --exclude-standard` does', () => {
    const patterns = ['x.md', '/y.md', 'in/z.md', '**/w.md', 'in/**/v.md', '*.tmp.md', '!k.tmp.md', 'deep/', 'u.md   ', '\\#q.md', '\\!b.md', '# c'];
    const names = ['x', 'y', 'z', 'w', 'v', 'a.tmp', 'k.tmp', 'u', '#q', '!b', 'ok'];
    const files: Record<string, string> = {
      // Windows line ends, and a root file whose patterns a folder's own file overrides.
      '.gitignore': 'top.md\r\nroot-only/\r\n*.tmp.md\r\n',
      'top.md': 'x',
      'sub/top.md': 'x',
      'root-only/a.md': 'x',
      're/.gitignore': '!k.tmp.md\n',
      're/k.tmp.md': 'x',
      're/a.tmp.md': 'x',
      're/in/k.tmp.md': 'x',
    };
    // Folder names that are pattern syntax, and one that a sibling's name starts with.
    for (const d of ['#h', '!b', '[x]', 'a*b', 'sp ace', 'n/e/s/t', '日本']) {
      files[`${d}/.gitignore`] = patterns.join('\n') + '\n';
      for (const n of names) for (const sub of ['', 'in/', 'in/deep/']) files[`${d}/${sub}${n}.md`] = 'x';
    }
    files['a*bc/x.md'] = 'x';
    const v = vault(files);
    execFileSync('git', ['init', '-q'], { cwd: v });
    const git = execFileSync('git', ['ls-files', '-z', '--others', '--exclude-standard'], { cwd: v, encoding: 'utf8' })
      .split('\0')
      .filter((p) => p.endsWith('.md'))
      .sort();
    const all = Object.keys(files).filter((p) => p.endsWith('.md'));
    expect(notes(v, all)).toEqual(git);
    expect(git.length).toBeGreaterThan(40); // the comparison compared something
  });
});
