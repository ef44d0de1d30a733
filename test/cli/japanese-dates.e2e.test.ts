// Japanese date words through the built CLI: the range each gives is the days a reader means, and no part
// of the word is left to search.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm, useIndexedVault } from '../helpers/cli.js';

// Sunday 2026-11-29, noon in Tokyo.
const ENV = { TSM_NOW: '2026-11-29T12:00:00+09:00', TZ: 'Asia/Tokyo' };

const vault = useIndexedVault({
  'daily/2026-11-28.md': '# 日報\n\nデプロイ作業をした。\n',
  'daily/2026-11-29.md': '# 日報\n\nデプロイ作業をした。\n',
  // 末 is in every one of these: read as a word, it matched them all.
  'daily/2026-11-18.md': '# 日報\n\n週末のキャンプの準備。月末の請求書。\n',
  'daily/2026-11-22.md': '# 日報\n\nキャンプに行った。\n',
  'daily/2026-10-05.md': '# 日報\n\n月末の請求書を確認。\n',
  'daily/2026-10-30.md': '# 日報\n\n請求書を送った。\n',
  // Fiscal 2025 (April 2025 to March 2026) holds the second and third, calendar 2025 the first two.
  'daily/2025-02-10.md': '# 日報\n\n予算を組んだ。\n',
  'daily/2025-05-10.md': '# 日報\n\n予算を組んだ。\n',
  'daily/2026-02-10.md': '# 日報\n\n予算を組んだ。\n',
  'daily/2026-11-26.md': '# 日報\n\nアンテナを調整した。\n',
  'daily/2026-11-16.md': '# 日報\n\nアンテナを調整した。\n',
  'daily/2026-11-10.md': '# 日報\n\nアンテナを調整した。\n',
  'daily/2026-07-10.md': '# 日報\n\nアンテナを調整した。\n',
});

function search(query: string, env: Record<string, string> = ENV): { paths: string[]; stderr: string } {
  const r = tsm(['search', query, '--vault', vault.dir, '-f', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return { paths: (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path), stderr: r.stderr };
}

beforeAll(() => assertBuilt());

describe('今夜 and 今晩', () => {
  it('are today, as tonight is', () => {
    for (const q of ['今夜のデプロイ', '今晩のデプロイ']) {
      const { paths, stderr } = search(q);
      expect(paths[0], q).toBe('daily/2026-11-29.md');
      expect(stderr, q).toMatch(/1 match dated from 2026-11-29 to before 2026-11-30/);
    }
  });
});

describe('先週末 and 先月末', () => {
  it('are that week\'s weekend and that month\'s last days, with no 末 left to search', () => {
    const { paths, stderr } = search('先週末のキャンプ');
    expect(paths[0]).toBe('daily/2026-11-22.md');
    expect(stderr).toMatch(/1 match dated from 2026-11-21 to before 2026-11-23/);
    const month = search('先月末の請求');
    expect(month.paths[0]).toBe('daily/2026-10-30.md');
    expect(month.stderr).toMatch(/1 match dated from 2026-10-21 to before 2026-11-01/);
  });
});

describe('今週末 and 今月末', () => {
  it('are this week\'s weekend and this month\'s last days, as 先週末 and 先月末 are: not the week from Monday or the month from the 1st', () => {
    const week = search('今週末の日報');
    expect(week.paths.slice(0, 2).sort()).toEqual(['daily/2026-11-28.md', 'daily/2026-11-29.md']);
    expect(week.stderr).toMatch(/2 matches dated from 2026-11-28 to before 2026-11-30/);
    const month = search('今月末の日報');
    expect(month.paths.slice(0, 4).sort()).toEqual(['daily/2026-11-22.md', 'daily/2026-11-26.md', 'daily/2026-11-28.md', 'daily/2026-11-29.md']);
    expect(month.stderr).toMatch(/4 matches dated from 2026-11-21 to before 2026-12-01/);
  });
});

describe('年度', () => {
  it('昨年度 is the fiscal year from April to March, not calendar 2025 with 度 left to search', () => {
    const { paths, stderr } = search('昨年度の予算');
    expect(paths.slice(0, 2).sort()).toEqual(['daily/2025-05-10.md', 'daily/2026-02-10.md']);
    expect(stderr).toMatch(/2 matches dated from 2025-04-01 to before 2026-04-01/);
  });
});

describe('counts in kanji', () => {
  it('三日前 and 二週間前 are read as 3日前 and 2週間前 are, and 2週前 as well', () => {
    const { paths, stderr } = search('三日前のアンテナ');
    expect(paths[0]).toBe('daily/2026-11-26.md');
    expect(stderr).toMatch(/1 match dated from 2026-11-26 to before 2026-11-27/);
    for (const q of ['二週間前のアンテナ', '2週前のアンテナ']) {
      const weeks = search(q);
      expect(weeks.paths[0], q).toBe('daily/2026-11-10.md');
      expect(weeks.stderr, q).toMatch(/1 match dated from 2026-11-09 to before 2026-11-16/);
    }
  });
});

describe('a span written backwards', () => {
  it('7月20日〜7月1日 is the days between, not the year from 2026-07-20', () => {
    const { paths, stderr } = search('7月20日〜7月1日のアンテナ');
    expect(paths[0]).toBe('daily/2026-07-10.md');
    expect(stderr).toMatch(/1 match dated from 2026-07-01 to before 2026-07-21/);
  });

  it('3月28日から2月3日 is the days between, not 2026-03-28 to 2027-02-03', () => {
    const { paths, stderr } = search('3月28日から2月3日の予算');
    expect(paths[0]).toBe('daily/2026-02-10.md');
    expect(stderr).toMatch(/1 match dated from 2026-02-03 to before 2026-03-29/);
  });
});

describe('days and months in kanji', () => {
  it('七月十日 and 十一月十日 are read as 7月10日 and 11月10日 are, 七月の as 7月の; 七月 alone stays words, as 7月 does', () => {
    for (const [q, path, range] of [
      ['七月十日のアンテナ', 'daily/2026-07-10.md', '2026-07-10 to before 2026-07-11'],
      ['十一月十日のアンテナ', 'daily/2026-11-10.md', '2026-11-10 to before 2026-11-11'],
      ['二〇二六年七月十日のアンテナ', 'daily/2026-07-10.md', '2026-07-10 to before 2026-07-11'],
      ['七月のアンテナ', 'daily/2026-07-10.md', '2026-07-01 to before 2026-08-01'],
    ]) {
      const { paths, stderr } = search(q);
      expect(paths[0], q).toBe(path);
      expect(stderr, q).toMatch(new RegExp(`1 match dated from ${range}`));
    }
    expect(search('七月 アンテナ').stderr).not.toMatch(/dated/);
  });
});
