// `tsm search -f xml` and `-f md` echo the query on stdout (the `query` attribute, `No results found for
// "…"`): cut as every other echo is (QUERY_ECHO_CHARS), so a pasted page costs a line, not itself again.
// A 110 KB query (10,000 exclusions) printed 111,788 bytes of XML for no result, and its whole text beside every result.
import { describe, expect, it } from 'vitest';
import { QUERY_ECHO_CHARS } from '../../src/text/chars.js';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  '.tsm/.keep': '',
  'knowledge/antenna.md': ['# Antenna', '', 'The LoRa antenna reached 3 km on the ridge.', ''].join('\n'),
});

const pasted = (word: string) => `${word} ${Array.from({ length: 12_000 }, (_, i) => `w${i}`).join(' ')}`;

function echoed(format: string, query: string): { stdout: string; attr: string } {
  const r = tsm(['search', '--vault', vault.dir, '-f', format, '--', query]);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, attr: /query="([^"]*)"/.exec(r.stdout)?.[1] ?? '' };
}

describe('the query echoed on stdout', () => {
  it('xml: the query attribute is cut, with and without results', () => {
    for (const query of [pasted('antenna'), pasted('zanzibar')]) {
      expect(query.length).toBeGreaterThan(70_000);
      const { stdout, attr } = echoed('xml', query);
      expect(Array.from(attr).length).toBeLessThanOrEqual(QUERY_ECHO_CHARS + 1);
      expect(attr.endsWith('…')).toBe(true);
      expect(stdout.length).toBeLessThan(5_000);
    }
  });

  it('md: "No results found" quotes the query cut', () => {
    const { stdout } = echoed('md', pasted('zanzibar'));
    expect(stdout).toMatch(/^No results found for "zanzibar w0 w1 .*…"\.\n$/);
    expect(stdout.length).toBeLessThan(QUERY_ECHO_CHARS * 2);
  });

  it('md: "No results found" quotes the query as text (a tag in it is no HTML: it rendered as an element)', () => {
    const { stdout } = echoed('md', 'zanzibar <kbd>x</kbd> `tick');
    expect(stdout).toBe('No results found for "zanzibar \\<kbd>x\\</kbd> \\`tick".\n');
  });
});
