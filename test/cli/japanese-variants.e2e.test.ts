// Spellings a Japanese IME or a copy-paste produces for one word, through the built CLI: each finds the
// others (src/text/normalize.ts foldVariants), and the snippet shows the passage that holds the match.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const FILLER = '今日は朝から天気が良かったので、近所の公園まで散歩に出かけた。'.repeat(12);

const vault = useIndexedVault({
  'seki-small.md': '# 合戦\n\n関ヶ原の戦いについて調べた。\n',
  'seki-large.md': '# 町\n\n関ケ原町の観光案内。\n',
  'months-small.md': '# 計画A\n\n導入まで3ヶ月の見込み。\n',
  'months-hira.md': '# 計画B\n\n導入まで３か月の見込み。\n',
  'months-kata.md': '# 計画C\n\n導入まで三カ月の見込み。\n',
  'places.md': '# 点検\n\n修理は5ヵ所。\n',
  'taka.md': `# 報告\n\n${FILLER}髙橋さんと山﨑さんの報告。${FILLER}\n`,
  'kanji.md': '# 漢字\n\n高い橋と長崎の坂。\n',
  // 葛 in its registered glyph (an ideographic variation selector, U+E0100), 辻 with a standardized one (U+FE00).
  'ivs.md': `# 発送\n\n${FILLER}東京都葛\u{E0100}飾区の倉庫と辻\ufe00本さん。${FILLER}\n`,
});

function hits(query: string): { path: string; snippet: string }[] {
  const r = tsm(['search', query, '--vault', vault.dir, '-f', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
const paths = (query: string) => hits(query).map((h) => h.path).sort();

describe('Japanese spelling variants', () => {
  it('finds 関ヶ原 written with a small or a large ケ, whichever the query has', () => {
    expect(paths('関ヶ原')).toEqual(['seki-large.md', 'seki-small.md']);
    expect(paths('関ケ原')).toEqual(['seki-large.md', 'seki-small.md']);
  });

  it('reads a counter after a number as one word: ヶ月, か月, カ月; ヵ所, か所', () => {
    for (const q of ['3ヶ月', '３か月', '3ヵ月', 'ヶ月', 'か月']) expect(paths(q), q).toEqual(['months-hira.md', 'months-kata.md', 'months-small.md']);
    expect(paths('5か所')).toEqual(['places.md']);
    // 三 is no 3 (a numeral, not a spelling), but 三ケ月 is 三カ月.
    expect(paths('三ケ月')).toEqual(['months-kata.md']);
  });

  it('finds 髙橋 and 山﨑 from 高橋 and 山崎, and shows the passage that holds them', () => {
    for (const q of ['高橋', '髙橋', '山崎']) {
      const [hit] = hits(q);
      expect(hit.path, q).toBe('taka.md');
      expect(hit.snippet, q).toMatch(/^…髙橋さんと山﨑さんの報告。/);
    }
    // A reading that joins no variant: 高い and 長崎 are not 髙橋 or 山﨑.
    expect(paths('高橋')).toEqual(['taka.md']);
  });

  it('finds 葛󠄀飾 and 辻︀本, written with a variation selector, from 葛飾 and 辻本, and shows them as written', () => {
    for (const q of ['葛飾', '辻本', '葛\u{E0100}飾']) {
      const [hit, ...rest] = hits(q);
      expect(hit?.path, q).toBe('ivs.md');
      expect(rest, q).toEqual([]);
      expect(hit.snippet, q).toMatch(/^…東京都葛\u{E0100}飾区の倉庫と辻\ufe00本さん。/u);
    }
  });
});
