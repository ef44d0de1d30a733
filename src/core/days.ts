// Days as the user lives them: a moment's day is its date in the local time zone (the day Obsidian's daily
// note and `git log` show), and days are counted on the calendar, never as 24-hour spans of the clock (a
// day of a clock change lasts 23 or 25 hours: a note two days old counted 1.958 days old in Berlin on the
// Monday after the clocks went forward). Notes store their day as YYYY-MM-DD.

const DAY_MS = 86_400_000;
const YMD = /^(\d{4})-(\d{2})-(\d{2})/;

/** YYYY-MM-DD of a moment (a Date, or ms since the epoch) in the local time zone. */
export function localDay(t: Date | number): string {
  const d = typeof t === 'number' ? new Date(t) : t;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * A moment as a person reads it: the local date and time with the zone's offset, to the second
 * (`2026-11-23T05:30:05+09:00`, as `date -Iseconds` prints it). One word, and ISO 8601: Date.parse reads it back
 * as the same moment. For text output and logs; JSON keeps the exact UTC value (`toISOString`).
 */
export function localTime(t: Date | number): string {
  const d = typeof t === 'number' ? new Date(t) : t;
  const pad = (n: number) => String(n).padStart(2, '0');
  // getTimezoneOffset is minutes behind UTC (-540 in Tokyo, 210 in St. John's).
  const east = -d.getTimezoneOffset();
  const offset = `${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 60))}:${pad(Math.abs(east) % 60)}`;
  return `${localDay(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${offset}`;
}

/** The calendar day a YYYY-MM-DD names, counted from 1970-01-01 (a clock change moves no day); NaN if none. */
export function dayNumber(day: string): number {
  const m = YMD.exec(day);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS : Number.NaN;
}

/** The last `now` daysAgo was asked about (its time and zone offset) and its day number. */
let lastNow = { time: Number.NaN, offset: Number.NaN, day: Number.NaN };

/**
 * Whole calendar days from the day `day` (YYYY-MM-DD) to the local day of `now`: 1 for yesterday; NaN for no day.
 * A search asks it for every note it ranks with one `now`: that day is worked out once, not per note.
 */
export function daysAgo(day: string, now: Date): number {
  const time = now.getTime();
  const offset = now.getTimezoneOffset();
  if (time !== lastNow.time || offset !== lastNow.offset) lastNow = { time, offset, day: dayNumber(localDay(now)) };
  return lastNow.day - dayNumber(day);
}
