import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RESULT_CHAR_BUDGET } from '../../src/mcp/tool.js';
import { noteOfSection, sectionId } from '../../src/index/section-ids.js';
import { ok } from './client.js';
import { buildFixture, type Fixture } from './fixture.js';
import { connect } from './setup.js';

// Big notes: every result must stay small enough for a client to accept it.
const para = (i: number) => `Paragraph ${i} about antennas. ${'地図と距離の計算について書いたメモ。'.repeat(80)}`;
const bigBody = ['# Big', '', ...Array.from({ length: 30 }, (_, i) => [`## Part ${i + 1}`, '', para(i), '']).flat()].join('\n');
const sessionBody = [
  '# proj: long session',
  '',
  ...Array.from({ length: 120 }, (_, i) => [
    `## ${i + 1}. Step ${i + 1}`,
    '',
    `Please do step ${i + 1}. ${'詳しい説明。'.repeat(60)}`,
    '',
    '### Actions',
    '',
    ...Array.from({ length: 10 }, (_, k) => `- Read \`src/file-${i}-${k}.ts\``),
    '',
    '### Answer',
    '',
    `Done with step ${i + 1}.`,
    '',
  ]).flat(),
].join('\n');

// A map of content linking to 3,000 notes, and 600 notes linking back to it (the Obsidian Hub's plugin list
// gave `related` 682,000 characters).
const hubLinks = Array.from({ length: 3000 }, (_, i) => `- [[plugins/plugin-number-${i}|Plugin number ${i}]]`).join('\n');
const linkers = Object.fromEntries(
  Array.from({ length: 600 }, (_, i) => [`linkers/linker-${String(i).padStart(3, '0')}.md`, { type: 'knowledge' as const, date: '2026-01-01', body: `# Linker ${i}\n\nSee [[moc]].\n\nAnd [[moc]] again.\n` }]),
);
// 60 daily notes of many headings each: timeline's days_before/days_after (the Hub's roundups gave 146,000).
const days = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const body = [`# ${date}: a long title for the day of many roundup headings`, '', ...Array.from({ length: 14 }, (_, k) => [`## Heading ${k} of the day ${date}, also rather long`, '', `Walrus text ${k}.`, '']).flat()].join('\n');
    return [`daily/${date}.md`, { type: 'daily' as const, date, body }];
  }),
);

// 20 notes of one long section each (Japanese, about a token a character): retrieve_memory with detail high.
const recalls = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`recall/r${String(i).padStart(2, '0')}.md`, { type: 'knowledge' as const, date: '2026-01-01', body: `# Recall ${i}\n\nNarwhal ${i}. ${'海氷と一角獣の観察記録を詳しく書いた長い段落。'.repeat(200)}\n` }]),
);

// 25 sessions of 20 prompts reading src/geo/geo.c each, and 25 notes mentioning it in 20 sections: file_history.
const geoSessions = Object.fromEntries(
  Array.from({ length: 25 }, (_, i) => [
    `sessions/geo-${String(i).padStart(2, '0')}.md`,
    {
      type: 'session' as const,
      date: `2026-10-${String(i + 1).padStart(2, '0')}`,
      frontmatter: { session_id: `${String(i).padStart(8, '0')}-geo0-0000-0000-000000000000`, project: 'geo' },
      body: [`# geo: session ${i}`, '', ...Array.from({ length: 20 }, (_, k) => [`## ${k + 1}. 距離の計算を見直して ${k}`, '', `距離の計算を見直して、${'境界条件も確認して。'.repeat(10)}`, '', '### Actions', '', '- Read src/geo/geo.c', '', '### Answer', '', '見ました。', '']).flat()].join('\n'),
    },
  ]),
);
const geoNotes = Object.fromEntries(
  Array.from({ length: 25 }, (_, i) => [
    `geo/note-${String(i).padStart(2, '0')}.md`,
    { type: 'knowledge' as const, date: `2026-09-${String(i + 1).padStart(2, '0')}`, body: [`# Geo note ${i}`, '', ...Array.from({ length: 20 }, (_, k) => [`## 測地計算の節 ${k}`, '', `src/geo/geo.c の測地計算について。${'緯度と経度の扱い。'.repeat(8)}`, '']).flat()].join('\n') },
  ]),
);

// 100 notes of long Japanese folder, file and heading names: search with limit 100. Dated after the
// 2026-01-01 notes so that recent_context (limit 100: the 25 geo notes, then these) lists them; among notes
// of one date it takes paths in order, and these sort after every ASCII path.
const longNamed = Object.fromEntries(
  Array.from({ length: 100 }, (_, i) => [
    `${'観測記録の保管庫'.repeat(4)}/${'セイウチ観察の詳細な記録'.repeat(3)}-${String(i).padStart(3, '0')}.md`,
    { type: 'knowledge' as const, date: '2026-02-01', body: `# ${'北極海のセイウチ観察についての長い見出し'.repeat(3)} ${i}

セイウチ ${i}。${'海氷の上で休む群れの様子。'.repeat(20)}
` },
  ]),
);

// One line past the budget (a minified export, a pasted log): a 5 MB line came back whole, 5,000,297 characters.
const longLine = Array.from({ length: 6000 }, (_, i) => `word${i}`).join(' ');

let fx: Fixture;
let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  fx = await buildFixture({
    'big.md': { type: 'knowledge', date: '2026-01-01', body: bigBody },
    'oneline.md': { type: 'knowledge', date: '2026-01-01', body: `${longLine}\nThe second line.\n` },
    // 15,000 characters, each escaped in JSON: twice the budget as the answer holds it.
    'quotes-line.md': { type: 'knowledge', date: '2026-01-01', body: `${'"'.repeat(15_000)}\n` },
    // 30,000 characters of two UTF-16 units each: a cut by units would split one.
    'emoji-line.md': { type: 'knowledge', date: '2026-01-01', body: `${'🦭'.repeat(30_000)}\n` },
    'sessions/long.md': {
      type: 'session',
      date: '2026-11-20',
      frontmatter: { session_id: 'abcdef12-3456-7890-abcd-ef1234567890', project: 'proj' },
      body: sessionBody,
    },
    'moc.md': { type: 'knowledge', date: '2026-01-01', body: `# MOC\n\n${hubLinks}\n` },
    ...linkers,
    ...days,
    ...recalls,
    ...geoSessions,
    ...geoNotes,
    ...longNamed,
  });
  ({ client, close } = await connect(fx.cfg));
});
afterAll(async () => {
  await close();
  fx.cleanup();
});

describe('result size', () => {
  it('recent_context keeps its entries within the budget: past it, an entry is its id, path, date and score', async () => {
    const r = await ok(client, 'recent_context', { type: 'knowledge', limit: 100 });
    expect(r).toHaveLength(100);
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET);
    expect(r[0].preview).toBeTruthy();
    expect(Object.keys(r.at(-1)).sort()).toEqual(['date', 'id', 'path', 'score']);
  });

  it('search keeps its results within the budget: past it, a result is its id, path and score', async () => {
    const r = await ok(client, 'search', { query: 'セイウチ', limit: 100 });
    expect(r.results).toHaveLength(100);
    expect(JSON.stringify(r.results).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET);
    expect(r.results[0].preview).toBeTruthy();
    expect(Object.keys(r.results.at(-1)).sort()).toEqual(['id', 'path', 'score']);
    expect(r.results.every((x: any) => typeof x.id === 'number' && x.path)).toBe(true);
  });

  it('get_sections cuts texts past the budget and marks them, keeping every id', async () => {
    const search = await ok(client, 'search', { query: 'antennas', limit: 50 });
    expect(search.total).toBe(1); // one hit per note by default
    const note = noteOfSection(search.results[0].id);
    const ids = Array.from({ length: 31 }, (_, ord) => sectionId(note, ord));
    const r = await ok(client, 'get_sections', { ids });
    expect(r).toHaveLength(31);
    // The whole answer, fields and escapes included (counting the texts alone, it passed the budget).
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET);
    expect(JSON.stringify(r).length).toBeGreaterThan(RESULT_CHAR_BUDGET - 200);
    expect(r[0].truncated).toBeUndefined();
    expect(r.at(-1)).toMatchObject({ truncated: true, text: '' });
    expect(r.some((s: any) => s.truncated && s.text.endsWith('…'))).toBe(true);
  });

  it('read_note stops a window at the budget and says where to continue', async () => {
    const r = await ok(client, 'read_note', { path: 'big.md', lines: 2000 });
    expect(JSON.stringify(r.text).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET); // as the answer holds it
    expect(r.next_from_line).toBe(r.to_line + 1);
    expect(r.to_line).toBeLessThan(r.total_lines);
    const next = await ok(client, 'read_note', { path: 'big.md', from_line: r.next_from_line });
    expect(next.text.startsWith(`${r.next_from_line}\t`)).toBe(true);
  });

  it('read_note cuts a line longer than the budget, marks it, and goes on at the next line', async () => {
    const first = await ok(client, 'read_note', { path: 'oneline.md' });
    const at = readFileSync(join(fx.vault, 'oneline.md'), 'utf8').split('\n').indexOf(longLine) + 1;
    expect(first).toMatchObject({ to_line: at - 1, next_from_line: at }); // the lines before it, then a stop
    const r = await ok(client, 'read_note', { path: 'oneline.md', from_line: at, version: first.version });
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + 500);
    expect(r).toMatchObject({ from_line: at, to_line: at, next_from_line: at + 1, truncated: true });
    expect(r.text.startsWith(`${at}\tword0 word1 `)).toBe(true);
    expect(r.text.endsWith('…')).toBe(true);
    const next = await ok(client, 'read_note', { path: 'oneline.md', from_line: r.next_from_line, version: r.version });
    expect(next.text).toBe(`${at + 1}\tThe second line.`);
    expect(next.truncated).toBeUndefined();
  });

  it('read_note cuts a line within the budget as the answer holds it (escapes counted)', async () => {
    const first = await ok(client, 'read_note', { path: 'quotes-line.md', lines: 1000 });
    const page = first.truncated ? first : await ok(client, 'read_note', { path: 'quotes-line.md', from_line: first.next_from_line, version: first.version });
    expect(page.truncated).toBe(true);
    expect(JSON.stringify(page.text).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET);
    expect(JSON.stringify(page.text).length).toBeGreaterThan(RESULT_CHAR_BUDGET - 100);
    expect(page.text.endsWith('"…')).toBe(true);
  });

  it('read_note cuts a long line of emoji at a character, never inside a surrogate pair', async () => {
    const first = await ok(client, 'read_note', { path: 'emoji-line.md', lines: 1000 });
    const page = first.truncated ? first : await ok(client, 'read_note', { path: 'emoji-line.md', from_line: first.next_from_line, version: first.version });
    expect(page.truncated).toBe(true);
    expect(page.text.endsWith('🦭…')).toBe(true);
    expect(page.text.isWellFormed?.() ?? !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(page.text)).toBe(true);
  });

  it('session_trace gives later prompts of a huge session in short form', async () => {
    const r = await ok(client, 'session_trace', { session_id: 'abcdef12' });
    expect(r.prompts).toHaveLength(120);
    expect(r.prompts[0].actions).toHaveLength(10);
    const last = r.prompts.at(-1);
    expect(last).toEqual({ n: 120, id: expect.any(Number), omitted: true });
    expect(JSON.stringify(r).length).toBeLessThan(RESULT_CHAR_BUDGET + 5000);
  });

  it('related keeps both lists within the budget and counts what it left out', async () => {
    const r = await ok(client, 'related', { path: 'moc.md' });
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + 1000);
    expect(r.outgoing.length).toBeGreaterThan(50);
    expect(r.backlinks.length).toBeGreaterThan(50);
    expect(r.outgoing.length + r.outgoing_omitted).toBe(3000);
    expect(r.backlinks.length + r.backlinks_omitted).toBe(1200);
    expect(r.outgoing[0]).toMatchObject({ target: 'plugins/plugin-number-0', path: null });
    const small = await ok(client, 'related', { path: 'linkers/linker-000.md' });
    expect(small).not.toHaveProperty('outgoing_omitted');
    expect(small.outgoing).toHaveLength(2);
  });

  it('timeline keeps the days nearest the anchor whole and gives farther ones without their sections', async () => {
    const search = await ok(client, 'search', { query: 'walrus', path: 'daily/2026-01-30', limit: 1 });
    const r = await ok(client, 'timeline', { anchor: search.results[0].id, before: 50, after: 50 });
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + 500);
    expect(r.days_before).toHaveLength(29);
    expect(r.days_after).toHaveLength(30);
    expect(r.days_before.at(-1).date).toBe('2026-01-29');
    expect(r.days_before.at(-1).sections.length).toBeGreaterThan(0);
    expect(r.days_after[0].sections.length).toBeGreaterThan(0);
    expect(r.days_before[0]).toEqual({ path: 'daily/2026-01-01.md', date: '2026-01-01', sections: [], sections_omitted: 12 });
    expect(r.days_after.at(-1)).toMatchObject({ sections: [], sections_omitted: 12 });
  });

  it('retrieve_memory keeps its details within the budget and says where it cut them', async () => {
    const md = await ok(client, 'retrieve_memory', { query: 'narwhal', limit: 20, detail: 'high' });
    expect(md.match(/^## Result /gm)).toHaveLength(20);
    expect(md.length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + 20 * 400);
    expect(md.match(/^\*\*Details:\*\*$/gm)?.length).toBeGreaterThanOrEqual(4);
    expect(md).toContain('*(details cut: the answer reached its size limit; read the section with search and get_sections)*');
    expect(md).toContain('**Details:** left out: the answer reached its size limit');
  });

  it('file_history keeps sessions and notes together within the budget', async () => {
    const r = await ok(client, 'file_history', { file_path: 'src/geo/geo.c', limit: 50 });
    expect(r.sessions).toHaveLength(25);
    expect(r.notes).toHaveLength(25);
    expect(r.sessions[0].touches).toHaveLength(20);
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(RESULT_CHAR_BUDGET + 25 * 250);
    expect(r.notes.at(-1)).toMatchObject({ sections: [], sections_omitted: 20 });
  });
});
