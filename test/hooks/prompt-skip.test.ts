// The prompt hook's skip rules, as pure functions of the prompt's text.
import { describe, expect, it } from 'vitest';
import { isAcknowledgement, replyWords } from '../../src/hooks/acknowledgement.js';
import { isOnlyCode, promptSkipReason } from '../../src/hooks/prompt-skip.js';

describe('acknowledgements', () => {
  // The reported prompts: each injected 1–5 unrelated notes on vault-example or the handbook (はい alone is
  // shorter than 3 characters).
  it.each([
    'ok, thanks!', 'ok thanks', 'continue', 'go ahead', 'done?', 'fix it', 'try again', 'looks good, commit it',
    'ありがとう', 'なるほど', 'よろしく', '続けて', 'お願いします', 'はい。', 'OK です',
  ])('skips %j', (text) => {
    expect(promptSkipReason(text)).toBe('an acknowledgement');
  });

  it.each([
    'Thanks!', 'thank you so much 🙏', 'LGTM 👍', 'Yes, please.', 'OK, go on', 'ok and then commit', 'Perfect — ship it!',
    'ｏｋ、ｔｈａｎｋｓ', 'ありがとうございます！！', 'はい、お願いします。', 'よろしくお願いします', '了解しました', 'OKです',
    '承知しました', 'いいね！', '完璧です', '続行', '進めてください', 'オッケー', 'うん、続けて', 'はーい', 'りょうかいです！',
  ])('skips %j (case, width, punctuation and emoji aside)', (text) => {
    expect(isAcknowledgement(text)).toBe(true);
  });

  it.each([
    'continue the antenna test',
    'thanks, now check the LoRa range',
    'ok, what about the battery?',
    'fix it in geo.c',
    'try again with SF12',
    'no, use the whip antenna',
    'ありがとう、アンテナの利得は？',
    '続けてアンテナのテスト',
    'はいでんの図', // a word spelled with kana that starts like はい
    'done with the enclosure, next is the antenna',
    'nook', // made of two listed words, not a sequence of them
    'ok ' + 'thanks '.repeat(40), // past the length an acknowledgement has
  ])('searches %j: it holds another word', (text) => {
    expect(isAcknowledgement(text)).toBe(false);
  });

  it('reads words after NFKC and case folding, cut where ASCII meets another script', () => {
    expect(replyWords('ＯＫです！ Thanks…')).toEqual(['ok', 'です', 'thanks']);
    expect(replyWords('👍🎉!!')).toEqual([]);
  });

  it('is not an acknowledgement without any word', () => {
    expect(isAcknowledgement('👍👍👍')).toBe(false);
  });
});

describe('code only', () => {
  it.each([
    '```c\nint main(){return 0;}\n```',
    '```\nTraceback (most recent call last):\n  File "x.py"\n```\n',
    '~~~~ts\nconst a = 1;\n~~~~',
    '```js\nlet a;\n```\n\n```js\nlet b;\n```',
    '```\n```',
  ])('skips %j', (text) => {
    expect(promptSkipReason(text)).toBe('only a fenced code block');
  });

  it.each([
    '```c\nint main(){return 0;}\n```\nwhy does this crash on the collar?',
    'why does this crash?\n```c\nint main(){return 0;}\n```',
    '``` is the fence syntax, how do I nest one?', // never closed
    '```c\nint main(){\n', // never closed
    '```a``` inline code, then the LoRa question',
    '```js\nlet a;\n~~~', // a tilde line does not close a backtick fence
  ])('searches %j', (text) => {
    expect(isOnlyCode(text.trim())).toBe(false);
    expect(promptSkipReason(text)).toBeNull();
  });
});

describe('shell and memory prefixes', () => {
  it('skips a one-line !command', () => {
    expect(promptSkipReason('!git status')).toBe('a shell command (! as in bash mode)');
    expect(promptSkipReason('  ! ls -la')).toBe('a shell command (! as in bash mode)');
  });

  it.each([
    '!!! the LoRa range is wrong again',
    '!git status\nwhy is the antenna file modified?',
    '#123 fails on the collar board',
    // A `#` line reaches the hook only where it is an ordinary prompt (no memory shortcut since 2.0.76).
    '# of retries for the LoRa join',
    '# always use pnpm',
    '# Antenna test plan\n\nWhat did we measure last week?',
  ])('searches %j', (text) => {
    expect(promptSkipReason(text)).toBeNull();
  });
});

describe('the older rules', () => {
  it('still skips short prompts, slash commands and markup', () => {
    expect(promptSkipReason(' a ')).toBe('shorter than 3 characters');
    expect(promptSkipReason('/compact keep it')).toBe('a slash command');
    expect(promptSkipReason('<bash-input>ls</bash-input>')).toBe('starts with <');
    expect(promptSkipReason('LoRa モジュールの選定基準を教えて')).toBeNull();
  });
});
