// A chat reply with nothing to search: "ok, thanks!", "looks good, commit it", "ありがとうございます", "続けて".
// Searched, such a prompt injects whatever shares its one word: on vault-example "ありがとう" injected 5
// notes (its top hit a table cell あり, by the kana bigram), "try again" 4, "looks good, commit it" 5; on the
// handbook "ok thanks" injected SSH diagrams (a `200 OK` line). A relevance threshold cannot tell these
// from real prompts (docs/claude-code.md: whole prompts cover as little of a note as unrelated ones do), so
// it is a short list, and a prompt is skipped only when it holds nothing else: any other word — "continue
// the antenna test", "thanks, now check the LoRa range" — and it is searched as usual.
// ("thanks!" alone injected nothing already: thanks is a stop word, so the query had no word left.)
import { isLetterOrNumber } from '../text/unicode.js';

/** Space-separated phrases, lower case (NFKC); a prompt is any sequence of them. */
const ENGLISH = [
  'ok', 'okay', 'okey', 'kk', 'k', 'alright', 'all right', 'right', 'fine', 'cool', 'good', 'great', 'nice', 'perfect',
  'awesome', 'excellent', 'wonderful', 'amazing', 'great job', 'good job', 'nice work', 'well done',
  'thanks', 'thank you', 'thankyou', 'thx', 'ty', 'tysm', 'cheers', 'many thanks', 'thanks a lot', 'a lot',
  'so much', 'very much',
  'yes', 'yeah', 'yep', 'yup', 'no', 'nope', 'nah', 'sure', 'of course', 'got it', 'agreed', 'sounds good',
  'makes sense', 'lgtm', 'looks good', 'looks great', 'looks fine', 'looks right',
  'continue', 'go', 'go on', 'go ahead', 'keep going', 'carry on', 'proceed', 'next', 'done', 'try again', 'retry',
  'again', 'fix it', 'do it', 'commit it', 'commit', 'push it', 'ship it', 'merge it',
  // Fillers between them: "ok, now commit it", "yes please", "ok and then commit".
  'please', 'pls', 'plz', 'now', 'then', 'and', 'so',
].map((p) => p.split(' '));

/**
 * Japanese words and endings (NFKC); a run of Japanese is any concatenation of them ("はい、お願いします",
 * "OKです", "了解しました"). No single-kana entry, so that no content word is spelled out of them.
 */
const JAPANESE = [
  'はい', 'はーい', 'いいえ', 'うん', 'ええ', 'そうです', 'そうですね',
  'ありがとう', 'ありがと', 'ありがとうございます', 'ありがとうございました', 'どうも', 'サンキュー',
  'なるほど', 'よろしく', 'よろしくお願いします', 'お願いします', 'お願い', 'おねがいします', 'おねがい', 'どうぞ',
  '続けて', '続けてください', '続行', '続行して', '続行してください', '進めて', '進めてください',
  'もう一度', 'やり直して', '再試行', '直して', 'コミットして',
  '了解', '了解です', '了解しました', 'りょうかい', 'りょうかいです', '承知', '承知しました', 'わかりました', '分かりました', 'オーケー',
  'いいね', 'いいです', 'いいですね', 'いいよ', '大丈夫', '大丈夫です', '完璧', '完璧です', '最高', 'オッケー', 'おっけー',
  'です', 'ですね', 'ください', 'します', 'しました',
];
const JAPANESE_SET = new Set(JAPANESE);
const LONGEST_JAPANESE = Math.max(...JAPANESE.map((w) => w.length));

/** Past this many characters a prompt is no acknowledgement (and costs nothing more to reject). */
const MAX_CHARS = 120;

/** The prompt's words, NFKC and lower case: runs of letters and digits, cut where ASCII meets other scripts. */
export function replyWords(prompt: string): string[] {
  const words: string[] = [];
  let word = '';
  let ascii = false;
  for (const ch of prompt.normalize('NFKC').toLowerCase()) {
    const cp = ch.codePointAt(0) ?? 0;
    if (!isLetterOrNumber(cp)) {
      if (word) words.push(word);
      word = '';
      continue;
    }
    if (word && ascii !== cp < 0x80) {
      words.push(word);
      word = '';
    }
    ascii = cp < 0x80;
    word += ch;
  }
  if (word) words.push(word);
  return words;
}

/** True when a run of Japanese is a concatenation of JAPANESE entries. */
function japaneseReply(word: string): boolean {
  const ok = [true];
  for (let end = 1; end <= word.length; end++) {
    ok[end] = false;
    for (let start = Math.max(0, end - LONGEST_JAPANESE); start < end && !ok[end]; start++) {
      ok[end] = ok[start] && JAPANESE_SET.has(word.slice(start, end));
    }
  }
  return ok[word.length];
}

/**
 * True when the prompt, punctuation, emoji and spacing aside, is only acknowledgement and continuation
 * words (ENGLISH, JAPANESE). False for a prompt with no words at all.
 */
export function isAcknowledgement(prompt: string): boolean {
  if (prompt.length > MAX_CHARS) return false;
  const words = replyWords(prompt);
  if (words.length === 0) return false;
  // reached[i]: words[0..i) are a sequence of phrases.
  const reached = new Array<boolean>(words.length + 1).fill(false);
  reached[0] = true;
  for (let i = 0; i < words.length; i++) {
    if (!reached[i]) continue;
    if (words[i].charCodeAt(0) >= 0x80) {
      if (japaneseReply(words[i])) reached[i + 1] = true;
      continue;
    }
    for (const phrase of ENGLISH) {
      if (phrase.every((w, k) => words[i + k] === w)) reached[i + phrase.length] = true;
    }
  }
  return reached[words.length];
}
