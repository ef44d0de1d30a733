import { describe, expect, it } from 'vitest';
import { extractTemporal } from '../../src/search/temporal.js';

// Sunday 2026-11-22, local time.
const now = new Date(2026, 10, 22, 15, 0, 0);

describe('extractTemporal', () => {
  const cases: [string, string, { after?: string; before?: string }][] = [
    ['LoRa notes from yesterday', 'LoRa notes from', { after: '2026-11-21', before: '2026-11-22' }],
    ['昨日のLoRa', 'のLoRa', { after: '2026-11-21', before: '2026-11-22' }],
    ['what did I decide last week about the antenna', 'what did I decide about the antenna', { after: '2026-11-09', before: '2026-11-16' }],
    ['先週 アンテナ', 'アンテナ', { after: '2026-11-09', before: '2026-11-16' }],
    ['先月のLoRa関連のメモ', 'のLoRa関連のメモ', { after: '2026-10-01', before: '2026-11-01' }],
    ['last month budget', 'budget', { after: '2026-10-01', before: '2026-11-01' }],
    ['今月の予定', 'の予定', { after: '2026-11-01' }],
    ['去年の決算', 'の決算', { after: '2025-01-01', before: '2026-01-01' }],
    ['昨年 決算', '決算', { after: '2025-01-01', before: '2026-01-01' }],
    ['今年の目標', 'の目標', { after: '2026-01-01' }],
    ['this year goals', 'goals', { after: '2026-01-01' }],
    ['最近のバグ', 'のバグ', { after: '2026-10-23' }],
    ['3日前の会議', 'の会議', { after: '2026-11-19', before: '2026-11-20' }],
    ['3 days ago meeting', 'meeting', { after: '2026-11-19', before: '2026-11-20' }],
    ['2週間前 レビュー', 'レビュー', { after: '2026-11-02', before: '2026-11-09' }],
    ['2ヶ月前の障害', 'の障害', { after: '2026-09-01', before: '2026-10-01' }],
    ['1年前の議事録', 'の議事録', { after: '2025-01-01', before: '2026-01-01' }],
    ['半年前の調査', 'の調査', { after: '2026-05-01', before: '2026-06-01' }],
    ['3月のLoRa', 'LoRa', { after: '2026-03-01', before: '2026-04-01' }],
    ['12月に買った', '買った', { after: '2025-12-01', before: '2026-01-01' }],
    ['in March antenna', 'antenna', { after: '2026-03-01', before: '2026-04-01' }],
    ['年末の振り返り', 'の振り返り', { after: '2025-12-15', before: '2026-01-01' }],
    ['年始の目標', 'の目標', { after: '2026-01-01', before: '2026-01-16' }],
  ];
  for (const [query, text, range] of cases) {
    it(`${query}`, () => {
      const r = extractTemporal(query, now);
      expect(r.range).toEqual(range);
      expect(r.text).toBe(text);
    });
  }

  it('an impossible month (13月) stays plain text', () => {
    expect(extractTemporal('13月の予定', now)).toEqual({ text: '13月の予定', range: null });
  });

  it('a query without time words is unchanged', () => {
    expect(extractTemporal('LoRa モジュール', now)).toEqual({ text: 'LoRa モジュール', range: null });
  });
});

describe('extractTemporal: the quick pre-check never hides a rule', () => {
  // Each rule's expression, found inside otherwise plain text, in either case: the pre-check must let every
  // one through (a range is found), and plain queries keep their text, whitespace collapsed.
  const expressions = [
    '3 weeks ago', '10日前', 'the day before yesterday', '一昨日', 'おととい', 'Yesterday', '昨日', 'TODAY', '今日', '本日',
    'last week', '先週', 'this week', '今週', 'last month', '先月', 'this month', '今月', 'last year', '去年', '昨年',
    'this year', '今年', '半年前', 'recently', 'Lately', '最近', 'ここ最近', '年末', '昨年の年末', '年始', '年明け',
    'in September', 'in sept 2024', 'in dec', '2025年3月の', '3月に', 'in 2024', '2023年の',
  ];
  for (const e of expressions) {
    it(`finds "${e}" inside a longer query`, () => {
      expect(extractTemporal(`antenna ${e} メモ`, now).range).not.toBeNull();
    });
  }
  it('a query with no temporal expression keeps its text', () => {
    expect(extractTemporal('  LoRa   アンテナの 選び方 ', now)).toEqual({ text: 'LoRa アンテナの 選び方', range: null });
  });
});
