import { describe, expect, it } from 'vitest';
import { cutFillers, queryTerms, splitAtScriptChange, trimInflection } from '../../src/search/query-terms.js';

describe('queryTerms', () => {
  it('drops English filler words and keeps the specific ones', () => {
    const t = queryTerms('What did we decide about the antenna for the LoRa tracker?');
    expect(t.words).toEqual(['decide', 'antenna', 'lora', 'tracker']);
    expect(t.cjk).toEqual([]);
  });

  it('normalises full-width and case (NFKC + lower case)', () => {
    expect(queryTerms('ＬｏＲａ　ＳＸ１２６２').words).toEqual(['lora', 'sx1262']);
  });

  it('bigrams Japanese without spanning particles or request phrases', () => {
    const t = queryTerms('LoRaモジュールの選び方を教えてください');
    expect(t.words).toEqual(['lora']);
    expect(t.cjk).toEqual(['モジ', 'ジュ', 'ュー', 'ール', '選び', 'び方']);
    expect(t.cjk).not.toContain('ルの');
    expect(t.cjk).not.toContain('くだ');
  });

  it('cuts chained particles after a noun (には, での)', () => {
    expect(cutFillers('会議では予算を決めた')).toEqual(['会議', '予算', '決めた']);
  });

  it('keeps a particle character that starts a word', () => {
    expect(cutFillers('はじめに')).toEqual(['はじめに']);
  });

  it('turns one-character pieces into prefix terms', () => {
    const t = queryTerms('犬');
    expect(t.cjk).toEqual([]);
    expect(t.cjkSingles).toEqual(['犬']);
  });

  it('a query made only of filler still has terms', () => {
    expect(queryTerms('what is it').words.length).toBeGreaterThan(0);
  });

  it('handles FTS5 syntax characters as plain text', () => {
    const t = queryTerms('"foo" AND bar* -baz NEAR(qux) col:val');
    expect(t.words).toEqual(['foo', 'bar', 'baz', 'near', 'qux', 'col', 'val']);
  });

  it('empty and whitespace-only queries give no terms', () => {
    expect(queryTerms('')).toEqual({ words: [], cjk: [], cjkSingles: [], cjkPieces: [] });
    expect(queryTerms('   ')).toEqual({ words: [], cjk: [], cjkSingles: [], cjkPieces: [] });
  });

  it('a 10,000-character query is analysed without blowing up', () => {
    const t = queryTerms('LoRa 通信 距離 '.repeat(1000));
    expect(t.words).toEqual(['lora']);
    expect(t.cjk).toEqual(['通信', '距離']);
  });
});

describe('splitAtScriptChange', () => {
  it('splits between hiragana and katakana, and before a kanji word after hiragana', () => {
    expect(splitAtScriptChange('新しくチーム')).toEqual(['新しく', 'チーム']);
    expect(splitAtScriptChange('はじめて採用面接')).toEqual(['はじめて', '採用面接']);
    expect(splitAtScriptChange('チームで')).toEqual(['チーム', 'で']);
  });
  it('keeps okurigana and one-kanji suffixes with their word', () => {
    expect(splitAtScriptChange('書いて')).toEqual(['書いて']);
    expect(splitAtScriptChange('選び方')).toEqual(['選び方']);
    expect(splitAtScriptChange('データ分類')).toEqual(['データ分類']);
  });
  it('reads the prolonged sound mark in the script of the sound it lengthens', () => {
    expect(splitAtScriptChange('はーい')).toEqual(['はーい']);
    expect(splitAtScriptChange('えーとサーバー')).toEqual(['えーと', 'サーバー']);
    expect(splitAtScriptChange('ユーザーが')).toEqual(['ユーザー', 'が']);
  });
});

describe('the prolonged sound mark ー is no term of its own', () => {
  // As a one-character term it is a bigram prefix that every section with a long katakana vowel matches.
  it('after hiragana it belongs to the hiragana word, dropped as such when a content word is left', () => {
    const t = queryTerms('えーと、サーバーの設定');
    expect(t.cjkSingles).toEqual([]);
    expect(t.cjkPieces).toEqual(['サーバー', '設定']);
  });
  it('alone after a cut it is dropped', () => {
    expect(queryTerms('ちょっと待ってー').cjkSingles).toEqual(['待']);
    expect(queryTerms('ー').cjkSingles).toEqual([]);
  });
  it('a hiragana-only prompt with ー is searched by its own bigrams, as any hiragana-only prompt', () => {
    const t = queryTerms('はーい');
    expect(t.cjkSingles).toEqual([]);
    expect(t.cjk).toEqual(['はー', 'ーい']);
  });
  it('trimInflection reads ー after hiragana as hiragana', () => {
    expect(trimInflection('すごーい')).toBe('すごーい');
    expect(trimInflection('サーバー')).toBe('サーバー');
  });
});

describe('trimInflection', () => {
  it('drops inflected tails and leading function kana', () => {
    expect(trimInflection('申請すれば')).toBe('申請');
    expect(trimInflection('入らなく')).toBe('入ら');
    expect(trimInflection('どう出せばよいか')).toBe('出せ');
    expect(trimInflection('新しい')).toBe('新し');
  });
  it('keeps words without an inflected tail, and a single honorific prefix', () => {
    expect(trimInflection('お金')).toBe('お金');
    expect(trimInflection('オフィスチェア')).toBe('オフィスチェア');
    expect(trimInflection('年間契約')).toBe('年間契約');
    expect(trimInflection('まとめ')).toBe('まとめ');
  });
});

describe('queryTerms cutter switches (ranking variants)', () => {
  it('each switch turns off one cut, and all on is the default', () => {
    const q = 'LoRaモジュールの選び方を教えてください';
    const on = { dropHiragana: true, trimTails: true, splitScripts: true, joinPairs: true };
    expect(queryTerms(q, on)).toEqual(queryTerms(q));
    // Without trimming, 申請すれば keeps its inflected tail.
    expect(queryTerms('申請すれば', { ...on, trimTails: false }).cjkPieces).toEqual(['申請すれば']);
    expect(queryTerms('申請すれば').cjkPieces).toEqual(['申請']);
    // Without the script split (and the trim, which would drop the leading kana), hiragana + katakana stay one piece.
    expect(queryTerms('あたらしいテスト', { ...on, splitScripts: false, trimTails: false }).cjkPieces).toEqual(['あたらしいテスト']);
    expect(queryTerms('あたらしいテスト', { ...on, trimTails: false }).cjkPieces).toEqual(['テスト']);
    // Keeping all-hiragana pieces: どう survives.
    expect(queryTerms('どう 設定', { ...on, dropHiragana: false }).cjkPieces).toContain('どう');
    expect(queryTerms('どう 設定').cjkPieces).not.toContain('どう');
  });
});

describe('joined words', () => {
  it('offers each pair of neighbouring Latin words written as one, never with a stopword or a lone digit pair', () => {
    expect(queryTerms('mind map plugin').joined).toEqual(['mindmap', 'mapplugin']);
    expect(queryTerms('mind map plugin').words).toEqual(['mind', 'map', 'plugin']);
    expect(queryTerms('the map of a mind').joined).toBeUndefined();
    expect(queryTerms('web-clipper').joined).toEqual(['webclipper']);
    expect(queryTerms('2024 10').joined).toBeUndefined();
    expect(queryTerms('mind map', { dropHiragana: true, trimTails: true, splitScripts: true, joinPairs: false }).joined).toBeUndefined();
  });
});
