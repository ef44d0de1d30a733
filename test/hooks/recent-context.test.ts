import { describe, expect, it } from 'vitest';
import type { NoteRecord, SectionRecord } from '../../src/core/types.js';
import {
  ago,
  limitsFor,
  NORMAL_LIMITS,
  noteScore,
  rankIntents,
  rankNotes,
  recency,
  RECOVERY_LIMITS,
  renderRecentContext,
  type IntentItem,
  type NoteItem,
} from '../../src/hooks/recent-context.js';
import { intentsOf, noteTime } from '../../src/hooks/session-start.js';
import { MAX_PATH_CHARS } from '../../src/format/xml.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (d: number) => NOW.getTime() - d * DAY;

const note = (path: string, type: NoteItem['type'], age: number, status: string | null = null, title = path): NoteItem => ({
  path,
  title,
  type,
  status,
  when: daysAgo(age),
});

const intent = (text: string, actions: number, age: number, project: string | null = 'fw', n = 1): IntentItem => ({
  text,
  actions,
  when: daysAgo(age),
  n,
  project,
  notePath: `sessions/${project}-${age}.md`,
});

describe('composite score (7-day half-life, type weight)', () => {
  it('halves recency every 7 days and treats the future as now', () => {
    expect(recency(daysAgo(0), NOW.getTime())).toBeCloseTo(1);
    expect(recency(daysAgo(7), NOW.getTime())).toBeCloseTo(0.5);
    expect(recency(daysAgo(14), NOW.getTime())).toBeCloseTo(0.25);
    expect(recency(daysAgo(-3), NOW.getTime())).toBe(1);
  });

  it('weighs knowledge over daily over session at the same age', () => {
    const t = NOW.getTime();
    expect(noteScore(note('k', 'knowledge', 1), t)).toBeGreaterThan(noteScore(note('d', 'daily', 1), t));
    expect(noteScore(note('d', 'daily', 1), t)).toBeGreaterThan(noteScore(note('s', 'session', 1), t));
  });

  it('ranks stale statuses far down and drops notes older than the recent window', () => {
    const ranked = rankNotes(
      [note('old.md', 'knowledge', 400), note('archived.md', 'knowledge', 0, 'archived'), note('fresh.md', 'daily', 2), note('current.md', 'knowledge', 3, 'current')],
      NOW.getTime(),
    ).map((n) => n.path);
    expect(ranked).toEqual(['current.md', 'fresh.md', 'archived.md']);
  });

  it('orders ties by newer, then path', () => {
    const a = note('b.md', 'daily', 1);
    const b = note('a.md', 'daily', 1);
    expect(rankNotes([a, b], NOW.getTime()).map((n) => n.path)).toEqual(['a.md', 'b.md']);
  });
});

describe('rankIntents', () => {
  it('drops zero-action turns and other projects\' prompts, newest first', () => {
    const ranked = rankIntents(
      [intent('thanks', 0, 0), intent('old local', 2, 5), intent('new other', 4, 1, 'other'), intent('new local', 1, 1), intent('no project', 1, 2, null)],
      'fw',
    ).map((i) => i.text);
    expect(ranked).toEqual(['new local', 'no project', 'old local']);
  });

  it('without a project (no cwd), shows every project, and names the project', () => {
    const md = renderRecentContext({ vault: '/notes', project: null, now: NOW, limits: NORMAL_LIMITS, intents: [intent('tune the antenna', 1, 2, 'other')], notes: [] });
    expect(md).toContain('"tune the antenna" → 1 action (other)');
  });

  it('without a project, orders by time then prompt number', () => {
    const ranked = rankIntents([intent('first', 1, 1, 'a', 1), intent('second', 1, 1, 'a', 2), intent('older', 1, 3, 'b')], null).map((i) => i.text);
    expect(ranked).toEqual(['second', 'first', 'older']);
  });
});

describe('renderRecentContext', () => {
  const base = { vault: '/notes', project: 'fw', now: NOW, limits: NORMAL_LIMITS };

  it('renders this project\'s intents and a notes table; other projects\' sessions are left out', () => {
    const md = renderRecentContext({
      ...base,
      intents: [intent('fix the distance bug', 4, 0.1), intent('tune the antenna', 1, 2, 'other')],
      notes: [
        note('daily/2026-11-20.md', 'daily', 1, null, 'Friday'),
        { ...note('sessions/other.md', 'session', 1, null, 'other: a private question'), project: 'other' },
      ],
    });
    expect(md).toBe(
      [
        '## tsm: recent context',
        '',
        'Notes vault: /notes (search it with `tsm search <words>` or the tsm MCP tools)',
        '',
        '### Recent intents',
        '- [2 h ago] "fix the distance bug" → 4 actions',
        '',
        '### Recent notes',
        '',
        '| When | Type | Note | Title |',
        '|---|---|---|---|',
        '| yesterday | daily | daily/2026-11-20.md | Friday |',
      ].join('\n'),
    );
  });

  it('is empty when there is nothing recent', () => {
    expect(renderRecentContext({ ...base, intents: [intent('chat', 0, 1)], notes: [note('x.md', 'knowledge', 500)] })).toBe('');
  });

  it('does not list a session note again when its intents are listed', () => {
    const i = intent('fix it', 2, 1);
    const md = renderRecentContext({ ...base, intents: [i], notes: [note(i.notePath, 'session', 1), note('k.md', 'knowledge', 1)] });
    expect(md).not.toContain(`| ${i.notePath} |`);
    expect(md).toContain('| k.md |');
  });

  it('lists a session of several notes (closed at its size, continued) once: not at all when its intents are listed, else by its newest note', () => {
    const part = (path: string, age: number): NoteItem => ({ ...note(path, 'session', age), project: 'fw', session: 'sess-1' });
    const notes = [part('sessions/s.md', 0.3), part('sessions/s-2.md', 0.2), part('sessions/s-3.md', 0.1), note('k.md', 'knowledge', 1)];
    const listed = (md: string) => [...md.matchAll(/^\| [^|]+ \| [^|]+ \| (\S+) \|/gm)].map((m) => m[1]).filter((p) => p !== 'Note' && p !== '---');
    expect(listed(renderRecentContext({ ...base, intents: [], notes }))).toEqual(['k.md', 'sessions/s-3.md']);
    // Its intents come from one of its notes; the others are the same session.
    const i = { ...intent('fix it', 2, 0.1), notePath: 'sessions/s-3.md', session: 'sess-1' };
    expect(listed(renderRecentContext({ ...base, intents: [i], notes }))).toEqual(['k.md']);
  });

  it('escapes pipes and flattens newlines so a title cannot break the table', () => {
    const md = renderRecentContext({ ...base, intents: [], notes: [note('a|b.md', 'knowledge', 1, null, 'one | two\nthree')] });
    const row = md.split('\n').at(-1) ?? '';
    expect(row).toBe('| yesterday | knowledge | a\\|b.md | one \\| two three |');
    expect(row.split(/(?<!\\)\|/).length).toBe(6);
  });

  it('keeps a long path\'s file name, with the prompt hook\'s cap: a path cut at its end names no note', () => {
    // A real path of the Japanese handbook corpus (125 characters); the table used to cut it at 120.
    const real = 'marketing/brand-and-product-marketing/product-and-solution-marketing/usecase-gtm/version-control-collaboration/message-house.md';
    const deep = `${'folder/'.repeat(40)}note.md`;
    const md = renderRecentContext({ ...base, intents: [], notes: [note(real, 'knowledge', 1), note(deep, 'knowledge', 2)] });
    const rows = md.split('\n').slice(-2);
    expect(rows[0].split(' | ')[2]).toBe(real);
    const cut = rows[1].split(' | ')[2];
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('/folder/note.md')).toBe(true);
    expect([...cut].length).toBe(MAX_PATH_CHARS);
  });

  it('cuts a long title at a word boundary, never inside an emoji or before a combining mark', () => {
    const title = `${'word '.repeat(11)}👩‍👩‍👧 family`; // the ZWJ sequence starts at character 56
    const md = renderRecentContext({ ...base, intents: [], notes: [note('t.md', 'knowledge', 1, null, title)] });
    const cell = (md.split('\n').at(-1) ?? '').split(' | ').at(-1) ?? '';
    expect(cell).toBe(`${'word '.repeat(11).trimEnd()}… |`);
  });

  it('carries no control characters from file names or titles, as the prompt hook\'s XML does not', () => {
    const md = renderRecentContext({ ...base, intents: [], notes: [note('x\u0001y\u001b[31m.md', 'knowledge', 1, null, 'T\u001b[2Jitle\u0007')] });
    expect(md.split('\n').at(-1)).toBe('| yesterday | knowledge | xy.md | Title |');
  });

  it('shortens long intents and titles', () => {
    const md = renderRecentContext({ ...base, intents: [intent('x'.repeat(300), 1, 1)], notes: [note('n.md', 'daily', 1, null, 'y'.repeat(300))] });
    expect(md).toContain(`"${'x'.repeat(59)}…"`);
    expect(md).toContain(`${'y'.repeat(59)}…`);
  });

  it.each([
    ['startup', NORMAL_LIMITS],
    ['compact', RECOVERY_LIMITS],
  ])('stays within the %s limits however much there is', (source, limits) => {
    const notes = Array.from({ length: 200 }, (_, i) => note(`knowledge/${'deep/'.repeat(10)}note-${i}.md`, 'knowledge', i % 30, null, 'T'.repeat(80)));
    const intents = Array.from({ length: 100 }, (_, i) => intent(`intent ${i} ${'w'.repeat(80)}`, 3, i % 10));
    const md = renderRecentContext({ ...base, limits: limitsFor(source), intents, notes });
    expect(md.split('\n').length).toBeLessThanOrEqual(limits.maxLines);
    expect(md.length).toBeLessThanOrEqual(limits.maxChars);
    expect(md).toContain('### Recent intents');
    expect(md.length).toBeLessThanOrEqual(4000);
    expect(md.split('\n').length).toBeLessThanOrEqual(50);
  });

  it('gives compact and clear more room than startup and resume', () => {
    expect(limitsFor('compact')).toBe(RECOVERY_LIMITS);
    expect(limitsFor('clear')).toBe(RECOVERY_LIMITS);
    expect(limitsFor('startup')).toBe(NORMAL_LIMITS);
    expect(limitsFor('resume')).toBe(NORMAL_LIMITS);
    expect(limitsFor(null)).toBe(NORMAL_LIMITS);
    expect(RECOVERY_LIMITS.notes).toBeGreaterThan(NORMAL_LIMITS.notes);
    expect(RECOVERY_LIMITS.intents).toBeGreaterThan(NORMAL_LIMITS.intents);
  });
});

describe('ago', () => {
  it.each([
    [10_000, 'just now'],
    [25 * 60_000, '25 min ago'],
    [3 * 3_600_000, '3 h ago'],
    [3 * DAY, '3 days ago'],
    [-DAY, 'tomorrow'],
  ])('%d ms before now → %s', (ms, text) => {
    expect(ago(NOW.getTime() - ms, NOW)).toBe(text);
  });
});

const noteRecord = (over: Partial<NoteRecord>): NoteRecord => ({
  id: 1,
  path: 'sessions/s.md',
  title: 's',
  type: 'session',
  status: null,
  date: '2026-11-20',
  tags: [],
  aliases: [],
  frontmatter: {},
  size: 1,
  mtimeMs: 0,
  ...over,
});

let ord = 0;
const section = (heading: string, level: number, headingPath: string, text: string): SectionRecord => ({
  id: ++ord,
  noteId: 1,
  ord,
  heading,
  level,
  headingPath,
  startLine: ord * 10,
  endLine: ord * 10 + 5,
  text,
});

describe('intentsOf (session note sections → intents)', () => {
  it('counts the list items of each prompt\'s Actions, even when two prompts share a first line', () => {
    const t = 'fw: fix';
    const sections = [
      section('', 0, t, ''),
      section('1. run the tests', 2, `${t} > 1. run the tests`, 'run the tests'),
      section('Actions', 3, `${t} > 1. run the tests > Actions`, '- Bash `npm test` → ok\n- Read a.ts'),
      section('Answer', 3, `${t} > 1. run the tests > Answer`, 'done\n- not an action'),
      section('2. run the tests', 2, `${t} > 2. run the tests`, 'run the tests'),
      section('Actions', 3, `${t} > 2. run the tests > Actions`, '- Bash `npm test` → error'),
      section('3. thanks', 2, `${t} > 3. thanks`, 'thanks'),
      section('0. (activity before the first prompt)', 2, `${t} > 0. (activity…)`, ''),
      section('Actions', 3, `${t} > 0. (activity…) > Actions`, '- Read b.ts'),
    ];
    const intents = intentsOf(noteRecord({ frontmatter: { project: 'fw', ended: '2026-11-20T10:00:00Z' } }), sections);
    expect(intents.map((i) => [i.n, i.text, i.actions, i.project])).toEqual([
      [1, 'run the tests', 2, 'fw'],
      [2, 'run the tests', 1, 'fw'],
      [3, 'thanks', 0, 'fw'],
    ]);
    expect(intents[0].when).toBe(Date.parse('2026-11-20T10:00:00Z'));
  });

  it('counts every chunk of a long Actions list once, and a chunked prompt once', () => {
    const t = 'fw: big';
    const sections = [
      section('1. big', 2, `${t} > 1. big`, 'part one'),
      section('1. big', 2, `${t} > 1. big`, 'part two'),
      section('Actions', 3, `${t} > 1. big > Actions`, '- Read a\n- Read b'),
      section('Actions', 3, `${t} > 1. big > Actions`, '- Read c'),
    ];
    expect(intentsOf(noteRecord({}), sections).map((i) => [i.n, i.actions])).toEqual([[1, 3]]);
  });

  it('finds nothing in a note that is not laid out as a session', () => {
    const sections = [section('Ideas', 2, 'x > Ideas', '- one\n- two'), section('Actions', 3, 'x > Ideas > Actions', '- a')];
    expect(intentsOf(noteRecord({}), sections)).toEqual([]);
  });
});

describe('noteTime', () => {
  it('uses a session\'s ended, then started', () => {
    expect(noteTime(noteRecord({ frontmatter: { ended: '2026-11-20T10:00:00Z', started: '2026-11-20T09:00:00Z' } }))).toBe(Date.parse('2026-11-20T10:00:00Z'));
    expect(noteTime(noteRecord({ frontmatter: { started: '2026-11-20T09:00:00Z' } }))).toBe(Date.parse('2026-11-20T09:00:00Z'));
  });

  it('uses the date at local noon, or the mtime when it falls on that day', () => {
    const noon = new Date(2026, 10, 20, 12).getTime();
    expect(noteTime(noteRecord({ frontmatter: { ended: 'not a date' }, mtimeMs: new Date(2026, 0, 1).getTime() }))).toBe(noon);
    const sameDay = new Date(2026, 10, 20, 18, 30).getTime();
    expect(noteTime(noteRecord({ mtimeMs: sameDay }))).toBe(sameDay);
  });
});
