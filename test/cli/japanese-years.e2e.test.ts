// Japanese words for a past year, through the built CLI: the range each gives is the year a reader means.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm, useIndexedVault } from '../helpers/cli.js';

// Sunday 2026-11-29, noon in Tokyo.
const ENV = { TSM_NOW: '2026-11-29T12:00:00+09:00', TZ: 'Asia/Tokyo' };

const vault = useIndexedVault({
  'daily/2024-05-10.md': '# 日報\n\nアンテナの調整をした。\n',
  'daily/2025-05-10.md': '# 日報\n\nアンテナの調整をした。\n',
  'daily/2026-11-20.md': '# 日報\n\nアンテナの調整をした。\n',
  'daily/2025-03-10.md': '# 日報\n\n議事録を書いた。\n',
  'daily/2025-12-20.md': '# 日報\n\n議事録を書いた。\n',
  'daily/2026-03-10.md': '# 日報\n\n議事録を書いた。\n',
  'daily/2026-01-02.md': '# 日報\n\n帰省した。\n',
  'daily/2026-12-31.md': '# 日報\n\n帰省した。\n',
});

function search(query: string, env: Record<string, string> = ENV): { paths: string[]; stderr: string } {
  const r = tsm(['search', query, '--vault', vault.dir, '-f', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path), stderr: r.stderr };
}

beforeAll(() => assertBuilt());

describe('the year before last', () => {
  it('一昨年 and おととし are 2024, not last year (一昨年 holds 昨年)', () => {
    for (const q of ['一昨年のアンテナ', 'おととしのアンテナ']) {
      const { paths, stderr } = search(q);
      expect(paths[0], q).toBe('daily/2024-05-10.md');
      expect(stderr, q).toMatch(/dated from 2024-01-01 to before 2025-01-01/);
    }
    expect(search('一昨年').paths).toEqual(['daily/2024-05-10.md']);
    // 昨年 alone is still last year.
    expect(search('昨年').paths).toEqual(['daily/2025-12-20.md', 'daily/2025-05-10.md', 'daily/2025-03-10.md']);
  });
});

describe('a month or the end of a year named by a word', () => {
  it('is that year\'s: 去年の3月 is March 2025, not all of 2025 with this March apart from it', () => {
    const { paths, stderr } = search('去年の3月の議事録');
    expect(paths[0]).toBe('daily/2025-03-10.md');
    expect(stderr).toMatch(/1 match dated from 2025-03-01 to before 2025-04-01/);
    expect(stderr).not.toMatch(/apart/);
  });

  it('a day too: 去年の3月10日 is 2025-03-10, not this year\'s with 去年 apart from it', () => {
    const { paths, stderr } = search('去年の3月10日の議事録');
    expect(paths[0]).toBe('daily/2025-03-10.md');
    expect(stderr).toMatch(/1 match dated from 2025-03-10 to before 2025-03-11/);
    expect(stderr).not.toMatch(/apart/);
  });

  it('昨年末 and 去年の年末 are December 15–31 of last year, also in December', () => {
    for (const env of [ENV, { ...ENV, TSM_NOW: '2026-12-20T12:00:00+09:00' }]) {
      for (const q of ['昨年末の議事録', '去年の年末の議事録']) {
        const { paths, stderr } = search(q, env);
        expect(paths[0], q).toBe('daily/2025-12-20.md');
        expect(stderr, q).toMatch(/1 match dated from 2025-12-15 to before 2026-01-01/);
        expect(stderr, q).not.toMatch(/apart/);
      }
    }
  });
});

describe('a span across the new year', () => {
  const NEW_YEAR = { ...ENV, TSM_NOW: '2027-01-02T12:00:00+09:00' };
  it('ends on the first such day after its start: the holiday under way, not a year from last January', () => {
    for (const q of ['2026年12月30日〜1月3日の帰省', '12月30日〜1月3日の帰省']) {
      const { paths, stderr } = search(q, NEW_YEAR);
      expect(paths[0], q).toBe('daily/2026-12-31.md');
      expect(stderr, q).toMatch(/1 match dated from 2026-12-30 to before 2027-01-04/);
    }
  });
});

describe('年末年始', () => {
  it('in December is this year end and the January after it, with no word of a date apart', () => {
    const { paths, stderr } = search('年末年始の帰省', { ...ENV, TSM_NOW: '2026-12-28T12:00:00+09:00' });
    expect(paths[0]).toBe('daily/2026-12-31.md');
    expect(stderr).toMatch(/dated from 2026-12-15 to before 2027-01-16/);
    expect(stderr).not.toMatch(/apart/);
  });
});
