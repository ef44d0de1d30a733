// Notes dated by their files' modification time take the day in the time zone of the `tsm index` that read
// them. A sync reads only what changed, so runs in two zones left days of both: two notes saved a minute
// apart were dated 2026-11-21 (read in Tokyo) and 2026-11-20 (edited, then read in Los Angeles), and
// `--after 2026-11-21` found one of them in any zone. Now each sync dates them all in its zone
// (src/index/mtime-zone.ts).
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';

// 16:30 UTC: 01:30 the next day in Tokyo (UTC+9), 08:30 the same day in Los Angeles (UTC-8 in November).
const NEAR_MIDNIGHT = new Date('2026-11-20T16:30:00Z');

const vault = useIndexedVault({ 'n1.md': '# One\n\nwalrus one\n', 'n2.md': '# Two\n\nwalrus two\n' });

function datesIn(zone: string, extra: string[] = []): Record<string, string> {
  const r = tsm(['search', 'walrus', '--vault', vault.dir, '-f', 'json', ...extra], { env: { TZ: zone } });
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries((JSON.parse(r.stdout) as { path: string; date: string }[]).map((h) => [h.path, h.date]));
}

describe('notes dated by modification time, indexed in two time zones', { timeout: 60_000 }, () => {
  it('all take the day in the zone of the last sync', () => {
    for (const n of ['n1.md', 'n2.md']) utimesSync(join(vault.dir, n), NEAR_MIDNIGHT, NEAR_MIDNIGHT);
    expect(tsm(['index', '--full', '--vault', vault.dir], { env: { TZ: 'Asia/Tokyo' } }).code).toBe(0);
    expect(datesIn('Asia/Tokyo')).toEqual({ 'n1.md': '2026-11-21', 'n2.md': '2026-11-21' });

    writeFileSync(join(vault.dir, 'n2.md'), '# Two\n\nwalrus two, edited\n');
    const later = new Date(NEAR_MIDNIGHT.getTime() + 60_000);
    utimesSync(join(vault.dir, 'n2.md'), later, later);
    const la = tsm(['index', '--vault', vault.dir], { env: { TZ: 'America/Los_Angeles' } });
    expect(la.code, la.stderr).toBe(0);
    // It was n1.md 2026-11-21 (Tokyo's day, the note not read again) beside n2.md 2026-11-20.
    expect(datesIn('America/Los_Angeles')).toEqual({ 'n1.md': '2026-11-20', 'n2.md': '2026-11-20' });
    expect(datesIn('Asia/Tokyo', ['--after', '2026-11-21'])).toEqual({});

    // Back in Tokyo, a sync that reads nothing dates them in Tokyo again.
    const tokyo = tsm(['index', '--vault', vault.dir], { env: { TZ: 'Asia/Tokyo' } });
    expect(tokyo.stdout).toMatch(/^0 added, 0 updated, 0 removed, 2 unchanged/);
    expect(datesIn('Asia/Tokyo')).toEqual({ 'n1.md': '2026-11-21', 'n2.md': '2026-11-21' });
  });
});
