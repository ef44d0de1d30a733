// A path filter on a folder the vault leaves out: `tsm search walrus --path private/` with `private/` in
// .gitignore printed "0 results" and nothing else, as did `path:private/` and MCP search (no note), and a
// folder Obsidian's Excluded files name. Each now says which rule of which file leaves the notes out, and how
// to bring them in, as `tsm doctor` and `related` do; a filter that holds a searchable note says nothing more.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';
import { connect } from '../mcp/setup.js';
import { ok } from '../mcp/client.js';
import { loadConfig } from '../../src/vault/config.js';

const v = useIndexedVault({
  '.gitignore': 'private/\n',
  '.tsmignore': 'drafts/secret.md\n',
  '.obsidian/app.json': JSON.stringify({ userIgnoreFilters: ['Templates/'] }),
  'private/plans.md': '# Plans\n\nwalrus plans\n',
  'drafts/secret.md': '# Secret\n\nwalrus secret\n',
  'Templates/t.md': '# Template\n\nwalrus template\n',
  'notes/open.md': '# Open\n\nwalrus in the open\n',
  '.hidden/h.md': '# Hidden\n\nwalrus hidden\n',
  'node_modules/pkg/README.md': '# Pkg\n\nwalrus package\n',
});

const search = (...args: string[]) => tsm(['search', ...args], { cwd: v.dir });

describe('a path filter whose notes are left out', () => {
  it('--path on a folder .gitignore leaves out names the rule and the fix', () => {
    const r = search('walrus', '--path', 'private/');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `tsm: no indexed note's path starts with "private/": .gitignore leaves private/ out of the index (1 note); to index it, add the line !private/ to the vault's .tsmignore (its lines come after .gitignore's)\n`,
    );
  });

  it('no "did you mean" beside it: nothing there can match, however it is spelt', () => {
    expect(search('walrsu').stderr).toContain('tsm: did you mean: walrus\n');
    const typo = search('walrsu', '--path', 'private/');
    expect(typo.stderr).toContain(`no indexed note's path starts with "private/": .gitignore leaves private/ out of the index`);
    expect(typo.stderr).not.toContain('did you mean');
  });

  it('path: in the query says the same; a .tsmignore rule has its own fix', () => {
    const q = search('walrus path:private/');
    expect(q.stderr).toContain(`no indexed note's path starts with "private/": .gitignore leaves private/ out of the index`);
    // Meant as a path (the notice says why it holds nothing), not words: no "write it without the colon".
    expect(q.stderr).not.toContain('without the colon');
    expect(search('walrus path:nowhere/').stderr).toContain('path:nowhere/ (read from the query as a filter) left no match; without it, 1 result (to search it as words, write it without the colon)');
    expect(search('walrus', '--path', 'drafts/').stderr).toContain(
      `no indexed note's path starts with "drafts/": .tsmignore leaves drafts/secret.md out of the index (1 note); to index it, remove the .tsmignore line that ignores it (or add !drafts/secret.md after it)`,
    );
  });

  it("names Obsidian's Excluded files for a folder they leave out of searches", () => {
    expect(search('walrus', '--path', 'Templates/').stderr).toContain(
      `tsm: every note whose path starts with "Templates/" (1) is left out of searches by Obsidian's Excluded files (.obsidian/app.json: "Templates/"); to search them, remove that entry in Obsidian (Settings → Files and links → Excluded files), or set "obsidianExcludedFiles": false in ${v.dir}/.tsm/config.json`,
    );
  });

  it('names a folder tsm never enters: a dot-folder, node_modules/', () => {
    const why = "(dot-folders are hidden, as Obsidian hides them; node_modules/, .trash/ and Logseq's copies hold no notes)";
    expect(search('walrus', '--path', '.hidden/').stderr).toContain(`tsm: no indexed note's path starts with ".hidden/": tsm never enters .hidden/ ${why}\n`);
    expect(search('walrus', '--path', '.obsidian').stderr).toContain(`tsm never enters .obsidian/ ${why}`);
    expect(search('walrus path:node_modules/pkg/').stderr).toContain(`no indexed note's path starts with "node_modules/pkg/": tsm never enters node_modules/ ${why}`);
  });

  it('says nothing more for a folder that holds searchable notes, or none at all', () => {
    const held = search('zzqq', '--path', 'notes/');
    expect(held.stderr).toBe('tsm: 0 results for "zzqq"\n');
    expect(search('walrus', '--path', 'elsewhere/').stderr).toBe('tsm: 0 results for "walrus"\n');
    expect(search('walrus', '--path', 'notes/').stderr).toBe('tsm: 1 result for "walrus"\n');
  });

  it("MCP search says it in the result's note", async () => {
    const { client, close } = await connect(loadConfig({ vaultFlag: v.dir, env: {} }));
    try {
      const r = await ok(client, 'search', { query: 'walrus', path: 'private/' });
      expect(r.results).toEqual([]);
      expect(r.note).toContain(`no indexed note's path starts with "private/": .gitignore leaves private/ out of the index (1 note)`);
      const q = await ok(client, 'search', { query: 'walrus path:Templates/' });
      expect(q.note).toContain(`every note whose path starts with "Templates/" (1) is left out of searches by Obsidian's Excluded files`);
      expect((await ok(client, 'search', { query: 'walrus', path: 'notes/' })).note).toBeUndefined();
    } finally {
      await close();
    }
  });
});
