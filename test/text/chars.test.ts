import { describe, expect, it } from 'vitest';
import { charLength, isJoining, isWordChar, QUERY_ECHO_CHARS, queryEcho, truncateText } from '../../src/text/chars.js';

describe('charLength', () => {
  it('counts code points', () => {
    expect(charLength('abc')).toBe(3);
    expect(charLength('日本語')).toBe(3);
    expect(charLength('😀😀')).toBe(2);
    expect(charLength('\ud800x')).toBe(2);
  });

  it('counts as `for…of` does, lone and paired surrogates anywhere included', () => {
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const units = ['a', '日', '\ud83d', '\ude00', '\udbff', '\udc00', ' ', '😀'];
    for (let t = 0; t < 2000; t++) {
      const s = Array.from({ length: Math.floor(next() * 12) }, () => units[Math.floor(next() * units.length)]).join('');
      expect(charLength(s)).toBe([...s].length);
    }
  });
});

describe('isWordChar / isJoining', () => {
  it('takes letters, numbers and marks of any script as word characters, but not CJK', () => {
    for (const ch of ['a', 'é', 'ж', '٣', '𝐚', '\u0301', '_', "'", '’', '-']) expect(isWordChar(ch)).toBe(true);
    for (const ch of ['日', 'ア', 'ー', '한', ' ', '.', '😀', 'ab', '', undefined]) expect(isWordChar(ch)).toBe(false);
  });

  it('takes marks and joiners as joining the character before', () => {
    for (const ch of ['\u0301', '\u3099', 'ﾞ', 'ﾟ', '\u200d', '\ufe0f']) expect(isJoining(ch)).toBe(true);
    for (const ch of ['a', 'ｶ', '\u0301\u0301', undefined]) expect(isJoining(ch)).toBe(false);
  });
});

describe('truncateText', () => {
  it('returns text that fits unchanged', () => {
    expect(truncateText('short text', 10)).toBe('short text');
  });

  it('cuts at a word boundary and ends with …', () => {
    expect(truncateText('the quick brown fox jumps', 14)).toBe('the quick…');
    expect(truncateText('the quick brown fox jumps', 16)).toBe('the quick brown…');
  });

  it('cuts CJK text at any character', () => {
    expect(truncateText('日本語のテキストです', 5)).toBe('日本語の…');
  });

  it('cuts inside a very long token rather than giving up', () => {
    const url = 'https://example.com/' + 'x'.repeat(100);
    const cut = truncateText(url, 50);
    expect(charLength(cut)).toBe(50);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair or leaves a combining mark without its base', () => {
    expect(truncateText('😀😀😀😀', 3)).toBe('😀😀…');
    const cut = truncateText('abc e\u0301e\u0301e\u0301 def', 7);
    expect(cut.normalize('NFC')).toMatch(/^(abc|abc éé?)…$/);
    expect(cut).not.toMatch(/e…$/);
  });

  it('never cuts an emoji sequence a reader sees as one character', () => {
    const family = '👨\u200d👩\u200d👧\u200d👦';
    for (let n = 6; n <= 12; n++) expect(truncateText(`あああああ${family}${family}`, n), `${n}`).toBe('あああああ…');
    expect(truncateText(`あああああ${family}${family}`, 13)).toBe(`あああああ${family}…`);
    // The two regional indicators of a flag.
    expect(truncateText('あいうえお🇯🇵🇯🇵', 7)).toBe('あいうえお…');
    expect(truncateText('あいうえお🇯🇵🇯🇵', 8)).toBe('あいうえお🇯🇵…');
    // A skin tone modifier stays with its emoji.
    expect(truncateText('あいうえお👍🏽👍🏽', 7)).toBe('あいうえお…');
  });

  it('handles tiny and zero limits', () => {
    expect(truncateText('hello world', 1)).toBe('…');
    expect(truncateText('hello world', 0)).toBe('');
    expect(truncateText('hello world', -5)).toBe('');
  });

  it('is never longer than the limit', () => {
    const text = 'Lorem ipsum dolor sit amet, 日本語 consectetur 😀 adipiscing elit';
    for (let n = 0; n < 70; n++) expect(charLength(truncateText(text, n))).toBeLessThanOrEqual(Math.max(0, n));
  });
});

describe('queryEcho', () => {
  it('keeps a short query, its whitespace runs as one space', () => {
    expect(QUERY_ECHO_CHARS).toBe(200);
    expect(queryEcho('LoRa antenna')).toBe('LoRa antenna');
    expect(queryEcho('  LoRa\n\n  antenna\t ')).toBe('LoRa antenna');
    expect(queryEcho('')).toBe('');
  });

  it('cuts a long one to 200 characters ending with …, at a word end where there is one', () => {
    const echo = queryEcho(`${'antenna '.repeat(5000)}end`);
    expect([...echo].length).toBeLessThanOrEqual(200);
    expect(echo).toMatch(/^antenna( antenna)*…$/);
    expect([...queryEcho('x'.repeat(1_000_000))]).toHaveLength(200);
    expect([...queryEcho('日本語'.repeat(1000))]).toHaveLength(200);
  });

  it('never splits a surrogate pair and counts an emoji as one character', () => {
    const echo = queryEcho('😀'.repeat(1000));
    expect([...echo]).toHaveLength(200);
    expect(echo.endsWith('😀…')).toBe(true);
  });

  it('shows the cut when what it read was mostly whitespace', () => {
    expect(queryEcho(`LoRa${' '.repeat(5000)}antenna`)).toBe('LoRa…');
    expect(queryEcho(`LoRa${' '.repeat(5000)}`)).toBe('LoRa');
  });
});
