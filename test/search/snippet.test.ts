import { describe, expect, it } from 'vitest';
import { bestSnippet } from '../../src/search/snippet.js';
import { charLength } from '../../src/text/chars.js';

const FILLER = 'Nothing to see in this sentence at all. ';
const EN =
  FILLER.repeat(5) +
  'The **LoRa** module uses [spread spectrum](https://x.y/z) modulation. Battery life is excellent for trackers. ' +
  FILLER.repeat(5);

const JA =
  '関係のない前置きの文章がここに続きます。'.repeat(4) +
  'LoRa通信モジュールの選定基準と各製品の比較をまとめた。バッテリー寿命は重要な要素である。' +
  '最後に関係のない文章をもう少し書いておきます。'.repeat(4);

describe('bestSnippet', () => {
  it('returns short text whole, simplified and collapsed', () => {
    expect(bestSnippet('A  **short**\n[note](x.md).', ['short'], 300)).toBe('A short note.');
  });

  it('finds the passage covering the most distinct terms in English', () => {
    const s = bestSnippet(EN, ['lora', 'battery', 'trackers'], 120);
    expect(s.startsWith('…The LoRa module uses spread spectrum modulation. Battery life is excellent for trackers.')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(charLength(s)).toBeLessThanOrEqual(120);
  });

  it('matches Latin terms at word starts (stems) but not inside words', () => {
    const text = FILLER.repeat(4) + 'concatenate here. ' + FILLER.repeat(2) + 'Cats are running around. ' + FILLER.repeat(4);
    const s = bestSnippet(text, ['cat', 'run'], 60);
    expect(s).toContain('Cats are running');
    expect(s).not.toContain('concatenate');
  });

  it('finds the passage in Japanese from CJK bigrams', () => {
    const terms = ['バッ', 'ッテ', 'テリ', 'リー', '寿命'];
    const s = bestSnippet(JA, terms, 40);
    expect(s).toContain('バッテリー寿命');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(charLength(s)).toBeLessThanOrEqual(40);
  });

  it('opens and closes a window inside Japanese text just after a clause end near the cut, not inside a word', () => {
    const day = '今日は朝から天気が良かったので、近所の公園まで散歩に出かけた。';
    const middle = bestSnippet(day.repeat(8) + 'LoRaモジュールの消費電力を測定した。' + day.repeat(8), ['消費', '電力'], 57);
    expect(middle).toBe('…LoRaモジュールの消費電力を測定した。今日は朝から天気が良かったので、近所の公園まで散歩に出かけた。…'); // not 。今日は朝…
    const tail = bestSnippet(day.repeat(8) + '吉野家で昼食を食べた。', ['昼食'], 46);
    expect(tail).toBe('…今日は朝から天気が良かったので、近所の公園まで散歩に出かけた。吉野家で昼食を食べた。'); // not …かけた。今日は
    // No clause end within reach: the cut stays where it was.
    const run = 'あ'.repeat(200) + '消費電力' + 'い'.repeat(200);
    expect(charLength(bestSnippet(run, ['消費', '電力'], 60))).toBe(60);
  });

  it('prefers the window with more distinct terms over repeated ones', () => {
    const text = 'alpha alpha alpha alpha. ' + FILLER.repeat(6) + 'alpha meets beta here. ' + FILLER.repeat(6);
    expect(bestSnippet(text, ['alpha', 'beta'], 50)).toContain('alpha meets beta');
  });

  it('handles mixed English and Japanese, and matches after NFKC (full-width, half-width kana)', () => {
    const text = FILLER.repeat(6) + 'ﾓｼﾞｭｰﾙ の ＬｏＲａ 設定 (full-width) ' + FILLER.repeat(6);
    const s = bestSnippet(text, ['lora', 'モジ', 'ジュ'], 60);
    expect(s).toContain('ﾓｼﾞｭｰﾙ の ＬｏＲａ 設定');
  });

  it('normalises the terms it is given too', () => {
    const text = FILLER.repeat(6) + 'The café opens. ' + FILLER.repeat(6);
    expect(bestSnippet(text, ['CAFÉ'], 40)).toContain('café');
    expect(bestSnippet(text.normalize('NFD'), ['café'], 40).normalize('NFC')).toContain('café');
  });

  it('without terms or matches returns the start of the text', () => {
    expect(bestSnippet(EN, [], 45)).toBe('Nothing to see in this sentence at all.…');
    expect(bestSnippet(EN, ['zzz', ''], 45)).toBe('Nothing to see in this sentence at all.…');
  });

  it('ends at the text end without a trailing …', () => {
    const text = FILLER.repeat(6) + 'final words about zebras';
    const s = bestSnippet(text, ['zebras'], 50);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('zebras')).toBe(true);
    expect(charLength(s)).toBeLessThanOrEqual(50);
  });

  it('never exceeds maxChars and never splits a surrogate pair', () => {
    const text = ('emoji 😀 text 日本語 ' + FILLER).repeat(20) + 'target 😀😀😀 zone';
    for (let n = 1; n < 120; n += 7) {
      for (const terms of [[], ['target'], ['日本', 'zone']]) {
        const s = bestSnippet(text, terms, n);
        expect(charLength(s)).toBeLessThanOrEqual(n);
        expect(s).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }
    }
  });

  it('opens and closes the window outside an emoji sequence (a family, a flag)', () => {
    const family = '👨\u200d👩\u200d👧\u200d👦';
    const text = '前置き'.repeat(50) + `🎉${family}🇯🇵テスト` + '後書き'.repeat(50);
    for (let n = 10; n < 40; n++) {
      const s = bestSnippet(text, ['テス'], n);
      // Never a sequence's tail: no joiner or a lone regional indicator after the opening `…`.
      expect(s, `${n}: ${s}`).not.toMatch(/^…(\u200d|👩|👧|👦|🇵)/u);
      expect(s, `${n}: ${s}`).not.toMatch(/\u200d…$/u);
    }
    expect(bestSnippet(text, ['テス'], 20)).toBe('…🇯🇵テスト後書き後書き後書き後書き後…');
  });

  it('returns an empty string for a zero or invalid limit', () => {
    expect(bestSnippet(EN, ['lora'], 0)).toBe('');
    expect(bestSnippet(EN, ['lora'], Number.NaN)).toBe('');
    expect(bestSnippet('', ['lora'], 100)).toBe('');
  });

  it('copes with a term longer than the window', () => {
    const long = 'x'.repeat(80);
    const s = bestSnippet(FILLER.repeat(3) + long + FILLER, [long], 30);
    expect(charLength(s)).toBeLessThanOrEqual(30);
    expect(s).toContain('xxxx');
  });
});
