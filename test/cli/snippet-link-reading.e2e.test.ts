// Snippets read a vault's links as its notes were read (search/link-reading.ts, from the index's recorded
// reading settings): Dendron's `[[label|note.id]]` shows its label, and an embed of a note of another
// configured extension (`.mdx`) shows the note's section, not a file name.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
afterEach(() => vault.cleanup());
beforeAll(() => assertBuilt());

function snippet(files: Record<string, string>, query: string): string {
  vault = makeVault(files);
  const indexed = tsm(['index', '--vault', vault.dir]);
  expect(indexed.code, indexed.stderr).toBe(0);
  const r = tsm(['search', query, '-f', 'json', '--vault', vault.dir]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { snippet: string }[])[0].snippet;
}

const DENDRON_NOTES = {
  'project.md': '# Project\n\nSee [[Setup guide|project.setup]] for the zebra install.\n',
  'project.setup.md': '# Setup\n\nSteps.\n',
};

describe('snippets read links as the vault does', () => {
  it("show Dendron's labelled link by its label", () => {
    expect(snippet({ ...DENDRON_NOTES, 'dendron.yml': 'version: 5\n' }, 'zebra')).toBe('See Setup guide for the zebra install.');
  });

  it("show Dendron's labelled link by its label in the md format's summary", () => {
    vault = makeVault({ ...DENDRON_NOTES, 'dendron.yml': 'version: 5\n' });
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    const r = tsm(['search', 'zebra', '-f', 'md', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('**Summary:** Project — See Setup guide for the zebra install.\n');
  });

  it("show Obsidian's [[target|label]] by its label where no dendron.yml is", () => {
    expect(snippet(DENDRON_NOTES, 'zebra')).toBe('See project.setup for the zebra install.');
  });

  it('show an embed of a note of a configured extension by its section', () => {
    const files = {
      '.tsm/config.json': '{"extensions": [".md", ".mdx"]}',
      'guide.md': '# Guide\n\nRead ![[page.mdx#Setup]] before the zebra install.\n',
      'page.mdx': '# Page\n\n## Setup\n\nText.\n',
    };
    expect(snippet(files, 'zebra')).toBe('Read page.mdx > Setup before the zebra install.');
  });
});
