import { describe, expect, it } from 'vitest';
import { foldVariants, searchText } from '../../src/text/normalize.js';
import { bestSnippet } from '../../src/search/snippet.js';
import { queryTerms } from '../../src/search/query-terms.js';

describe('foldVariants', () => {
  it.each([
    ['関ヶ原', '関ケ原'],
    ['ヵ', 'カ'],
    ['カ所', 'ケ所'],
    ['3ヶ月 3ヵ月 3カ月 3ケ月 3か月', '3ケ月 3ケ月 3ケ月 3ケ月 3ケ月'],
    ['三か月、数カ月、何ヵ月', '三ケ月、数ケ月、何ケ月'],
    ['５か所と10カ国', '5ケ所と10ケ国'],
    ['か月', 'ケ月'],
    ['髙橋と山﨑', '高橋と山崎'],
  ])('%j is searched as %j', (text, folded) => {
    expect(searchText(text)).toBe(folded);
  });

  it.each(['何かが月曜に', 'ですか。月末', 'ロカ月', 'いくか所', 'ケース', '𠮷野家', '斎藤と斉藤', '渡邊'])('leaves %j as it is', (text) => {
    expect(foldVariants(text)).toBe(text);
  });

  it('keeps the length of any text, so snippet offsets hold', () => {
    const text = 'ヶヵ髙﨑3か月'.repeat(3);
    expect(foldVariants(text)).toHaveLength(text.length);
  });
});

describe('bestSnippet with folded variants', () => {
  it('finds 髙橋 for 高橋 in a piece normalised per combining sequence (a surrogate pair and a half-width voiced mark beside it)', () => {
    const text = `${'あいうえおかきくけこ。'.repeat(30)}𠮷ﾊﾞ髙橋さん、3か月。${'さしすせそたちつてと。'.repeat(30)}`;
    const snip = bestSnippet(text, queryTerms('高橋 3ヶ月').cjk, 40);
    expect(snip).toContain('髙橋さん、3か月');
  });
});
