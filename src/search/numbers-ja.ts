// Numbers as Japanese writes them in a query's dates: digits, or kanji (三日前, 過去二週間, 七月十八日,
// 十二月二十五日, 二〇二六年). One rule for the counts of temporal.ts and the months, days and years of
// day-expressions.ts: a day in kanji was words where the same day in digits was read.

const KANJI_DIGITS = '一二三四五六七八九';

/** Not inside a longer number, nor after 何 or 数 (数十年前 is no ten years; 二十一日 holds no 一日). */
const NOT_IN_NUMBER = `(?<![\\d〇${KANJI_DIGITS}十百千万何数])`;

/** A number up to 99 in kanji: 十 and its multiples (十二, 二十五, 三十一) or one digit (七). */
const KANJI_NUMBER = `[${KANJI_DIGITS}]?十[${KANJI_DIGITS}]?|[${KANJI_DIGITS}]`;

/** A count (1–3 digits, or kanji up to 99), captured: 3日前, 三日前, 十二年前. */
export const COUNT_JA = `${NOT_IN_NUMBER}(\\d{1,3}|${KANJI_NUMBER})`;

/** A month's number (1–12), captured: 7月, 07月, 12月, 七月, 十二月. Not 13月 or 十三月 (no month), nor a part of either. */
export const MONTH_JA = `${NOT_IN_NUMBER}(1[0-2]|0?[1-9]|十[一二]?|[${KANJI_DIGITS}])`;

/** A day's number (1–2 digits, or kanji up to 99; a day past its month's is no date), captured: 18日, 十八日. */
export const DAY_JA = `(\\d{1,2}|${KANJI_NUMBER})`;

/** A year, four digits or four kanji digits as a date writes them (二〇二六年), captured. */
export const YEAR_JA = `(?<![\\d〇${KANJI_DIGITS}])(\\d{4}|[〇${KANJI_DIGITS}]{4})`;

/** Any numeral the expressions above take (a class): a text without one holds none of them. */
export const NUMERAL = `[\\d〇${KANJI_DIGITS}十]`;
export const ANY_NUMERAL = new RegExp(NUMERAL);

/** The value of a number the expressions above captured: `18`, `十八`, `七`, `二〇二六` (digit by digit). */
export function numberJa(written: string): number {
  if (/^\d+$/.test(written)) return Number(written);
  const digit = (k: string) => (k === '〇' ? 0 : KANJI_DIGITS.indexOf(k) + 1);
  if (!written.includes('十')) return [...written].reduce((n, k) => n * 10 + digit(k), 0);
  const [tens, ones] = written.split('十');
  return (tens ? digit(tens) : 1) * 10 + (ones ? digit(ones) : 0);
}
