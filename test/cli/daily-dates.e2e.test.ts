// Daily notes as people name them, asked about as people ask: the day a note's name gives reaches the index,
// and a temporal query finds that note (the whole path: scan, parse, index, search).
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, tsm, useIndexedVault } from '../helpers/cli.js';

// Monday 2026-11-30, 09:00 in Tokyo.
const ENV = { TSM_NOW: '2026-11-30T09:00:00+09:00', TZ: 'Asia/Tokyo' };

const vault = useIndexedVault({
  'daily/2026-11-30.md': '# Monday\n\nsoldered the antenna connector\n',
  '20261129.md': '# Sunday\n\nwashed the dog\n',
  'Journal/2026/11/28.md': '# Saturday\n\nfixed the antenna mast\n',
  'journals/2026_11_27.md': '- shipped the collar firmware\n',
  'Roam/November 26th, 2026.md': '- called the vet\n',
  'notes/antenna.md': '---\ndate: 2026-10-01\n---\n# Antenna\n\nmast and cable notes\n',
});

const ids = (query: string, ...flags: string[]) => {
  const r = tsm(['search', query, '--vault', vault.dir, '-f', 'json', ...flags], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path);
};

beforeAll(() => assertBuilt());

describe('daily notes named by day', () => {
  it('are dated and typed daily by the names Obsidian, Logseq and Roam give them', () => {
    expect(ids('yesterday')).toEqual(['20261129.md']);
    expect(ids('おととい')).toEqual(['Journal/2026/11/28.md']);
    expect(ids('3 days ago')).toEqual(['journals/2026_11_27.md']);
    expect(ids('4日前')).toEqual(['Roam/November 26th, 2026.md']);
    const lastWeek = ['20261129.md', 'Journal/2026/11/28.md', 'journals/2026_11_27.md', 'Roam/November 26th, 2026.md'];
    expect(ids('先週')).toEqual(lastWeek);
    expect(ids('先週', '--type', 'daily')).toEqual(lastWeek);
  });
});

describe('weekdays and parts of a day, as typed to Claude Code', () => {
  it('name the day a user means', () => {
    expect(ids('last Friday')).toEqual(['journals/2026_11_27.md']);
    expect(ids('what did I do last Saturday')).toEqual(['Journal/2026/11/28.md']);
    expect(ids('先週の木曜')).toEqual(['Roam/November 26th, 2026.md']);
    expect(ids('この前の金曜に出荷したもの')).toEqual(['journals/2026_11_27.md']);
    expect(ids('what did I do this morning')).toEqual(['daily/2026-11-30.md']);
    expect(ids('last night')).toEqual(['20261129.md']);
    // The day's notes first, then the rest of the vault that matches.
    const antenna = ids('antenna last Saturday');
    expect(antenna[0]).toBe('Journal/2026/11/28.md');
    expect(antenna.slice(1).sort()).toEqual(['daily/2026-11-30.md', 'notes/antenna.md']);
  });
});
