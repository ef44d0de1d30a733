// Obsidian vaults as they are: links to attachments that exist (images, canvases, PDFs) are not reported
// as unresolved; links to attachments that do not exist still are; the list follows the vault.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
beforeEach(() => {
  v = makeVault({
    'note.md': '# Note\n\n![[image.png]] and [[board.canvas]] and [[Spec.pdf]] and ![[missing.png]] and [[Other]]\n',
    'Other.md': '# Other\n',
    'assets/image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    'boards/board.canvas': '{"nodes":[]}',
    'docs/spec.pdf': '%PDF-1.4',
    '.hidden/missing.png': 'in a dot-folder: not part of the vault',
  });
});
afterEach(() => v.cleanup());

const status = () =>
  JSON.parse(tsm(['status', '--json'], { cwd: v.dir }).stdout) as { links: number; unresolvedLinks: number };

it('links to existing attachments resolve; a missing one stays unresolved; deletions are noticed', () => {
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  expect(status()).toMatchObject({ links: 5, unresolvedLinks: 1 });
  const doctor = tsm(['doctor'], { cwd: v.dir }).stdout;
  expect(doctor).toContain('missing.png');
  expect(doctor).not.toContain('image.png');
  rmSync(join(v.dir, 'assets/image.png'));
  writeFileSync(join(v.dir, 'missing.png'), 'now here');
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  expect(status()).toMatchObject({ links: 5, unresolvedLinks: 1 });
  expect(tsm(['doctor'], { cwd: v.dir }).stdout).toContain('image.png');
});

it('tsm related names the attachment a link shows, and says unresolved only of what the vault lacks', () => {
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  const text = tsm(['related', 'note.md'], { cwd: v.dir }).stdout;
  expect(text).toContain('  assets/image.png  [attachment]  embed:3\n');
  expect(text).toContain('  boards/board.canvas  [attachment]  wikilink:3\n');
  expect(text).toContain('  docs/spec.pdf  [attachment]  wikilink:3\n');
  expect(text).toContain('  missing.png  [unresolved]  embed:3\n');
  expect(text).toContain('  Other.md  wikilink:3\n');
  const json = JSON.parse(tsm(['related', 'note.md', '--json'], { cwd: v.dir }).stdout) as {
    outgoing: { target: string; targetPath: string | null; attachmentPath: string | null }[];
  };
  expect(json.outgoing.map((l) => [l.target, l.targetPath, l.attachmentPath])).toEqual([
    ['image.png', null, 'assets/image.png'],
    ['board.canvas', null, 'boards/board.canvas'],
    ['Spec.pdf', null, 'docs/spec.pdf'],
    ['missing.png', null, null],
    ['Other', 'Other.md', null],
  ]);
});

it('of two attachments of one name, the one at the path the link writes, else the shortest path', () => {
  writeFileSync(join(v.dir, 'image.png'), 'a second image.png, at the root');
  writeFileSync(join(v.dir, 'note.md'), '# Note\n\n![[image.png]] ![[assets/image.png]] ![[a.pdf#page=3]]\n');
  writeFileSync(join(v.dir, 'a.pdf'), '%PDF-1.4');
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  const text = tsm(['related', 'note.md'], { cwd: v.dir }).stdout;
  expect(text).toContain('  image.png  [attachment]  embed:3\n  assets/image.png  [attachment]  embed:3\n');
  expect(text).toContain('  a.pdf#page=3  [attachment]  embed:3\n');
});

it("an editor's backup or auto-save is no attachment: a link to it stays unresolved, by a full scan as by --files-from-stdin", () => {
  writeFileSync(join(v.dir, 'note.md'), '# Note\n\n[[note.md~]] and [[image.png]]\n');
  writeFileSync(join(v.dir, 'foo~.md'), '# Foo\n\nstill a note\n');
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  const unresolved = () => tsm(['related', 'note.md'], { cwd: v.dir }).stdout;
  expect(tsm(['related', 'foo~.md'], { cwd: v.dir }).code).toBe(0);
  // Saved after the index: only the listed paths are looked at.
  writeFileSync(join(v.dir, 'note.md~'), '# Note (backup)\n');
  writeFileSync(join(v.dir, '#note.md#'), '# Note (auto-save)\n');
  expect(tsm(['index', '--files-from-stdin'], { cwd: v.dir, input: 'note.md~\n#note.md#\n' }).code).toBe(0);
  expect(unresolved()).toContain('  note.md~  [unresolved]  wikilink:3\n');
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  expect(unresolved()).toContain('  note.md~  [unresolved]  wikilink:3\n');
  expect(unresolved()).toContain('  assets/image.png  [attachment]  wikilink:3\n');
});

it('a markdown image is an embed as ![[…]] is: related names its attachment, doctor and status count a missing one', () => {
  writeFileSync(
    join(v.dir, 'note.md'),
    '# Note\n\n![](missing.png) and ![ok](assets/image.png) and ![[gone.png]]\n\n![enc](docs/my%20chart.png) ![angle](<my chart.png>) ![web](https://example.com/x.png) ![](data:image/png;base64,AA==)\n',
  );
  writeFileSync(join(v.dir, 'docs/my chart.png'), 'png');
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
  const text = tsm(['related', 'note.md'], { cwd: v.dir }).stdout;
  expect(text).toContain('outgoing (4)\n'); // docs/my chart.png twice: one row
  expect(text).toContain('  missing.png  [unresolved]  embed:3\n');
  expect(text).toContain('  assets/image.png  [attachment]  embed:3\n');
  expect(text).toContain('  docs/my chart.png  [attachment]  embed:5\n');
  expect(text).not.toContain('example.com');
  expect(status()).toMatchObject({ links: 5, unresolvedLinks: 2 });
  const doctor = tsm(['doctor'], { cwd: v.dir }).stdout;
  expect(doctor).toContain('note.md:3 links to "missing.png", which is not in the vault');
  expect(doctor).toContain('note.md:3 links to "gone.png"');
  expect(doctor).not.toContain('my chart.png');
});
