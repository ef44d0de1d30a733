import { describe, expect, it } from 'vitest';
import { pageKeyOfPath, resolveLink, targetKey, type NoteLookup } from '../../src/index/resolve-link.js';
import { normalize } from '../../src/text/normalize.js';

function lookup(paths: string[], aliases: Record<string, string> = {}, extensions = ['.md']): NoteLookup {
  const byBase = new Map<string, string[]>();
  const byPage = new Map<string, string[]>();
  for (const p of paths) {
    const k = targetKey(p, extensions);
    byBase.set(k, [...(byBase.get(k) ?? []), p]);
    const page = pageKeyOfPath(p, extensions);
    if (page !== null) byPage.set(page, [...(byPage.get(page) ?? []), p]);
  }
  return {
    hasPath: (p) => paths.includes(p),
    byLowerPath: (p) => paths.find((x) => x.toLowerCase() === p),
    byBasename: (k) => byBase.get(k) ?? [],
    byPageName: (k) => byPage.get(k) ?? [],
    byAlias: (a) => Object.entries(aliases).filter(([al]) => normalize(al) === a).map(([, p]) => p),
    extensions,
  };
}

const notes = lookup(
  [
    'knowledge/lora/lora-module-guide.md',
    'knowledge/hardware/antenna.md',
    'knowledge/hardware/index.md',
    'daily/2026-03-09.md',
    'a/notes.md',
    'b/notes.md',
    'README.md',
    'about/_index.md',
    'about/history.md',
  ],
  { 'LoRa Guide': 'knowledge/lora/lora-module-guide.md' },
);

describe('resolveLink', () => {
  it('./ and ../ name a path from the note\'s folder in a wikilink or embed too, not from the root', () => {
    const here = lookup(['y.md', 'notes/deep/y.md', 'notes/z.md', 'z.md']);
    expect(resolveLink('embed', './y.md', 'notes/deep/b.md', here)).toBe('notes/deep/y.md');
    expect(resolveLink('wikilink', './y', 'notes/deep/b.md', here)).toBe('notes/deep/y.md');
    expect(resolveLink('wikilink', '../z', 'notes/deep/b.md', here)).toBe('notes/z.md');
    // Without ./ a wikilink's path is from the root first, as before.
    expect(resolveLink('wikilink', 'y', 'notes/deep/b.md', here)).toBe('y.md');
    expect(resolveLink('embed', 'y.md', 'notes/deep/b.md', here)).toBe('y.md');
  });

  // Obsidian reads a wikilink's ./ and ../ from the linking note's folder only: `[[./Target]]` from other/ is
  // unresolved beside the root's Target.md. tsm fell back to the root's, then to any note of the name.
  it("a wikilink's ./ and ../ name that path or nothing", () => {
    const here = lookup(['Target.md', 'a/x.md', 'deep/y.md', 'img/p.png']);
    expect(resolveLink('wikilink', './Target', 'other/from.md', here)).toBeNull();
    expect(resolveLink('embed', './Target.md', 'other/from.md', here)).toBeNull();
    expect(resolveLink('wikilink', '../y', 'a/b/c.md', here)).toBeNull();
    expect(resolveLink('wikilink', '../x', 'a/b/c.md', here)).toBe('a/x.md');
    expect(resolveLink('wikilink', './Target', 'root.md', here)).toBe('Target.md');
    // A markdown link's stays lenient (a site's relative links are written for its pages' URLs).
    expect(resolveLink('markdown', './Target.md', 'other/from.md', here)).toBe('Target.md');
  });

  it('wikilink by unique basename', () => {
    expect(resolveLink('wikilink', 'lora-module-guide', 'daily/2026-03-09.md', notes)).toBe('knowledge/lora/lora-module-guide.md');
  });
  it('wikilink by vault path, with or without .md', () => {
    expect(resolveLink('wikilink', 'knowledge/hardware/antenna', 'x.md', notes)).toBe('knowledge/hardware/antenna.md');
    expect(resolveLink('embed', 'knowledge/hardware/antenna.md', 'x.md', notes)).toBe('knowledge/hardware/antenna.md');
  });
  it('wikilink by alias, case-insensitively', () => {
    expect(resolveLink('wikilink', 'lora guide', 'x.md', notes)).toBe('knowledge/lora/lora-module-guide.md');
  });
  it('ambiguous basename: the note nearest to the source', () => {
    expect(resolveLink('wikilink', 'notes', 'b/today.md', notes)).toBe('b/notes.md');
    expect(resolveLink('wikilink', 'a/notes', 'b/today.md', notes)).toBe('a/notes.md');
  });
  // Obsidian 1.13.7's own choice (app.metadataCache.getFirstLinkpathDest, observed and published in
  // pvliesdonk/markdown-vault-mcp#1380): an exact vault path, else the source's own folder, else the shortest
  // path; a shared ancestor folder counts for nothing.
  it('ambiguous basename: exact path, else the same folder, else the shortest path, as Obsidian picks', () => {
    const withRoot = lookup(['Note.md', 'zzzz/Note.md', 'a/b/Note.md', 'b/Note.md']);
    expect(resolveLink('wikilink', 'Note', 'a/b/src.md', withRoot)).toBe('Note.md');
    const noRoot = lookup(['zzzz/Note.md', 'a/b/Note.md', 'b/Note.md']);
    expect(resolveLink('wikilink', 'Note', 'src.md', noRoot)).toBe('b/Note.md');
    expect(resolveLink('wikilink', 'Note', 'a/b/src.md', noRoot)).toBe('a/b/Note.md');
    expect(resolveLink('wikilink', 'Note', 'zzzz/deep/src.md', noRoot)).toBe('b/Note.md');
    expect(resolveLink('wikilink', 'Note', 'a/b/c/src.md', lookup(['a/b/Note.md', 'zz/Note.md']))).toBe('zz/Note.md');
  });
  it('a folder in the link matches whole folder names', () => {
    expect(resolveLink('wikilink', 'b/Note', 'src.md', lookup(['ab/Note.md', 'x/b/Note.md']))).toBe('x/b/Note.md');
  });
  // Obsidian's getLinkpathDest keeps, of the notes of a name, those whose path ends with the link's folders;
  // with none the link is unresolved. tsm took any note of the name.
  it('a link with folders names no note of the name in another folder', () => {
    const vault = lookup(['sub/Folder/Deep.md', 'sales/club/index.md', 'cells/infrastructure/_index.md', 'support/staff.md', 'm/contributor-success/staff.md']);
    expect(resolveLink('wikilink', 'Folder/Deep', 'src.md', vault)).toBe('sub/Folder/Deep.md');
    expect(resolveLink('wikilink', 'wrong/Deep', 'src.md', vault)).toBeNull();
    expect(resolveLink('embed', 'wrong/Deep.md', 'src.md', vault)).toBeNull();
    expect(resolveLink('markdown', 'infrastructure/index.md', 'cells/routing.md', vault)).toBeNull();
    expect(resolveLink('markdown', '../infrastructure/index.md', 'cells/x/routing.md', vault)).toBeNull();
    // A site's path, or one that climbs out of the note's folder, by its end: at least the name and its folder.
    expect(resolveLink('markdown', '/handbook/marketing/old/contributor-success/staff/', 'x.md', vault)).toBe('m/contributor-success/staff.md');
    expect(resolveLink('markdown', '../../../content/m/contributor-success/staff.md', 'a/b.md', vault)).toBe('m/contributor-success/staff.md');
    expect(resolveLink('markdown', '/handbook/engineering/staff/', 'x.md', vault)).toBeNull();
    // A bare name is any folder's, as before.
    expect(resolveLink('wikilink', 'Deep', 'x/y.md', vault)).toBe('sub/Folder/Deep.md');
    expect(resolveLink('markdown', '../staff.md', 'x/y.md', vault)).toBe('support/staff.md');
  });
  // A folder's page (x/_index.md, x/index.md, x/README.md) is what a site's markdown link to x/ means; Obsidian
  // reads `[[docs]]` as a note named docs, unresolved without one. tsm linked docs/README.md.
  it('a wikilink names no folder page; a markdown link does', () => {
    const vault = lookup(['docs/README.md', 'guide/index.md', 'about/_index.md']);
    expect(resolveLink('wikilink', 'docs', 'x.md', vault)).toBeNull();
    expect(resolveLink('wikilink', 'docs/', 'x.md', vault)).toBeNull();
    expect(resolveLink('embed', 'guide', 'x.md', vault)).toBeNull();
    expect(resolveLink('related', 'about', 'x.md', vault)).toBeNull();
    expect(resolveLink('wikilink', 'docs/README', 'x.md', vault)).toBe('docs/README.md');
    expect(resolveLink('markdown', 'docs/', 'x.md', vault)).toBe('docs/README.md');
    expect(resolveLink('markdown', 'guide', 'x.md', vault)).toBe('guide/index.md');
  });
  it('relative markdown links', () => {
    expect(resolveLink('markdown', '../hardware/antenna.md', 'knowledge/lora/lora-module-guide.md', notes)).toBe(
      'knowledge/hardware/antenna.md',
    );
    expect(resolveLink('markdown', './', 'knowledge/hardware/antenna.md', notes)).toBe('knowledge/hardware/index.md');
  });
  it('site-absolute and Hugo-style folder links', () => {
    expect(resolveLink('markdown', '/handbook/about/', 'x.md', notes)).toBe('about/_index.md');
    expect(resolveLink('markdown', '/handbook/about/history/', 'x.md', notes)).toBe('about/history.md');
    expect(resolveLink('markdown', '../history/', 'about/other.md', notes)).toBe('about/history.md');
  });
  // Logseq names the file of page `Project/Apollo` pages/Project___Apollo.md (its :triple-lowbar format), or
  // pages/Project%2FApollo.md (the format before it).
  it('a namespaced Logseq page: [[a/b]] links the file a___b.md or a%2Fb.md, before a note named b', () => {
    const graph = lookup(['pages/Project___Apollo.md', 'pages/Apollo.md', 'pages/Project___Apollo___Storage.md', 'pages/Recipes%2FPasta.md', 'x/b/Note.md']);
    expect(resolveLink('wikilink', 'Project/Apollo', 'journals/2026_11_27.md', graph)).toBe('pages/Project___Apollo.md');
    expect(resolveLink('wikilink', 'project/apollo/storage', 'pages/Project___Apollo.md', graph)).toBe('pages/Project___Apollo___Storage.md');
    expect(resolveLink('wikilink', 'Recipes/Pasta', 'journals/2026_11_27.md', graph)).toBe('pages/Recipes%2FPasta.md');
    // A vault path still wins, and a folder in the link is a folder when no such file exists.
    expect(resolveLink('wikilink', 'pages/Apollo', 'journals/2026_11_27.md', graph)).toBe('pages/Apollo.md');
    expect(resolveLink('wikilink', 'b/Note', 'src.md', graph)).toBe('x/b/Note.md');
  });
  // Logseq writes a page name's characters a file name cannot hold as %XX (`What?` is What%3F.md), and links
  // [[What?]] to it; tsm titled the note `What?` but left the link unresolved.
  it('a Logseq page whose file name holds %XX: [[What?]] links What%3F.md, decoded as its title is', () => {
    const graph = lookup(['pages/What%3F.md', 'pages/100%.md', 'pages/a___Why%3F.md', 'pages/What.md']);
    expect(resolveLink('wikilink', 'What?', 'journals/2026_11_27.md', graph)).toBe('pages/What%3F.md');
    expect(resolveLink('wikilink', 'what?', 'journals/2026_11_27.md', graph)).toBe('pages/What%3F.md');
    expect(resolveLink('wikilink', 'a/Why?', 'journals/2026_11_27.md', graph)).toBe('pages/a___Why%3F.md');
    // the file name as written still links, and a % that starts no escape is text
    expect(resolveLink('wikilink', 'What%3F', 'journals/2026_11_27.md', graph)).toBe('pages/What%3F.md');
    expect(resolveLink('wikilink', '100%', 'journals/2026_11_27.md', graph)).toBe('pages/100%.md');
    expect(resolveLink('wikilink', 'What', 'journals/2026_11_27.md', graph)).toBe('pages/What.md');
  });
  it('a self link ([[#heading]]) points at the source note', () => {
    expect(resolveLink('wikilink', '', 'daily/2026-03-09.md', notes)).toBe('daily/2026-03-09.md');
  });
  it("goes by the vault's note extensions, not by .md and .markdown", () => {
    const mdx = lookup(['a.md', 'page.mdx', 'folder/index.mdx', 'sub/sub-page.mdx', 'docs/x.MDX'], {}, ['.md', '.mdx']);
    expect(resolveLink('wikilink', 'page', 'a.md', mdx)).toBe('page.mdx');
    expect(resolveLink('markdown', 'page', 'a.md', mdx)).toBe('page.mdx');
    expect(resolveLink('markdown', 'folder/', 'a.md', mdx)).toBe('folder/index.mdx');
    expect(resolveLink('wikilink', 'sub-page', 'a.md', mdx)).toBe('sub/sub-page.mdx');
    expect(resolveLink('wikilink', 'x', 'a.md', mdx)).toBe('docs/x.MDX');
    expect(targetKey('Page.MDX', ['.md', '.mdx'])).toBe('page');
    // .markdown is a note extension only where the vault says so
    expect(targetKey('x.markdown', ['.md'])).toBe('x.markdown');
    expect(targetKey('x.markdown', ['.md', '.markdown'])).toBe('x');
  });
  it('unknown targets and paths outside the vault stay unresolved', () => {
    expect(resolveLink('wikilink', 'does-not-exist', 'x.md', notes)).toBeNull();
    expect(resolveLink('markdown', '../../../etc/passwd', 'x.md', notes)).toBeNull();
  });
});
