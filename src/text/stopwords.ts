// Filler words that must not drive the ranking of a query (they stay searchable inside notes).

export const ENGLISH_STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by
  can could did do does doing done down during each either else ever every few for from further get gets got had has
  have having he her here hers him his how however i if in into is it its itself just know let like ll me might mine
  more most much must my myself need no nor not now of off on once only or other our ours out over own please re
  really same say see she should show so some something such tell than thank thanks that the their theirs them then
  there these they thing things this those through to too under until up us use used using very want was way we
  were what whatever when where whether which while who whom whose why will with would yes yet you your yours
  ve d s t m don doesn didn isn aren wasn weren won can't i'm i've let's`.split(/\s+/),
);

/**
 * Japanese function words, polite endings and request phrases. Longest first: the query analyser cuts
 * them out of CJK runs before bigramming, so that no bigram spans one.
 */
export const JAPANESE_FILLERS = [
  'していただけますか', 'してもらえますか', 'していただけると', 'してください', 'お願いします', 'おねがいします',
  'について', 'に関して', 'に関する', 'に対して', 'に対する', 'によって', 'における', 'としては', 'というのは',
  'ください', 'ほしい', 'たいです', 'ですか', 'でしょうか', 'でしょう', 'ですが', 'ですね', 'ますか', 'ません',
  'ました', 'ましょう', 'します', 'しました', 'している', 'していた', 'してる', 'された', 'される', 'させる',
  'なので', 'ですので', 'だから', 'けれど', 'けど', 'ところ', 'ため', 'ように', 'ような', 'よう',
  'こと', 'もの', 'これ', 'それ', 'あれ', 'どれ', 'この', 'その', 'あの', 'どの', 'ここ', 'そこ', 'どこ',
  'など', 'から', 'まで', 'より', 'ので', 'のに', 'には', 'では', 'とは', 'への', 'での', 'との', 'からの',
  'です', 'ます', 'でした', 'だった', 'である', 'いる', 'ある', 'する', 'した', 'して', 'なる', 'なった',
  'いい', 'ない', 'たい', 'って', 'てる', 'おく', 'みる', 'くれ', 'もらう', 'いただ',
  '教えて', '知りたい', '見せて', '調べて', '探して', 'まとめて', '整理したい', '確認したい',
].sort((a, b) => b.length - a.length);

/**
 * One-character particles: cut when they follow a non-hiragana character (after a noun), and when they
 * follow a particle just cut (には, での). か is left out: after a kanji it is usually a verb stem (分かる).
 */
export const JAPANESE_PARTICLES = new Set(['の', 'は', 'を', 'が', 'に', 'で', 'と', 'も', 'へ', 'や']);
