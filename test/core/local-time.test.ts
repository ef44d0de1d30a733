// Times a person reads (tsm status's last sync, hook.log) are in their own zone, with its offset, as `git log`
// and `ls -l` show them; JSON keeps the exact UTC value. Vitest runs each test file in its own child process
// (pool: forks): the zones set here are its own.
import { afterAll, describe, expect, it } from 'vitest';
import { localTime } from '../../src/core/days.js';
import { formatLogLine } from '../../src/hooks/hook-log.js';

const zoneBefore = process.env.TZ;
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

describe('localTime', () => {
  it('is the local date and time with the zone offset, and names the same moment', () => {
    process.env.TZ = 'Asia/Tokyo';
    const at = new Date('2026-11-22T20:30:05.250Z');
    expect(localTime(at)).toBe('2026-11-23T05:30:05+09:00');
    expect(Date.parse(localTime(at))).toBe(Date.parse('2026-11-22T20:30:05Z'));
    process.env.TZ = 'America/St_Johns'; // a half-hour zone, west of Greenwich
    expect(localTime(at.getTime())).toBe('2026-11-22T17:00:05-03:30');
    process.env.TZ = 'UTC';
    expect(localTime(at)).toBe('2026-11-22T20:30:05+00:00');
  });

  it('follows a clock change: Berlin in winter and in summer', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(localTime(new Date('2026-03-29T00:59:59Z'))).toBe('2026-03-29T01:59:59+01:00');
    expect(localTime(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29T03:00:00+02:00');
  });
});

describe('hook.log lines', () => {
  it('start with the local time, one word that tsm doctor still reads as the moment', () => {
    process.env.TZ = 'Asia/Tokyo';
    const line = formatLogLine('Stop', null, 'x', new Date('2026-11-22T20:30:05Z'));
    expect(line).toBe('2026-11-23T05:30:05+09:00 Stop: x\n');
    expect(Date.parse(line.slice(0, line.indexOf(' ')))).toBe(Date.parse('2026-11-22T20:30:05Z'));
  });
});
