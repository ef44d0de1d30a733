// A tag typed in a Japanese IME's full-width mode (`＃日本語`), through the built CLI: the ＃ is a #, as the
// half-width one is stripped, for the flag and the query's `tag:` alike.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const vault = useIndexedVault({
  'tagged.md': '---\ntags: [日本語]\n---\n# 電池\n\n電池の話。\n',
  'plain.md': '# 電池の設定\n\n電池の設定を変更した。\n',
});

function search(...args: string[]): { paths: string[]; stderr: string } {
  const r = tsm(['search', ...args, '--vault', vault.dir, '-f', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path), stderr: r.stderr };
}

describe('a full-width ＃ before a tag', () => {
  it('is stripped like #: --tag ＃日本語 and tag:＃日本語 find the tagged note', () => {
    expect(search('電池', '--tag', '＃日本語').paths).toEqual(['tagged.md']);
    const query = search('電池 tag:＃日本語');
    expect(query.paths).toEqual(['tagged.md']);
    expect(query.stderr).not.toMatch(/left no match/);
  });

  it('alone names nothing, as # alone does', () => {
    const r = tsm(['search', '電池', '--tag', '＃', '--vault', vault.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--tag must not be empty/);
  });
});
