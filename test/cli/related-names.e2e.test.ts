// `tsm related <name>`: a title or file name typed as the user reads it finds its note whatever the
// Unicode form it was stored in (NFD from macOS) and whatever its case (beyond ASCII); a name that fits
// several notes is an error listing them, never a silent pick.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  'nfd.md': `---\ntitle: ${'Café Gründung'.normalize('NFD')}\n---\n# body\n\ntext\n`,
  'street.md': '---\ntitle: Über Straße\n---\n# body\n\ntext\n',
  'a/twin.md': '# one twin\n\ntext\n',
  'b/twin.md': '# other twin\n\ntext\n',
  'dup-1.md': '---\ntitle: Same Title\n---\nx\n',
  'dup-2.md': '---\ntitle: same title\n---\ny\n',
  'plan.md': '# The plan\n\ntext\n',
  'other.md': '---\ntitle: Plan\n---\nz\n',
  'guides/Sync status.md': '---\naliases:\n  - Sync Icon\n  - getting-started/sync-status\n  - The plan\n---\n# Sync status\n\ntext\n',
  'ref.md': '# ref\n\nSee [[Sync Icon]].\n',
  'alias-1.md': '---\naliases: [Shared Alias]\n---\nx\n',
  'alias-2.md': '---\naliases: [shared alias]\n---\ny\n',
  '-dash.md': '# -dash\n\nSee [[plan]].\n',
  'C#.md': '# C sharp\n\ntext\n',
});

const related = (name: string) => tsm(['related', name, '--json', '--vault', vault.dir]);

describe('tsm related finds a note by name as the user types it', () => {
  it('a title stored in NFD is found by its NFC spelling, and the other way round', () => {
    for (const typed of ['Café Gründung'.normalize('NFC'), 'café gründung'.normalize('NFD')]) {
      const r = related(typed);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).path).toBe('nfd.md');
    }
  });

  it('case differences beyond ASCII do not matter', () => {
    const r = related('über straße');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe('street.md');
    expect(JSON.parse(related('ÜBER STRASSE'.replace('SS', 'ß')).stdout).path).toBe('street.md');
  });

  it('a name several notes have is an error listing them; a path picks one', () => {
    for (const [name, paths] of [
      ['twin', 'a/twin.md, b/twin.md'],
      ['SAME TITLE', 'dup-1.md, dup-2.md'],
    ]) {
      const r = related(name);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`tsm: note "${name}" is ambiguous: it names 2 notes (${paths}); give its vault path\n`);
    }
    expect(JSON.parse(related('b/twin').stdout).path).toBe('b/twin.md');
  });

  it('a file name wins over another note\'s title, as Obsidian resolves [[name]]', () => {
    const r = related('plan');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe('plan.md');
    expect(JSON.parse(related('The Plan').stdout).path).toBe('plan.md');
  });

  it('an alias names its note, as it does in a link (after file names and titles)', () => {
    for (const name of ['Sync Icon', 'sync icon', 'getting-started/sync-status']) {
      const r = related(name);
      expect(r.code, r.stderr).toBe(0);
      const found = JSON.parse(r.stdout);
      expect(found.path).toBe('guides/Sync status.md');
      expect(found.backlinks.map((b: { sourcePath: string }) => b.sourcePath)).toEqual(['ref.md']);
    }
    // A title wins over another note's alias.
    expect(JSON.parse(related('The plan').stdout).path).toBe('plan.md');
    const r = related('Shared Alias');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tsm: note "Shared Alias" is ambiguous: it names 2 notes (alias-1.md, alias-2.md); give its vault path\n');
  });
});

// Obsidian's Outgoing links pane lists other notes: links to the note's own headings and blocks
// (`[[#Details]]`, `[[self#Details]]`, `[[#^blk]]`) are no neighbours, as backlinks already leave them out.
describe('tsm related lists no link of a note to itself', () => {
  const own = useIndexedVault({
    'self.md': '# Self\n\nSee [[#Details]], [[self#Details]], [[#^blk]] and [[next]].\n\n## Details\n\nText. ^blk\n',
    'next.md': '# Next\n\nBack to [[self]].\n',
  });

  it('outgoing holds the other note only, in text and JSON', () => {
    const text = tsm(['related', 'self', '--vault', own.dir]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('self.md  (Self)\n\noutgoing (1)\n  next.md  wikilink:3\n\nbacklinks (1)\n  next.md:3  wikilink\n');
    const json = JSON.parse(tsm(['related', 'self', '--json', '--vault', own.dir]).stdout);
    expect(json.outgoing.map((l: { targetPath: string }) => l.targetPath)).toEqual(['next.md']);
  });
});

describe('a note whose name starts with "-"', () => {
  it('is named after --, by path or by name (yargs read -dash.md there as the flags -d -a -s -h: no note)', () => {
    for (const typed of ['-dash.md', '-dash']) {
      const r = tsm(['related', '--json', '--vault', vault.dir, '--', typed]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).path).toBe('-dash.md');
    }
  });

  it('without --, the usage error says how to name it; with no note at all, what to give', () => {
    const r = tsm(['related', '-dash.md', '--vault', vault.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tsm: tsm related needs a note: its vault path, file name, title or alias (a name starting with "-" goes after --: tsm related -- -dash.md)\nRun `tsm related --help` for usage.\n');
    expect(tsm(['related', '--vault', vault.dir]).stderr).toMatch(/^tsm: tsm related needs a note: its vault path, file name, title or alias\n/);
  });
});

// A wikilink as an Obsidian user copies it was "no indexed note matches": its target is the note.
describe('tsm related takes a wikilink as copied from a note', () => {
  it('[[name]], ![[name]], name#heading, [[name#^block|text]] and path|text name the note', () => {
    for (const typed of ['[[Sync Icon]]', '![[Sync status#Part]]', 'Sync status#Part', '[[guides/Sync status#^abc|shown]]', 'guides/Sync status|x']) {
      const r = related(typed);
      expect(r.code, `${typed}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).path).toBe('guides/Sync status.md');
    }
  });

  it('a name that holds # is still its own note, and a link to a heading alone or to no note is no match', () => {
    expect(JSON.parse(related('C#').stdout).path).toBe('C#.md');
    for (const typed of ['[[#Part]]', '[[Nowhere]]']) {
      const r = related(typed);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('no indexed note matches');
    }
  });
});

