// A query as big as argv or an MCP argument allows still answers, in time its size warrants. Two failed:
// - 50,000 distinct words no note holds took 5 s after the terms were cut (query-terms-linear.test.ts): the
//   cap to the rarest 40 words was skipped when the index held none of them, and FTS5 ran an OR of all.
// - 1,000 quoted phrases failed the search ("Expression tree is too large (maximum depth 1000)", exit 1
//   with "this is a bug in tsm"): each phrase a note must hold is one subquery, all AND-ed in one statement.
// - 1,000 `path:` filters failed the same way (999 ran): each prefix was one term of an OR in the statement.
// - 16,384 `path:` filters passed SQLite's 32,766 bound parameters ("too many SQL variables"): two a prefix.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/search/query-syntax.js';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';

const index = useIndexReader(() => ({
  'lora.md': '# LoRa\n\nThe LoRa antenna reached 3 km on the ridge.\n',
  'vhf.md': '# VHF\n\nThe VHF collar beeps every second.\n',
}));

function run(query: string) {
  const start = performance.now();
  const resp = search(index.db, { query, syntax: parseQuery(query), limit: 10 });
  return { paths: resp.hits.map((h) => h.path), ms: performance.now() - start, syntax: parseQuery(query) };
}

describe('huge queries', () => {
  it('50,000 distinct words the vault does not hold, and one it holds: searched by a few of them, at once', () => {
    const words = Array.from({ length: 50_000 }, (_, i) => `zz${i}q`);
    const some = run(`${words.join(' ')} antenna`);
    // The rarest 40 words find nothing; searched again, the words a section holds go first.
    expect(some.paths).toEqual(['lora.md']);
    expect(some.ms).toBeLessThan(2000);
    const none = run(words.join(' '));
    expect(none.paths).toEqual([]);
    expect(none.ms).toBeLessThan(2000);
  });

  it('1,000 quoted phrases: read as text, said, and the search answers', () => {
    const query = Array.from({ length: 1000 }, (_, i) => `"lora antenna ${i}"`).join(' ');
    const { paths, syntax } = run(query);
    expect(syntax.operators).toBe(false);
    expect(syntax.notices.join(' ')).toMatch(/1000 phrases and OR groups/);
    expect(paths).toContain('lora.md');
  });

  it('1,000 path: filters: each applies, and the search answers', () => {
    const others = Array.from({ length: 1000 }, (_, i) => `path:k${i}/`).join(' ');
    expect(run(`antenna ${others}`).paths).toEqual([]);
    expect(run(`antenna ${others} path:lora`).paths).toEqual(['lora.md']);
    expect(run(`beeps ${others} path:lora`).paths).toEqual([]);
  });

  it('20,000 path: filters, as a query and as the --path option: each applies, and the search answers', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `k${i}/`);
    const others = many.map((p) => `path:${p}`).join(' ');
    expect(run(`antenna ${others}`).paths).toEqual([]);
    expect(run(`antenna ${others} path:lora`).paths).toEqual(['lora.md']);
    expect(run(`beeps ${others} path:lora`).paths).toEqual([]);
    const flagged = (prefixes: string[]) =>
      search(index.db, { query: 'antenna', syntax: parseQuery('antenna'), limit: 10, flags: { path: prefixes } }).hits.map((h) => h.path);
    expect(flagged([...many, 'lora'])).toEqual(['lora.md']);
    expect(flagged([...many, 'vhf'])).toEqual([]);
    expect(flagged(many)).toEqual([]);
  });

  it('a few phrases still constrain', () => {
    expect(run('"lora antenna" "3 km"').paths).toEqual(['lora.md']);
    expect(run('"lora antenna" "collar beeps"').paths).toEqual([]);
  });
});
