import { describe, expect, it } from 'vitest';
import { applySyntax, phraseMatch } from '../../src/search/constraints.js';
import { editDistance, nearTerms } from '../../src/search/did-you-mean.js';
import { LONG_TEXT_CHARS, longTextNotice } from '../../src/search/operator-text.js';
import { parseQuery } from '../../src/search/query-syntax.js';

describe('parseQuery', () => {
  it('gives a query without operators back untouched', () => {
    for (const q of ['sync engines', '  spaced   out  ', 'e-mail -5 degrees', 'OR alone OR', '"unterminated', 'tag: x', 'it\'s 5* s*', '消費電力を教えて']) {
      expect(parseQuery(q)).toEqual({ text: q, quoted: [], required: [], excluded: [], prefixes: [], filters: {}, operators: false, notices: [] });
    }
  });

  it('reads phrases, exclusions, OR groups, prefixes and filters', () => {
    const q = parseQuery('"sync engine" OR replication -dataview -"query block" tag:project/alpha path:"my notes/" type:knowledge STATUS:current sync* plain');
    expect(q.operators).toBe(true);
    expect(q.required).toEqual([['sync engine', 'replication']]);
    expect(q.excluded).toEqual(['dataview', 'query block']);
    expect(q.prefixes).toEqual(['sync']);
    expect(q.filters).toEqual({ tag: ['project/alpha'], path: ['my notes/'], type: ['knowledge'], status: ['current'] });
    // Phrases and OR sides rank as well (phrases apart: never read as dates); exclusions and filters do not.
    expect(q.text).toBe('replication plain');
    expect(q.quoted).toEqual(['sync engine']);
  });

  it('makes a lone phrase required and keeps bare words soft', () => {
    const q = parseQuery('"消費電力" 設計 budget');
    expect(q.required).toEqual([['消費電力']]);
    expect(q.text).toBe('設計 budget');
    expect(q.quoted).toEqual(['消費電力']);
  });

  it('joins a chain of ORs into one group, and an OR without two sides is a word', () => {
    expect(parseQuery('a OR b OR "c d" e').required).toEqual([['a', 'b', 'c d']]);
    const dangling = parseQuery('a OR -bb');
    expect(dangling.required).toEqual([]);
    expect(dangling.excluded).toEqual(['bb']);
    expect(dangling.text).toBe('a OR');
    // lower-case or is an ordinary (stop) word
    expect(parseQuery('a or b').operators).toBe(false);
  });
});

describe('parseQuery on pasted text', () => {
  it('reads a one-letter flag or a --flag as text, and still excludes a word', () => {
    const cmd = 'how do I flash the collar firmware with pio run -e collar -t upload';
    expect(parseQuery(cmd)).toMatchObject({ text: cmd, operators: false, excluded: [], notices: [] });
    for (const q of ['build --save-dev -x', 'a -. -e.g -é', 'node --inspect']) expect(parseQuery(q).operators).toBe(false);
    // a word of two letters or more, or of CJK, is an exclusion as documented
    expect(parseQuery('sync -plugin -ab -電').excluded).toEqual(['plugin', 'ab', '電']);
    expect(parseQuery('sync -e -plugin')).toMatchObject({ text: 'sync -e', excluded: ['plugin'] });
  });

  it('reads a group of flags after a shell command as text, says so, and still excludes elsewhere', () => {
    const flag = (f: string, c: string) => `${f} after ${c} is read as the command's flag, not an exclusion: searched as words (to leave out notes holding ${f.slice(1)}, put ${f} before the command)`;
    expect(parseQuery('rm -rf build')).toMatchObject({ text: 'rm -rf build', operators: false, excluded: [], notices: [flag('-rf', 'rm')] });
    expect(parseQuery('ls -la')).toMatchObject({ operators: false, notices: [flag('-la', 'ls')] });
    // after a subcommand, and on through the command's other flags
    expect(parseQuery('git commit -am "fix the build"')).toMatchObject({ text: 'git commit -am', excluded: [], quoted: ['fix the build'] });
    expect(parseQuery('docker run --rm -it ubuntu tar -xzvf a.tgz sudo ls -l -ah')).toMatchObject({ operators: false, excluded: [] });
    expect(parseQuery('docker run --rm -it ubuntu tar -xzvf a.tgz sudo ls -l -ah').notices).toEqual([flag('-it', 'docker'), flag('-xzvf', 'tar'), flag('-ah', 'ls')]);
    // a word, a command's argument, no known command, or the flag first: an exclusion as documented
    expect(parseQuery('rm -rf build -old').excluded).toEqual(['old']);
    expect(parseQuery('ls -plugin -rf rm x').excluded).toEqual(['plugin', 'rf']);
    expect(parseQuery('find notes -old').excluded).toEqual(['old']);
    expect(parseQuery('sync -dataview').excluded).toEqual(['dataview']);
    expect(parseQuery('rm "x" -rf').excluded).toEqual(['rf']);
  });

  it('reads type: with a value that is no note type as words, and says so', () => {
    const q = parseQuery('package.json type:module plugin build');
    expect(q).toMatchObject({ text: 'package.json type:module plugin build', operators: false, filters: {} });
    expect(q.notices).toEqual(['type:module is not a note type (daily, knowledge, session): searched as words']);
    expect(parseQuery('antenna type:Daily,knowledge')).toMatchObject({ filters: { type: ['Daily,knowledge'] }, notices: [] });
    expect(parseQuery('x type:"daily, blog"').notices).toHaveLength(1);
  });

  it('confines path: to the vault: a path out of it, absolute or with a drive letter is words', () => {
    const vault = '/home/me/vault';
    expect(parseQuery('antenna path:knowledge/', { vault }).filters).toEqual({ path: ['knowledge/'] });
    expect(parseQuery(`antenna path:${vault}/daily/`, { vault }).filters).toEqual({ path: ['daily/'] });
    for (const p of ['C:\\Users\\me\\vault', '../x', '/etc', 'd:/notes', '\\\\server\\share']) {
      const q = parseQuery(`path:${p} sync`, { vault });
      expect(q, p).toMatchObject({ text: `path:${p} sync`, operators: false, filters: {} });
      expect(q.notices, p).toEqual([`path:${p} is not a folder of the vault (give one relative to the vault root, like knowledge/): searched as words`]);
    }
    // a drive path names no folder of any vault; without a vault, other paths are the caller's to confine
    expect(parseQuery('path:C:\\x sync').operators).toBe(false);
    expect(parseQuery('path:../x sync').filters).toEqual({ path: ['../x'] });
  });

  it(`reads a query with more than ${LONG_TEXT_CHARS} characters of plain words as plain text, and says so when it held operators`, () => {
    const prose = 'the collar firmware sync fails after the upload and the logs say nothing useful '.repeat(3).trim();
    expect(prose.length).toBeGreaterThan(LONG_TEXT_CHARS);
    const pasted = `${prose} -dataview "quoted words" type:daily tag:x`;
    expect(parseQuery(pasted)).toMatchObject({ text: pasted, operators: false, excluded: [], filters: {} });
    expect(parseQuery(pasted).notices).toEqual([longTextNotice(prose.length)]);
    expect(parseQuery(prose).notices).toEqual([]);
    // up to the limit, the query language applies; operators themselves do not count (an agent's long OR chain)
    const typed = `${'x'.repeat(LONG_TEXT_CHARS)} -dataview`;
    expect(parseQuery(typed).excluded).toEqual(['dataview']);
    const chain = Array.from({ length: 30 }, (_, i) => `"phrase number ${i}"`).join(' OR ');
    expect(parseQuery(`${chain} tag:x`).required[0]).toHaveLength(30);
  });
});

describe('phraseMatch', () => {
  it('quotes Latin words as one phrase and CJK runs as bigram phrases', () => {
    expect(phraseMatch('Sync Engine')).toBe('{head_words body_words} : "sync engine"');
    expect(phraseMatch('消費電力')).toBe('{head_cjk body_cjk} : "消費 費電 電力"');
    expect(phraseMatch('電')).toBe('{head_cjk body_cjk} : "電"*');
    expect(phraseMatch('SX1262 の消費電力')).toBe('({head_words body_words} : "sx1262") AND ({head_cjk body_cjk} : "の消 消費 費電 電力")');
    expect(phraseMatch('"" NEAR( *')).toBe('{head_words body_words} : "near"');
    expect(phraseMatch('** ""')).toBeNull();
  });
});

describe('applySyntax', () => {
  const NOW = new Date('2026-11-20T12:00:00Z');
  it('turns phrases and OR groups into section matches, exclusions into one note match, filters into also', () => {
    const f = applySyntax({ tags: ['x'] }, parseQuery('"sync engine" a OR b -draft -"old idea" tag:Project type:daily'), NOW);
    expect(f.tags).toEqual(['x']);
    expect(f.also).toEqual({ tags: ['project'], types: ['daily'] });
    expect(f.sectionMatches).toEqual(['{head_words body_words} : "sync engine"', '({head_words body_words} : "a") OR ({head_words body_words} : "b")']);
    expect(f.excludeMatch).toBe('({head_words body_words} : "draft") OR ({head_words body_words} : "old idea")');
  });

  it('leaves free text alone and drops a group that a word-less side would meet', () => {
    expect(applySyntax({ statuses: ['current'] }, parseQuery('just words'), NOW)).toEqual({ statuses: ['current'] });
    expect(applySyntax({}, parseQuery('lora OR * "?"'), NOW)).toEqual({});
  });
});

describe('did you mean', () => {
  it('measures edits with swaps of neighbours as one', () => {
    expect(editDistance('dataveiw', 'dataview', 2)).toBe(1);
    expect(editDistance('plugn', 'plugin', 2)).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
  });

  it('offers the nearest indexed terms first, a stem standing for the start of a word, the commoner on a tie', () => {
    const terms = [
      { term: 'data', doc: 50 },
      { term: 'dataview', doc: 3 },
      { term: 'configur', doc: 4 },
      { term: 'zebra', doc: 1 },
    ];
    // data (4 letters left over) and dataview (one swap) cost the same; the written word decides later
    expect(nearTerms('dataveiw', terms)).toEqual(['data', 'dataview']);
    expect(nearTerms('configuraton', terms)).toEqual(['configur']);
    expect(nearTerms('zzzzzz', terms)).toEqual([]);
    expect(nearTerms('dat', [{ term: 'cat', doc: 1 }, { term: 'dot', doc: 9 }])).toEqual(['dot', 'cat']);
  });
});
