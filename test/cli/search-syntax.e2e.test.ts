// The query language through the built `tsm search`: each operator against a real index, nested tags
// for the query and the flag, did-you-mean on stderr, and plain text untouched.
import { describe, expect, it } from 'vitest';
import { makeVault, tsm, useIndexedVault } from '../helpers/cli.js';
import { SYNTAX_VAULT } from '../helpers/syntax-vault.js';

const vault = useIndexedVault(SYNTAX_VAULT);

/** The paths `tsm search` prints (JSON), in rank order. */
function paths(...args: string[]): string[] {
  const r = tsm(['search', '--vault', vault.dir, '-f', 'json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path);
}

describe('tsm search query language', () => {
  it('keeps only sections holding a quoted phrase', () => {
    // "sync engine" as words is in sync.md and engines.md (apart); as a phrase only in sync.md.
    expect(paths('sync', 'engine').sort()).toEqual(['knowledge/engines.md', 'knowledge/sync.md']);
    expect(paths('"sync engine"')).toEqual(['knowledge/sync.md']);
  });

  it('drops notes holding an excluded word or phrase', () => {
    expect(paths('sync engine -dataview')).toEqual(['knowledge/engines.md']);
    expect(paths('--', 'sync', 'engine', '-dataview')).toEqual(['knowledge/engines.md']);
    // Unquoted, as a shell passes it: a word that is not a short option (-f, -n) is a query word.
    expect(paths('sync', 'engine', '-dataview')).toEqual(['knowledge/engines.md']);
    expect(paths('sync', '-dataview', 'engine', '-n', '5')).toEqual(['knowledge/engines.md']);
    // One letter or a digit after the dash too (an exclusion, a minus sign): as if the query were quoted.
    for (const w of ['-x', '-a', '-v', '-2', '-5']) expect(paths('sync', 'engine', w)).toEqual(paths(`sync engine ${w}`));
    // and as an option's value, the word itself
    expect(paths('sync', '--path', '-x/')).toEqual([]);
    expect(tsm(['search', '--vault', vault.dir, 'sync', '-n', '-5']).stderr).toMatch(/--limit takes a whole number of results, 1 or more \(got "-5"\)/);
    expect(paths('plugin -"query block"')).toEqual(['daily/2026-01-01.md']);
  });

  it('needs one side of an OR', () => {
    expect(paths('"engine copies" OR "query block"').sort()).toEqual(['knowledge/dataview.md', 'knowledge/sync.md']);
  });

  // A word held by more than 25 % of sections is pruned from the ranking lists; an OR side or a phrase the
  // query requires is not, or the notes holding only it were never candidates: `lora OR espresso` found the
  // espresso note alone in a vault about LoRa.
  it('finds every side of an OR, and a required phrase, however common its words', () => {
    const common = makeVault({
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`lora-${i}.md`, `# Radio ${i}\n\nThe lora ${i < 2 ? 'radio link' : 'gateway'} here.\n`])),
      'espresso.md': '# Coffee\n\nAn espresso shot.\n',
      'bread.md': '# Bread\n\nSourdough starter.\n',
    });
    try {
      expect(tsm(['index', '--vault', common.dir]).code).toBe(0);
      const found = (q: string) => {
        const r = tsm(['search', '--vault', common.dir, '-f', 'json', '-n', '50', q]);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path).sort();
      };
      expect(found('lora OR espresso')).toEqual(['espresso.md', ...Array.from({ length: 6 }, (_, i) => `lora-${i}.md`)]);
      expect(found('"lora radio" bread')).toEqual(['lora-0.md', 'lora-1.md']);
    } finally {
      common.cleanup();
    }
  });

  it('holds any number of quoted phrases (16 once failed with a false disk error)', () => {
    const many = (phrase: string, n: number) => Array.from({ length: n }, () => phrase).join(' ');
    expect(paths(many('"sync engine"', 20))).toEqual(['knowledge/sync.md']);
    // Each must hold: 19 that do and one that does not find nothing, and say so without an error.
    expect(paths(`${many('"sync engine"', 19)} "query block"`)).toEqual([]);
    const r = tsm(['search', '--vault', vault.dir, many('"sync engine" "engine copies"', 10)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/cannot read or write|full disk/);
  });

  it('matches a trailing * as a prefix', () => {
    expect(paths('datav*').sort()).toEqual(['knowledge/dataview.md', 'knowledge/sync.md']);
    expect(paths('datav')).toEqual([]);
  });

  it('filters by tag:, path:, type: and status: inside the query, AND-ed with the flags', () => {
    expect(paths('notes tag:obsidian')).toEqual(['knowledge/dataview.md']);
    expect(paths('plugin type:daily')).toEqual(['daily/2026-01-01.md']);
    expect(paths('plugin path:knowledge/')).toEqual(['knowledge/dataview.md']);
    expect(paths('plugin status:current')).toEqual(['knowledge/dataview.md']);
    expect(paths('plugin path:knowledge/', '--type', 'daily')).toEqual([]);
  });

  it('matches nested tags from the query and the flag, as Obsidian does', () => {
    // project matches #project and #project/alpha, never #projects
    expect(paths('notes sync engine tag:project').sort()).toEqual(['knowledge/dataview.md', 'knowledge/engines.md']);
    expect(paths('notes', 'sync', 'engine', '--tag', 'project').sort()).toEqual(['knowledge/dataview.md', 'knowledge/engines.md']);
    expect(paths('notes', '--tag', 'project/alpha')).toEqual(['knowledge/dataview.md']);
    expect(paths('notes', '--tag', '#projects')).toEqual(['knowledge/sync.md']);
  });

  it('reads no date from a quoted phrase', () => {
    // yesterday, bare, is a date range; nothing is dated 2026-11-19, so the search drops it and finds what
    // `plugin` alone finds. Quoted, it is text to find.
    const env = { TSM_NOW: '2026-11-20' };
    const r = tsm(['search', '--vault', vault.dir, '-f', 'json', 'plugin yesterday'], { env });
    const alone = tsm(['search', '--vault', vault.dir, '-f', 'json', 'plugin'], { env });
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(alone.stdout));
    const q = tsm(['search', '--vault', vault.dir, '-f', 'json', 'notes "worked yesterday"'], { env });
    expect(q.code, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout).map((h: { path: string }) => h.path)).toEqual(['knowledge/engines.md']);
  });

  it('finds quoted Japanese phrases through the bigram columns', () => {
    expect(paths('"消費電力"')).toEqual(['knowledge/dataview.md']);
    // 電力の消費 and 消費電力 share their bigrams 消費 and 電力: as phrases each finds only its own note
    expect(paths('"電力の消費"')).toEqual(['daily/2026-01-01.md']);
    expect(paths('"電力"').sort()).toEqual(['daily/2026-01-01.md', 'knowledge/dataview.md']);
  });

  it('suggests words of the index when nothing matches, on stderr only', () => {
    const r = tsm(['search', '--vault', vault.dir, 'dataveiw']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tsm: did you mean: dataview$/m);
    const two = tsm(['search', '--vault', vault.dir, '-f', 'json', 'configuraton', 'plugn']);
    expect(JSON.parse(two.stdout)).toEqual([]);
    expect(two.stderr).toMatch(/^tsm: did you mean: configur\w* plugin$/m);
    // a word the index knows is not "corrected"; nothing near: nothing said
    expect(tsm(['search', '--vault', vault.dir, 'zzqqxx']).stderr).not.toMatch(/did you mean/);
  });

  it('reads user text as text, never as FTS5 syntax', () => {
    for (const q of ['"NEAR(a b)" OR "x AND"', '-"*" tag:"a b"', 'path:"x/.." body_words:x', '"" OR ""', '-']) {
      const r = tsm(['search', '--vault', vault.dir, '-f', 'json', '--', q]);
      expect(r.code, `${q}: ${r.stderr}`).toBe(0);
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
    }
    // A path out of the vault filters nothing out of it: it is words (pasted text), and stderr names the fix.
    const out = tsm(['search', '--vault', vault.dir, '-f', 'json', '--', 'path:"../.." body_words:x']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/^tsm: path:\.\.\/\.\. is not a folder of the vault \(give one relative to the vault root, like knowledge\/\): searched as words$/m);
    // the --path flag is deliberate: still a usage error
    expect(tsm(['search', '--vault', vault.dir, 'sync', '--path', '../..']).code).toBe(2);
  });

  it('names the fix for a type: value that is no note type, and searches it as words', () => {
    const r = tsm(['search', '--vault', vault.dir, 'plugin type:blog']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^tsm: type:blog is not a note type \(daily, knowledge, session\): searched as words$/m);
    expect(paths('plugin type:blog').sort()).toEqual(paths('plugin').sort());
    // the --type flag is deliberate: still a usage error
    expect(tsm(['search', '--vault', vault.dir, 'plugin', '--type', 'blog']).stderr).toMatch(/--type takes daily, knowledge, session \(got "blog"\)/);
  });

  it('is not read in the prompt hook, where quotes and dashes are punctuation', () => {
    // With the query language this would find nothing (tag:nothing, and dataview.md holds "query block").
    const prompt = 'dataview -"query block" tag:nothing';
    expect(paths(prompt)).toEqual([]);
    const r = tsm(['hook'], {
      cwd: vault.dir,
      input: JSON.stringify({ session_id: 's-1', cwd: vault.dir, hook_event_name: 'UserPromptSubmit', prompt }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('knowledge/dataview.md');
  });
});
