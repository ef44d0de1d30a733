// Pasted text through the built `tsm search`: a shell command's flags, config and log lines, a Windows
// path and a long prompt are searched as text, not read as operators; stderr says whenever a word that
// looked like an operator was read as text, or when a filter of the query left no match.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  '.tsm/.keep': '',
  'knowledge/build-setup.md': ['# Build setup', '', 'Flash the collar firmware with `pio run -e collar -t upload`.', ''].join('\n'),
  // Every one-letter flag word of the command is here, so an exclusion of `e` or `t` drops this note.
  'knowledge/flags.md': ['# Collar flags', '', 'The e and t switches of the collar firmware upload.', ''].join('\n'),
  'knowledge/esm.md': ['---', 'status: current', '---', '# ESM packages', '', 'Set "type": "module" in package.json before the plugin build.', ''].join('\n'),
  'knowledge/publish.md': ['# Publishing', '', 'The http server answers 404 when publish runs before the build.', ''].join('\n'),
  // A note holding the command pasted below, and a note holding one of its flags as a word.
  'knowledge/cleanup.md': ['# Cleanup', '', 'To start over, rm -rf build and run the build again.', ''].join('\n'),
  'knowledge/rf.md': ['# RF front end', '', 'The RF switch of the collar.', ''].join('\n'),
  'daily/2026-01-05.md': ['# 2026-01-05', '', 'Tried the vault sync on the antenna notes.', ''].join('\n'),
});

function run(query: string): { paths: string[]; stderr: string; code: number | null } {
  const r = tsm(['search', '--vault', vault.dir, '-f', 'json', query]);
  return { paths: r.code === 0 ? (JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path) : [], stderr: r.stderr, code: r.code };
}

describe('tsm search on pasted text', () => {
  it('reads the one-letter flags of a pasted command as text', () => {
    const r = run('how do I flash the collar firmware with pio run -e collar -t upload');
    expect(r.code, r.stderr).toBe(0);
    expect(r.paths[0]).toBe('knowledge/build-setup.md');
    expect(r.paths).toContain('knowledge/flags.md');
    // a deliberate exclusion still drops its notes
    expect(run('collar firmware -switches').paths).toEqual(['knowledge/build-setup.md']);
  });

  it('reads the flags of a pasted shell command as text, and says so', () => {
    // `-rf` was an exclusion: the note holding the very command was left out
    const r = run('rm -rf build');
    expect(r.code, r.stderr).toBe(0);
    expect(r.paths[0]).toBe('knowledge/cleanup.md');
    expect(r.stderr).toMatch(/^tsm: -rf after rm is read as the command's flag, not an exclusion: searched as words/m);
    // written apart from a command, `-rf` excludes
    expect(run('collar -rf').paths.sort()).toEqual(['knowledge/build-setup.md', 'knowledge/flags.md']);
  });

  it('reads type:module as words and says so, instead of failing as if --type had been given', () => {
    const r = run('package.json type:module plugin build');
    expect(r.code).toBe(0);
    expect(r.paths[0]).toBe('knowledge/esm.md');
    expect(r.stderr).toMatch(/^tsm: type:module is not a note type \(daily, knowledge, session\): searched as words$/m);
    expect(r.stderr).not.toMatch(/--type/);
    // a note type filters as documented
    expect(run('antenna sync type:daily').paths).toEqual(['daily/2026-01-05.md']);
  });

  it('names the filter of the query that left no match', () => {
    const r = run('http status:404 publish');
    expect(r.paths).toEqual([]);
    expect(r.stderr).toMatch(/^tsm: status:404 \(read from the query as a filter\) left no match; without it, 1 result \(to search it as words, write it without the colon\)$/m);
    expect(run('http status 404 publish').paths).toEqual(['knowledge/publish.md']);
    // a filter that leaves matches, or a search that finds nothing anyway, is not remarked on
    expect(run('plugin build status:current').stderr).not.toMatch(/left no match/);
    expect(run('zzqqxx status:current').stderr).not.toMatch(/left no match/);
  });

  it('reads a path: out of the vault or with a drive letter as words', () => {
    for (const p of ['C:\\Users\\me\\vault', '../..', '/etc']) {
      const r = run(`path:${p} sync`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.paths).toEqual(['daily/2026-01-05.md']);
      expect(r.stderr).toContain(`tsm: path:${p} is not a folder of the vault (give one relative to the vault root, like knowledge/): searched as words`);
    }
    expect(run('sync path:daily/').paths).toEqual(['daily/2026-01-05.md']);
    expect(run('sync path:knowledge/').paths).toEqual([]);
  });

  it('reads a pasted prompt (over 200 characters of words besides operators) as plain text, and says so', () => {
    const prompt = `${'I keep notes on the collar firmware and the build. '.repeat(4)}Now: pio run -dataview "exact build" type:daily tag:none -collar`;
    const r = run(prompt);
    expect(r.code, r.stderr).toBe(0);
    expect(r.paths).toContain('knowledge/build-setup.md');
    expect(r.stderr).toMatch(/^tsm: the query was read as plain text: its \d+ characters of words besides operators make it a pasted text/m);
    // short, the same operators apply: the exclusion drops every collar note
    expect(run('pio run -collar').paths).not.toContain('knowledge/build-setup.md');
  });
});
