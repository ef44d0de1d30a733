// A link that names folders as well as a note (`[[b/Note]]`, `[x](infrastructure/index.md)`) names a note whose
// path ends with them, as Obsidian resolves it; when no note's does, the link is unresolved. tsm took any note
// of the name instead: in the GitLab handbook a design document's `[x](infrastructure/index.md)` (its folder
// holds infrastructure/_index.md) linked sales/club/index.md, and `tsm doctor` never named the broken link.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'sub/Folder/Deep.md': '# Deep\n',
    'src.md': '# Source\n\n[[Folder/Deep]] [[sub/Folder/Deep]] [[wrong/Deep]] [[Deep]]\n',
    'sales/club/index.md': "# President's Club\n",
    'design/cells/infrastructure/_index.md': '# Cells infrastructure\n',
    'design/cells/routing.md': '# Routing\n\nSee [the architecture](infrastructure/index.md#architecture).\n',
    'support/performance-indicators.md': '# Support PIs\n',
    'marketing/career/contributor-success/staff.md': '# Staff\n',
    'support/staff.md': '# Support staff\n',
    // A site's path (Hugo: /handbook/… for handbook/…) is read by its end: a page moved within its section is
    // found, another section's page of that name is not.
    'pages.md': '# Pages\n\n[PIs](/handbook/engineering/performance-indicators/) [staff](/handbook/marketing/old/contributor-success/staff/)\n',
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const outgoing = (note: string) =>
  (JSON.parse(tsm(['related', note, '--json'], { cwd: v.dir }).stdout) as { outgoing: { target: string; targetPath: string | null }[] }).outgoing.map(
    (l) => `${l.target} → ${l.targetPath}`,
  );

it('a wikilink with folders names the note whose path ends with them, else none', () => {
  expect(outgoing('src.md')).toEqual([
    'Folder/Deep → sub/Folder/Deep.md',
    'sub/Folder/Deep → sub/Folder/Deep.md',
    'wrong/Deep → null',
    'Deep → sub/Folder/Deep.md',
  ]);
});

it('a markdown link with folders, relative or a site path, never names another folder\'s note of the name', () => {
  expect(outgoing('design/cells/routing.md')).toEqual(['infrastructure/index.md → null']);
  expect(outgoing('pages.md')).toEqual([
    '/handbook/engineering/performance-indicators/ → null',
    '/handbook/marketing/old/contributor-success/staff/ → marketing/career/contributor-success/staff.md',
  ]);
});

it('tsm doctor names them as unresolved links', () => {
  const out = tsm(['doctor'], { cwd: v.dir }).stdout;
  expect(out).toContain('src.md:3 links to "wrong/Deep", which is not in the vault');
  expect(out).toContain('design/cells/routing.md:3 links to "infrastructure/index.md", which is not in the vault');
  expect(out).toContain('pages.md:3 links to "/handbook/engineering/performance-indicators/", which is not in the vault');
});

// A folder's page is what a site's markdown link to the folder means, never a wikilink's note: Obsidian
// leaves `[[docs]]` unresolved beside docs/README.md (a click creates docs.md). tsm linked docs/README.md.
it('a wikilink to a folder names no README or index page there; a markdown link does', () => {
  const w = makeVault({
    'docs/README.md': '# Docs\n',
    'guide/index.md': '# Guide\n',
    'src.md': '# Source\n\n[[docs]] ![[guide]] [the docs](docs/) [the guide](guide/)\n',
  });
  try {
    expect(tsm(['index'], { cwd: w.dir }).code).toBe(0);
    const rows = (JSON.parse(tsm(['related', 'src.md', '--json'], { cwd: w.dir }).stdout) as { outgoing: { target: string; targetPath: string | null }[] }).outgoing;
    expect(rows.map((l) => `${l.target} → ${l.targetPath}`)).toEqual(['docs → null', 'guide → null', 'docs/ → docs/README.md', 'guide/ → guide/index.md']);
    expect(tsm(['doctor'], { cwd: w.dir }).stdout).toContain('src.md:3 links to "docs", which is not in the vault');
  } finally {
    w.cleanup();
  }
});

// Obsidian reads a wikilink's ./ and ../ from the linking note's folder only ([[./Target]] from other/ is
// unresolved beside the root's Target.md); tsm took the root's, or any note of the name, and doctor was silent.
it("a wikilink's ./ or ../ path names the file there or none", () => {
  const w = makeVault({
    'Target.md': '# Target\n',
    'other/Sibling.md': '# Sibling\n',
    'other/FromOther.md': '# From other\n\n[[./Target]] [[./Sibling]] [[../Target]] [[../Sibling]]\n',
  });
  try {
    expect(tsm(['index'], { cwd: w.dir }).code).toBe(0);
    const rows = (JSON.parse(tsm(['related', 'other/FromOther.md', '--json'], { cwd: w.dir }).stdout) as { outgoing: { target: string; targetPath: string | null }[] }).outgoing;
    expect(rows.map((l) => `${l.target} → ${l.targetPath}`)).toEqual(['./Target → null', './Sibling → other/Sibling.md', '../Target → Target.md', '../Sibling → null']);
    expect(tsm(['doctor'], { cwd: w.dir }).stdout).toContain('other/FromOther.md:3 links to "./Target", which is not in the vault');
  } finally {
    w.cleanup();
  }
});
