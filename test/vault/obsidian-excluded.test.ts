// Obsidian's Excluded files as Obsidian reads them (a path's start, or /regex/, both case-blind), and what
// tsm does with an app.json it cannot use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { excludedBy, readObsidianExcluded } from '../../src/vault/obsidian-excluded.js';
import { writeFiles } from '../helpers/cli.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function vaultWith(appJson: string | null): string {
  const vault = mkdtempSync(join(tmpdir(), 'tsm-oe-'));
  dirs.push(vault);
  writeFiles(vault, { 'a.md': '# A\n', ...(appJson === null ? {} : { '.obsidian/app.json': appJson }) });
  return vault;
}

describe('excludedBy', () => {
  const excluded = excludedBy(['Templates/', 'README.md', '/\\.excalidraw\\.md$/', '/^arch(ive)?\\//']);

  it('takes a plain entry as the start of a path, in any case', () => {
    expect(excluded('Templates/daily.md')).toBe(true);
    expect(excluded('templates/x.md')).toBe(true);
    expect(excluded('README.md')).toBe(true);
    expect(excluded('readme.md')).toBe(true);
    // The start of the path only: a README elsewhere is a note like any other.
    expect(excluded('notes/README.md')).toBe(false);
    expect(excluded('My Templates/x.md')).toBe(false);
  });

  it('takes an entry between slashes as a regular expression', () => {
    expect(excluded('Drawings/plan.excalidraw.md')).toBe(true);
    expect(excluded('Drawings/plan.md')).toBe(false);
    expect(excluded('Archive/2024.md')).toBe(true);
    expect(excluded('arch/x.md')).toBe(true);
    expect(excluded('archived.md')).toBe(false);
  });

  it('reads a pattern written in NFD as the NFC paths tsm stores', () => {
    const nfd = 'テンプレート/'.normalize('NFD');
    expect(excludedBy([nfd])('テンプレート/日報.md')).toBe(true);
  });

  it('runs no pattern whose repeated group repeats or branches, which could take exponential time', () => {
    const evil = excludedBy(['/(a+)+$/', '/(x|xy)*z/', '/(\\w*)*!/', '/((ab)+c)+/']);
    const started = performance.now();
    expect(evil(`${'a'.repeat(40)}b.md`)).toBe(false);
    expect(evil(`${'x'.repeat(40)}.md`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    // Repetition that cannot blow up still runs: a class, a bounded count, a group repeated once.
    expect(excludedBy(['/^[(]+x/'])('((x.md')).toBe(true);
    expect(excludedBy(['/^(ab){2}/'])('abab.md')).toBe(true);
    expect(excludedBy(['/^(drafts|tmp)\\//'])('tmp/x.md')).toBe(true);
  });

  it('tests a thousand path starts about as fast as one: a search tests every note', () => {
    // An exclusion plugin's "everything but this folder" writes hundreds of entries. Tested one by one,
    // 1,000 of them cost 240 ms over 6,571 paths (the Obsidian Hub's notes), 0.34 s of each `tsm search`.
    const paths = Array.from({ length: 20_000 }, (_, i) => `04 - Guides/sub ${i % 50}/Note number ${i}.md`);
    const many = excludedBy([...Array.from({ length: 1000 }, (_, i) => `folder${i}/`), '04 - Guides/sub 7/']);
    const one = excludedBy(['04 - Guides/sub 7/']);
    const time = (test: (p: string) => boolean) => {
      const started = performance.now();
      const n = paths.filter(test).length;
      return { n, ms: performance.now() - started };
    };
    time(many);
    time(one); // warmed up
    const [a, b] = [time(many), time(one)];
    expect(a.n).toBe(400);
    expect(b.n).toBe(400);
    expect(a.ms).toBeLessThan(Math.max(50, b.ms * 20));
  });
});

describe('readObsidianExcluded', () => {
  it('reads userIgnoreFilters, strings only', () => {
    const vault = vaultWith(JSON.stringify({ userIgnoreFilters: ['Templates/', 3, '', '/x/'], alwaysUpdateLinks: true }));
    expect(readObsidianExcluded(vault)).toEqual({ filters: ['Templates/', '/x/'], problems: [] });
  });

  it('is nothing, and no problem, without the file or the key', () => {
    expect(readObsidianExcluded(vaultWith(null))).toEqual({ filters: [], problems: [] });
    expect(readObsidianExcluded(vaultWith('{"promptDelete": false}'))).toEqual({ filters: [], problems: [] });
  });

  it('names a file it cannot use, and an entry that is no pattern it runs, without failing', () => {
    expect(readObsidianExcluded(vaultWith('{"userIgnoreFilters": ["Templates/"'))).toEqual({
      filters: [],
      problems: ['.obsidian/app.json is not JSON: its Excluded files are not read'],
    });
    expect(readObsidianExcluded(vaultWith('{"userIgnoreFilters": "Templates/"}')).problems).toEqual(['.obsidian/app.json: userIgnoreFilters is not a list']);
    const bad = readObsidianExcluded(vaultWith(JSON.stringify({ userIgnoreFilters: ['/[unclosed/', '/(a+)+/', 'ok/'] })));
    expect(bad.filters).toEqual(['/[unclosed/', '/(a+)+/', 'ok/']);
    expect(bad.problems).toHaveLength(2);
    expect(bad.problems[0]).toMatch(/^\.obsidian\/app\.json: the Excluded files entry "\/\[unclosed\/" is no regular expression tsm runs/);
  });

  it('reads a file that starts with a byte order mark', () => {
    expect(readObsidianExcluded(vaultWith('\uFEFF{"userIgnoreFilters": ["A/"]}')).filters).toEqual(['A/']);
  });
});
