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
