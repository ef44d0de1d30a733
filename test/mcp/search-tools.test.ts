import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fails, ok } from './client.js';
import { serveTestVault, type Served } from './setup.js';

let s: Served;
beforeAll(async () => {
  s = await serveTestVault();
});
afterAll(async () => s.close());

describe('search', () => {
  it('returns ranked index entries with short previews and nothing else', async () => {
    const r = await ok(s.client, 'search', { query: 'quarter-wave whip antenna' });
    expect(r.query).toBe('quarter-wave whip antenna');
    expect(r.total).toBeGreaterThanOrEqual(2);
    expect(r.offset).toBe(0);
    expect(r.results.length).toBe(r.total);
    const paths = r.results.map((x: any) => x.path);
    expect(paths).toContain('knowledge/lora.md');
    expect(paths).toContain('daily/2026-11-19.md');
    for (const hit of r.results) {
      expect(Object.keys(hit).sort()).toEqual(['date', 'id', 'path', 'preview', 'score', 'section', 'status', 'type']);
      expect(Number.isInteger(hit.id)).toBe(true);
      expect(Array.from(hit.preview as string).length).toBeLessThanOrEqual(120);
      expect(hit.preview).not.toMatch(/\n/);
      expect(hit.score).toBeGreaterThan(0);
    }
    const lora = r.results.find((x: any) => x.path === 'knowledge/lora.md');
    expect(lora.section).toBe('LoRa module guide > Antenna');
    expect(lora.preview).toMatch(/quarter-wave whip antenna/);
  });

  it('puts the notes of a date range read from the query first, and says so when other dates follow', async () => {
    // Yesterday (2026-11-20) has one note on the distance display; the session that fixed it follows.
    const r = await ok(s.client, 'search', { query: 'distance display yesterday' });
    expect(r.results[0].path).toBe('daily/2026-11-20.md');
    expect(r.results.length).toBeGreaterThan(1);
    expect(r.results.slice(1).every((x: any) => x.date !== '2026-11-20')).toBe(true);
    expect(r.dates_first).toEqual({ after: '2026-11-20', before: '2026-11-21', notes: 1 });
    // A date parameter is a filter: nothing else follows.
    const only = await ok(s.client, 'search', { query: 'distance display', after: '2026-11-20', before: '2026-11-21' });
    expect(only.results.map((x: any) => x.path)).toEqual(['daily/2026-11-20.md']);
    expect(only.dates_first).toBeUndefined();
  });

  it('keeps previews within 120 characters for long sections', async () => {
    const r = await ok(s.client, 'search', { query: 'distance display haversine', limit: 20 });
    expect(r.results.length).toBeGreaterThan(0);
    for (const hit of r.results) expect(Array.from(hit.preview as string).length).toBeLessThanOrEqual(120);
  });

  it('applies type, status, path and date filters', async () => {
    const daily = await ok(s.client, 'search', { query: 'antenna whip range', type: 'daily' });
    expect(daily.results.length).toBeGreaterThan(0);
    expect(daily.results.every((x: any) => x.type === 'daily')).toBe(true);

    const archived = await ok(s.client, 'search', { query: 'antenna', status: 'archived' });
    expect(archived.results.map((x: any) => x.path)).toEqual(['knowledge/old.md']);

    const inDaily = await ok(s.client, 'search', { query: 'antenna whip', path: 'daily/' });
    expect(inDaily.results.length).toBeGreaterThan(0);
    expect(inDaily.results.every((x: any) => x.path.startsWith('daily/'))).toBe(true);

    const before = await ok(s.client, 'search', { query: 'antenna', before: '2026' });
    expect(before.results.map((x: any) => x.path)).toEqual(['knowledge/old.md']);
    const after = await ok(s.client, 'search', { query: 'whip antenna', after: '2026-09' });
    expect(after.results.map((x: any) => x.path).sort()).toEqual(['daily/2026-11-19.md', 'knowledge/lora.md']);
  });

  it('clamps limit and offset instead of failing', async () => {
    const huge = await ok(s.client, 'search', { query: 'antenna', limit: 1e9 });
    expect(huge.results.length).toBe(huge.total);
    const zero = await ok(s.client, 'search', { query: 'antenna', limit: 0 });
    expect(zero.results).toHaveLength(1);
    const negative = await ok(s.client, 'search', { query: 'antenna', limit: -5, offset: -3 });
    expect(negative.results).toHaveLength(1);
    expect(negative.offset).toBe(0);
    const page2 = await ok(s.client, 'search', { query: 'antenna', limit: 1, offset: 1 });
    expect(page2.offset).toBe(1);
    expect(page2.results[0].id).toBe(huge.results[1].id);
    const far = await ok(s.client, 'search', { query: 'antenna', offset: 1e12 });
    expect(far.results).toEqual([]);
  });

  it('gives an empty list, not an error, when nothing matches', async () => {
    const r = await ok(s.client, 'search', { query: 'zzyzxqqq' });
    expect(r.results).toEqual([]);
    expect(r.total).toBe(0);
  });

  it('treats query syntax characters as text', async () => {
    for (const query of ['"unbalanced', 'NEAR(antenna', '-antenna*', 'type:knowledge AND (', "it's ^^ {}"]) {
      const r = await call(s.client, 'search', { query });
      expect(r.isError, `${query}: ${r.text}`).toBe(false);
    }
  });

  it('rejects an empty query, bad dates and a path prefix outside the vault, with clear messages', async () => {
    expect(await fails(s.client, 'search', { query: '   ' })).toBe('query must not be empty');
    const date = await fails(s.client, 'search', { query: 'antenna', after: 'garbage' });
    expect(date).toMatch(/^after takes YYYY, YYYY-MM or YYYY-MM-DD/);
    expect(await fails(s.client, 'search', { query: 'antenna', before: '2026-13' })).toMatch(/^before takes/);
    // Only what the tool takes is named: MCP search has no year or recent.
    expect(await fails(s.client, 'search', { query: 'antenna', after: '2027', before: '2026' })).toBe(
      'the date flags leave no day: from 2027-01-01 to before 2026-01-01 (check after and before)',
    );
    expect(await fails(s.client, 'search', { query: 'antenna', path: '../' })).toMatch(/outside the vault/);
    expect(await fails(s.client, 'search', { query: 'antenna', path: '/etc' })).toMatch(/outside the vault/);
  });

  it('accepts an absolute path prefix inside the vault', async () => {
    const r = await ok(s.client, 'search', { query: 'antenna', path: `${s.fx.vault}/knowledge/` });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((x: any) => x.path.startsWith('knowledge/'))).toBe(true);
  });
});

describe('get_sections', () => {
  it('returns full sections with note metadata in the order asked, omitting missing ids and naming them beside', async () => {
    const antenna = await s.sectionId('knowledge/lora.md', 'Antenna');
    const range = await s.sectionId('daily/2026-11-19.md', 'Range test');
    const answer = await call(s.client, 'get_sections', { ids: [range, 999_999, antenna, range] });
    const r = answer.json;
    expect(r.map((x: any) => x.id)).toEqual([range, antenna]);
    expect(answer.notice).toEqual({
      not_found: [999_999],
      note: '1 of the 3 ids is not in the index: their notes were re-indexed since (edited, removed, or rebuilt by `tsm index --full`), or the ids never existed; search again for their current ids',
    });
    expect((await call(s.client, 'get_sections', { ids: [antenna] })).notice).toBeUndefined();
    expect(r[1]).toEqual({
      id: antenna,
      path: 'knowledge/lora.md',
      title: 'LoRa module guide',
      type: 'knowledge',
      status: null,
      date: '2026-09-01',
      tags: [],
      section: 'LoRa module guide > Antenna',
      line: 9,
      end_line: 11,
      text: 'A quarter-wave whip antenna gives the best range. See [[vhf]].',
    });
  });

  it('gives an empty array when no id exists, and says they are gone', async () => {
    const r = await call(s.client, 'get_sections', { ids: [999_998, -1, 0] });
    expect(r.json).toEqual([]);
    expect(r.notice.not_found).toEqual([999_998, -1, 0]);
    expect(r.notice.note).toMatch(/^these ids are not in the index: .*; search again for their current ids$/);
    expect((await call(s.client, 'get_sections', { ids: [999_998] })).notice.note).toMatch(/^this id is not in the index/);
  });

  it('accepts 50 ids and refuses none, 51, or ids that are not integers', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => i + 1);
    const r = await call(s.client, 'get_sections', { ids: fifty });
    expect(r.isError).toBe(false);
    expect(await fails(s.client, 'get_sections', { ids: [] })).toBe('ids array must not be empty');
    expect(await fails(s.client, 'get_sections', { ids: [...fifty, 51] })).toMatch(/at most 50 ids per call \(got 51\)/);
    expect(await fails(s.client, 'get_sections', { ids: ['12'] })).toMatch(/ids/);
    expect(await fails(s.client, 'get_sections', { ids: [1.5] })).toMatch(/ids/);
    expect(await fails(s.client, 'get_sections', {})).toMatch(/ids/);
  });
});

describe('retrieve_memory', () => {
  it("returns the markdown result, details by detail level", async () => {
    const auto = await ok(s.client, 'retrieve_memory', { query: 'quarter-wave whip antenna' });
    expect(typeof auto).toBe('string');
    expect(auto).toMatch(/^## Result 1 \[rank: 1, score: 1\.00(, key moment)?\]\n\*\*When:\*\* .+\n\*\*Summary:\*\* /);
    expect(auto).toContain('## Result 2 [rank: 2, score: ');

    const high = await ok(s.client, 'retrieve_memory', { query: 'quarter-wave whip antenna', detail: 'high' });
    expect(high.match(/\*\*Details:\*\*/g)?.length).toBe(high.match(/^## Result /gm)?.length);
    const none = await ok(s.client, 'retrieve_memory', { query: 'quarter-wave whip antenna', detail: 'none' });
    expect(none).not.toContain('**Details:**');
  });

  it('clamps limit and reports no results as text', async () => {
    const one = await ok(s.client, 'retrieve_memory', { query: 'antenna', limit: 0 });
    expect(one.match(/^## Result /gm)).toHaveLength(1);
    const many = await ok(s.client, 'retrieve_memory', { query: 'antenna', limit: 10_000 });
    expect(many.match(/^## Result /gm)?.length).toBeGreaterThan(1);
    expect(await ok(s.client, 'retrieve_memory', { query: 'zzyzxqqq' })).toBe('No results found for "zzyzxqqq".');
    // A query of filters alone says why, as search's note does (it said only "No results found").
    expect(await ok(s.client, 'retrieve_memory', { query: 'tag:zzyzxqqq' })).toBe(
      'No results found for "tag:zzyzxqqq". The query has nothing to rank by (filters and exclusions only): add a word to search for.',
    );
  });

  it('does not call the last memory a key moment for being last (no candidate follows it to have a margin over)', async () => {
    const all = await ok(s.client, 'retrieve_memory', { query: 'antenna', limit: 20, detail: 'none' });
    const headings: string[] = all.match(/^## Result .*$/gm);
    expect(headings.length).toBeLessThan(20); // every match: the last has no next candidate
    expect(headings.at(-1)).not.toContain('key moment');
    // A page's last is flagged by its margin over the next candidate, as in the longer page.
    const page = await ok(s.client, 'retrieve_memory', { query: 'antenna', limit: 2, detail: 'none' });
    expect(page.match(/^## Result .*$/gm)).toEqual(headings.slice(0, 2));
  });

  it('rejects an empty query and an unknown detail level', async () => {
    expect(await fails(s.client, 'retrieve_memory', { query: '' })).toBe('query must not be empty');
    expect(await fails(s.client, 'retrieve_memory', { query: 'antenna', detail: 'everything' })).toMatch(/detail/);
  });
});
