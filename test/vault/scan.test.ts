import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPathFilter, scanVault } from '../../src/vault/scan.js';

const dirs: string[] = [];
function vault(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'tsm-scan-'));
  dirs.push(d);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(d, rel)), { recursive: true });
    writeFileSync(join(d, rel), text);
  }
  return d;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const opts = { extensions: ['.md'] };

describe('scanVault', () => {
  it('finds notes at every depth and skips the always-skipped folders', () => {
    const v = vault({
      'README.md': '# r',
      'a/b/c.md': 'x',
      'a/image.png': 'x',
      '.git/x.md': 'x',
      '.tsm/x.md': 'x',
      'node_modules/p/x.md': 'x',
      '.obsidian/x.md': 'x',
      '.trash/x.md': 'x',
      'UPPER.MD': 'x',
    });
    expect(scanVault(v, opts).files.map((f) => f.path)).toEqual(['README.md', 'UPPER.MD', 'a/b/c.md']);
  });

  it("skips Logseq's copies of its pages (logseq/bak/, logseq/version-files/), not folders named so elsewhere", () => {
    const v = vault({
      'pages/Project___Apollo.md': '- x',
      'logseq/bak/pages/Project___Apollo/2026-11-20T09_14_03.521Z.Desktop.md': '- x',
      'logseq/version-files/base/pages/Project___Apollo.md': '- x',
      'graphs/work/logseq/bak/journals/2026_11_27/2026-11-27T10_00_00.000Z.Desktop.md': '- x',
      'logseq/custom.md': '- x',
      'bak/old.md': 'x',
      'notes/version-files/v1.md': 'x',
    });
    expect(scanVault(v, opts).files.map((f) => f.path)).toEqual(['bak/old.md', 'logseq/custom.md', 'notes/version-files/v1.md', 'pages/Project___Apollo.md']);
    const ok = createPathFilter(v, opts);
    expect(ok('logseq/bak/pages/Project___Apollo/2026-11-20T09_14_03.521Z.Desktop.md')).toBe(false);
    expect(ok('graphs/work/logseq/version-files/base/pages/p.md')).toBe(false);
    expect(ok('bak/old.md')).toBe(true);
  });

  it('honours .tsmignore and nested .gitignore files', () => {
    const v = vault({
      '.tsmignore': 'drafts/private/\n',
      '.gitignore': '*.tmp.md\n',
      'drafts/private/secret.md': 'x',
      'drafts/ok.md': 'x',
      'x.tmp.md': 'x',
      'sub/.gitignore': 'build/\n',
      'sub/build/out.md': 'x',
      'sub/keep.md': 'x',
    });
    expect(scanVault(v, opts).files.map((f) => f.path)).toEqual(['drafts/ok.md', 'sub/keep.md']);
    const ok = createPathFilter(v, opts);
    expect(ok('drafts/ok.md')).toBe(true);
    expect(ok('drafts/private/secret.md')).toBe(false);
    expect(ok('x.tmp.md')).toBe(false);
    expect(ok('sub/build/out.md')).toBe(false);
    expect(ok('sub/keep.md')).toBe(true);
    expect(ok('.git/x.md')).toBe(false);
    expect(ok('notes.txt')).toBe(false);
  });

  it("lists no editor's leftover as an attachment (a.md~, #a.md#, .a.md.swp), the full scan as the single-path filter; foo~.md stays a note", () => {
    const v = vault({
      'a.md': '# a',
      'foo~.md': '# backup-looking name, still a note',
      'a.md~': 'vim/emacs backup',
      'pic.png~': 'backup of an image',
      '#a.md#': 'emacs auto-save',
      '.a.md.swp': 'vim swap',
      'sub/here.png': 'x',
    });
    const scan = scanVault(v, opts);
    expect(scan.files.map((f) => f.path)).toEqual(['a.md', 'foo~.md']);
    expect(scan.attachments).toEqual(['sub/here.png']);
    const attachment = createPathFilter(v, { ...opts, attachments: true });
    expect(['a.md~', 'pic.png~', '#a.md#', '.a.md.swp', 'sub/here.png'].filter(attachment)).toEqual(['sub/here.png']);
    expect(createPathFilter(v, opts)('foo~.md')).toBe(true);
  });

  it('normalises names to NFC and keeps spaces, # and unicode', () => {
    const nfd = 'cafe\u0301 #1 ノート.md';
    const v = vault({ [nfd]: 'x' });
    expect(scanVault(v, opts).files.map((f) => f.path)).toEqual(['café #1 ノート.md']);
  });

  it('NFC/NFD twins are found whatever the NFC name holds: Latin-1 (é is U+00E9), ASCII (K for the Kelvin sign)', () => {
    const v = vault({ 'café.md': 'nfc', 'cafe\u0301.md': 'nfd', 'K.md': 'k', '\u212A.md': 'kelvin', 'nai\u0308ve.md': 'alone' });
    const r = scanVault(v, opts);
    expect(r.files.map((f) => [f.path, f.absPath.slice(v.length + 1)])).toEqual([
      ['K.md', 'K.md'],
      ['café.md', 'café.md'],
      ['naïve.md', 'nai\u0308ve.md'],
    ]);
    expect(r.warnings.map((w) => w.path).sort()).toEqual(['K.md (not NFC)', 'café.md (not NFC)']);
  });

  it('follows symlinks once and survives a symlink loop', () => {
    const v = vault({ 'real/a.md': 'x' });
    symlinkSync(join(v, 'real'), join(v, 'link'));
    symlinkSync(v, join(v, 'real/loop'));
    const r = scanVault(v, opts);
    expect(r.files.map((f) => f.path)).toEqual(['real/a.md']);
    expect(r.warnings.some((w) => /loop/.test(w.message))).toBe(true);
  });
});
