import { describe, expect, it } from 'vitest';
import { parseYaml, findFrontmatter } from '../../src/parse/frontmatter.js';
import { referenceStructure } from './reference-structure.js';
import { md, parse } from './helpers.js';
import { frontmatterDescription } from '../../src/parse/metadata.js';

describe('frontmatter', () => {
  it('is found exactly where remark-frontmatter finds it', () => {
    const cases = [
      md('---', 'a: 1', '---', 'body'),
      md('---  ', 'a: 1', '---\t', 'body'),
      md('---', '---'),
      md('---', 'a: 1'),
      md('---'),
      md(' ---', 'a: 1', '---'),
      md('----', 'a: 1', '----'),
      md('', '---', 'a: 1', '---'),
      md('---', 'a: 1', ' ---', '---'),
      md('---', 'a: 1', '---x', 'b', '---'),
    ];
    for (const text of cases) {
      const found = findFrontmatter(text.split('\n'));
      expect(found ? found.closeLine : -1, JSON.stringify(text)).toBe(referenceStructure(text).frontmatterEnd);
    }
  });

  it('is kept as JSON-safe data: dates become ISO strings, binary base64, .inf null', () => {
    const result = parseYaml(md('when: 2024-05-01', 'bin: !!binary aGk=', 'big: .inf', 'list: [1, two]', 'nested: {a: {b: c}}'));
    expect(result).toEqual({
      ok: true,
      warnings: [],
      data: { when: '2024-05-01T00:00:00.000Z', bin: 'aGk=', big: null, list: [1, 'two'], nested: { a: { b: 'c' } } },
    });
    expect(JSON.parse(JSON.stringify(result.ok && result.data))).toEqual(result.ok && result.data);
  });

  it('a YAML date used as a title is the date as written, not its ISO timestamp', () => {
    expect(parseYaml('title: 2024-01-02\ndate: 2024-01-02')).toEqual({
      ok: true,
      warnings: [],
      data: { title: '2024-01-02', date: '2024-01-02T00:00:00.000Z' },
    });
    expect(parseYaml('title: 2024-01-02T10:30:00Z')).toMatchObject({ data: { title: '2024-01-02T10:30:00.000Z' } });
    expect(parse(md('---', 'title: 2024-01-02', '---', 'body')).title).toBe('2024-01-02');
  });

  it('a timestamp with a UTC offset is kept as written: its day is the writer\'s', () => {
    expect(parseYaml('created: 2024-03-05T08:30:00+09:00 # Templater\nlist: [2024-03-05T08:30:00+09:00]')).toEqual({
      ok: true,
      warnings: [],
      data: { created: '2024-03-05T08:30:00+09:00', list: ['2024-03-04T23:30:00.000Z'] },
    });
  });

  it('keeps a __proto__ key as data', () => {
    const result = parseYaml('__proto__: {polluted: true}\nx: 1');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.data)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.data)).toBe(Object.prototype);
  });

  it('cuts alias bombs instead of expanding them', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const result = parseYaml(bomb.join('\n'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.stringify(result.data).length).toBeLessThan(1_000_000);
    expect(result.warnings.join(' ')).toMatch(/too large/);
  });

  it('keeps the last value of a repeated key, with a warning', () => {
    const note = parse(md('---', 'status: draft', 'status: Current', '---', 'x'), 'd.md');
    expect(note.status).toBe('current');
    // the file's line 3, where the second `status:` is
    expect(note.warnings).toEqual(['frontmatter: duplicated mapping key at line 3, column 1 (the last value is kept)']);
  });

  it('a YAML error is one line that ends cleanly, without the colon js-yaml puts before its excerpt', () => {
    expect(parse(md('---', 'a: 1', '  b: 2', '---', 'x'), 'c.md').warnings).toEqual([
      'malformed YAML frontmatter, indexed as text: bad indentation of a mapping entry at line 3, column 4',
    ]);
    expect(parse(md('---', 'title: [x', '---', 'x'), 'a.md').warnings[0]).toMatch(/flow collection at line 3, column 1$/);
  });
});

describe('note fields', () => {
  const opts = { dailyFolders: ['daily', 'Journal'], sessionFolders: ['sessions'] };

  it('type: frontmatter when valid, else folders and dated file names, else knowledge', () => {
    const type = (path: string, fm = '') => parse(fm ? md('---', fm, '---') : '', path, opts).type;
    expect(type('a/b.md', 'type: Session')).toBe('session');
    expect(type('daily/b.md', 'type: recipe')).toBe('daily');
    expect(type('vault/journal/x.md')).toBe('daily');
    expect(type('2024-05-01 standup.md')).toBe('daily');
    expect(type('notes/2024-05-01.md')).toBe('daily');
    expect(type('notes/draft-2024-05-01.md')).toBe('knowledge');
    expect(type('work/sessions/s1.md')).toBe('session');
    expect(type('sessions.md')).toBe('knowledge');
    expect(type('notes/x.md')).toBe('knowledge');
  });

  it('type: one tsm does not know is a warning that says what the note was indexed as', () => {
    const warnings = (path: string, fm: string) => parse(md('---', fm, '---', 'x'), path, opts).warnings;
    expect(warnings('notes/m.md', 'type: meeting')).toEqual([
      'frontmatter: type "meeting" is not a type tsm knows (daily, knowledge, session): indexed as knowledge',
    ]);
    expect(warnings('daily/m.md', 'type: Meeting')).toEqual([
      'frontmatter: type "Meeting" is not a type tsm knows (daily, knowledge, session): indexed as daily',
    ]);
    expect(warnings('notes/m.md', 'type: [a, b]')).toEqual([
      'frontmatter: type is a list, not a type tsm knows (daily, knowledge, session): indexed as knowledge',
    ]);
    for (const fm of ['type: Session', 'type: daily', 'type:', 'type: ""', 'title: x']) expect(warnings('notes/m.md', fm)).toEqual([]);
  });

  it('status: lower-cased and trimmed; null when absent or empty', () => {
    expect(parse(md('---', 'status: "  Archived "', '---')).status).toBe('archived');
    expect(parse(md('---', 'status: ""', '---')).status).toBeNull();
    expect(parse('no frontmatter').status).toBeNull();
  });

  it('date: frontmatter date/updated/created (first valid), then the file name, then the mtime', () => {
    const date = (fm: string, path = 'n.md') => {
      const n = parse(fm ? md('---', fm, '---') : '', path);
      return [n.date, n.dateSource];
    };
    expect(date('date: 2024-01-02')).toEqual(['2024-01-02', 'frontmatter']);
    expect(date('date: 2024-01-02T23:30:00+09:00')).toEqual(['2024-01-02', 'frontmatter']);
    // The day as written, not the UTC day: 08:30 in Tokyo is the 4th in UTC, 23:30 in New York the 6th.
    expect(date('created: 2024-03-05T08:30:00+09:00')).toEqual(['2024-03-05', 'frontmatter']);
    expect(date('date: 2024-03-05 23:30:00 -05:00')).toEqual(['2024-03-05', 'frontmatter']);
    expect(date('date: 2024-03-05T23:30:00Z')).toEqual(['2024-03-05', 'frontmatter']);
    expect(date('date: "2024-01-02T23:30:00-05:00"')).toEqual(['2024-01-02', 'frontmatter']); // as written
    expect(date('date: 2024/1/2')).toEqual(['2024-01-02', 'frontmatter']);
    expect(date('date: not a date\nupdated: 2023-12-31\ncreated: 2020-01-01')).toEqual(['2023-12-31', 'frontmatter']);
    // Quoted, an impossible date stays a string and is rejected (js-yaml rolls an unquoted one over).
    expect(date('date: "2024-02-30"\ncreated: 2020-01-01')).toEqual(['2020-01-01', 'frontmatter']);
    expect(date('', 'daily/2022-07-08 notes.md')).toEqual(['2022-07-08', 'filename']);
    expect(date('', 'daily/2022-13-08 notes.md')).toEqual(['2024-03-05', 'mtime']);
    expect(date('')).toEqual(['2024-03-05', 'mtime']);
  });

  it('date: epoch milliseconds (Dendron\'s updated/created) or seconds, as the local day; other numbers are no date', () => {
    const date = (fm: string) => {
      const n = parse(md('---', fm, '---'), 'project.apollo.md');
      return [n.date, n.dateSource];
    };
    // Noon UTC on 2025-11-27: that day in every time zone from UTC-11 to UTC+11.
    const noon = new Date(Date.UTC(2025, 10, 27, 12));
    const local = [noon.getFullYear(), noon.getMonth() + 1, noon.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
    expect(date(`id: x\ntitle: Apollo\ndesc: ''\nupdated: ${noon.getTime()}\ncreated: 1700000000000`)).toEqual([local, 'frontmatter']);
    expect(date(`created: ${noon.getTime() / 1000}`)).toEqual([local, 'frontmatter']);
    // A number of another size is no timestamp (`date: 20261127`, a count): the mtime stays.
    for (const fm of ['date: 20261127', 'updated: 42', 'created: 99999999999999', 'updated: -1764244800000']) {
      expect(date(fm), fm).toEqual(['2024-03-05', 'mtime']);
    }
  });

  it('date: a day as Japanese notes write it (2024年1月2日, full-width digits), in frontmatter and file names', () => {
    const date = (fm: string, path = 'n.md') => {
      const n = parse(fm ? md('---', fm, '---') : '', path);
      return [n.date, n.dateSource, n.type];
    };
    expect(date('date: 2024年1月2日')).toEqual(['2024-01-02', 'frontmatter', 'knowledge']);
    expect(date('created: 2024年 12月 31日（火）')).toEqual(['2024-12-31', 'frontmatter', 'knowledge']);
    expect(date('date: ２０２４－０１－０２')).toEqual(['2024-01-02', 'frontmatter', 'knowledge']);
    expect(date('date: 2024年2月30日\ncreated: 2020-01-01')).toEqual(['2020-01-01', 'frontmatter', 'knowledge']);
    expect(date('', '日記/2022年7月8日.md')).toEqual(['2022-07-08', 'filename', 'daily']);
    expect(date('', '日記/２０２２年７月８日（金）.md')).toEqual(['2022-07-08', 'filename', 'daily']);
    expect(date('', 'notes/議事録 2022年7月8日.md')).toEqual(['2022-07-08', 'filename', 'knowledge']);
    expect(date('', 'notes/2022年の目標.md')).toEqual(['2024-03-05', 'mtime', 'knowledge']);
  });

  it('date and type: daily note names as Obsidian, Logseq and Roam users write them', () => {
    const date = (path: string) => {
      const n = parse('', path);
      return [n.date, n.dateSource, n.type];
    };
    const daily = (d: string) => [d, 'filename', 'daily'];
    expect(date('20261127.md')).toEqual(daily('2026-11-27'));
    expect(date('20261127 standup.md')).toEqual(daily('2026-11-27'));
    expect(date('Calendar/2026/11/27.md')).toEqual(daily('2026-11-27'));
    expect(date('2026/11/27 Friday.md')).toEqual(daily('2026-11-27'));
    expect(date('日記/2026年/11月/27日.md')).toEqual(daily('2026-11-27'));
    expect(date('journals/2026_11_27.md')).toEqual(daily('2026-11-27'));
    expect(date('2026.11.27.md')).toEqual(daily('2026-11-27'));
    expect(date('27.11.2026.md')).toEqual(daily('2026-11-27'));
    expect(date('Tagebuch/27.11.2026 Freitag.md')).toEqual(daily('2026-11-27'));
    expect(date('Nov 27, 2026.md')).toEqual(daily('2026-11-27'));
    expect(date('November 27th, 2026.md')).toEqual(daily('2026-11-27'));
    expect(date('Friday, November 27, 2026.md')).toEqual(daily('2026-11-27'));
    expect(date('27 November 2026.md')).toEqual(daily('2026-11-27'));
    expect(date('2026-11-27 Friday.md')).toEqual(daily('2026-11-27'));
    expect(date('2026-11-27-金.md')).toEqual(daily('2026-11-27'));
    // A day later in the name dates the note without making it a daily one.
    expect(date('notes/Meeting Nov 27, 2026.md')).toEqual(['2026-11-27', 'filename', 'knowledge']);
    expect(date('notes/report_2026_11_27.md')).toEqual(['2026-11-27', 'filename', 'knowledge']);
    // No day: a Zettelkasten id, other eight digits, a day without its year, a month folder's note,
    // a version, a day that does not exist.
    for (const path of ['202611271230 Idea.md', '12345678.md', '20261327.md', 'May 3.md', 'Sep 10 items.md', '2024年/03月/日報.md', 'v1.2.3.md', '2026/02/30.md', 'notes/2026-11-5.md', '11-12-2026.md', 'v1.27.11.2026.md', '30.02.2026.md']) {
      expect(date(path), path).toEqual(['2024-03-05', 'mtime', 'knowledge']);
    }
  });

  it('date: weekly, monthly and quarterly notes as Periodic Notes names them, dated their first day, not daily', () => {
    const date = (path: string) => {
      const n = parse('', path);
      return [n.date, n.dateSource, n.type];
    };
    const period = (d: string) => [d, 'filename', 'knowledge'];
    // ISO weeks: week 1 holds January 4th, so 2026-W01 starts in 2025 and 2021-W01 on January 4th.
    expect(date('Weekly/2026-W47.md')).toEqual(period('2026-11-16'));
    expect(date('2026-w47.md')).toEqual(period('2026-11-16'));
    expect(date('2026-W07.md')).toEqual(period('2026-02-09'));
    expect(date('2026-W7.md')).toEqual(period('2026-02-09'));
    expect(date('2026-W01.md')).toEqual(period('2025-12-29'));
    expect(date('2021-W01.md')).toEqual(period('2021-01-04'));
    // A year whose January 1st is a Thursday has 53 weeks (2026); 2025 has 52 (checked below).
    expect(date('2026-W53.md')).toEqual(period('2026-12-28'));
    expect(date('２０２６－Ｗ４７.md')).toEqual(period('2026-11-16'));
    expect(date('Monthly/2026-11.md')).toEqual(period('2026-11-01'));
    expect(date('2026-Q4.md')).toEqual(period('2026-10-01'));
    expect(date('2026-q1.md')).toEqual(period('2026-01-01'));
    // A frontmatter date still wins.
    expect(parse(md('---', 'date: 2026-11-20', '---'), '2026-W47.md').date).toBe('2026-11-20');
    // Only a whole stem; no week, month or quarter that does not exist; no bare year (a page about that year's event as often).
    for (const path of ['Budget 2026-11.md', '2026-11 plan.md', '2026-W47 review.md', '2025-W53.md', '2026-W00.md', '2026-13.md', '2026-Q5.md', '2026.md', '2019-20.md', '2026-11.txt.md']) {
      expect(date(path), path).toEqual(['2024-03-05', 'mtime', 'knowledge']);
    }
  });

  it('Logseq page properties (key:: value lines opening a note without frontmatter): title, alias and tags', () => {
    const page = md('title:: Project/Apollo', 'alias:: Apollo, [[Moonshot]]', 'tags:: planning, [[q4]], #sync', 'public:: true', '', '- Goal: ship the sync engine');
    const n = parse(page, 'pages/Project___Apollo.md');
    expect([n.title, n.aliases, n.tags]).toEqual(['Project/Apollo', ['Apollo', 'Moonshot'], ['planning', 'q4', 'sync']]);
    // The lines stay text, as Logseq shows them; frontmatter, when there is some, is the note's properties.
    expect(n.sections[0].text).toContain('alias:: Apollo');
    expect(n.frontmatter).toEqual({});
    const withYaml = parse(md('---', 'title: From YAML', '---', 'title:: Not this', 'alias:: Nor this'));
    expect([withYaml.title, withYaml.aliases]).toEqual(['From YAML', []]);
    // Only the opening lines: a property further down (a block's, or a Dataview field) names nothing.
    expect(parse(md('- a block', '  title:: Block title', 'alias:: Later')).aliases).toEqual([]);
    expect(parse(md('# Heading', 'title:: Later')).title).toBe('Heading');
    expect(parse(md('title::', 'alias:: A', '- x'), 'pages/p.md')).toMatchObject({ title: 'p', aliases: ['A'] });
  });

  // A Notion page exported to markdown: `# Title`, a blank line, its properties as `Key: value` lines. Its dates
  // were not read: the note took the day of the export (its file's mtime).
  it("date: a Notion export's property lines under its title, when frontmatter gives none", () => {
    const date = (...lines: string[]) => {
      const n = parse(md(...lines), 'Launch review 0123456789abcdef0123456789abcdef.md');
      return [n.date, n.dateSource];
    };
    const notion = ['# Launch review', '', 'Created: November 3, 2023 4:12 PM', 'Last edited time: November 5, 2023 10:00 AM', 'Tags: Work'];
    expect(date(...notion, '', 'We reviewed it.')).toEqual(['2023-11-05', 'frontmatter']);
    expect(date(...notion.slice(0, 3))).toEqual(['2023-11-03', 'frontmatter']);
    expect(date('# Plan', '', 'Status: Done', 'Date: 2023/11/03', 'Created: November 1, 2023')).toEqual(['2023-11-03', 'frontmatter']);
    expect(date('# Review', '', 'Due: @November 9, 2023 → November 10, 2023', 'Created time: @November 2, 2023')).toEqual(['2023-11-02', 'frontmatter']);
    expect(date('# 定例会議', '', '作成日時: 2023年11月7日 16:12', '最終更新日時: ２０２３年１１月８日 9:00')).toEqual(['2023-11-08', 'frontmatter']);
    // Frontmatter's date wins; with none, the lines under the title still count.
    expect(date('---', 'date: 2024-01-02', '---', ...notion)).toEqual(['2024-01-02', 'frontmatter']);
    expect(date('---', 'title: T', '---', ...notion)).toEqual(['2023-11-05', 'frontmatter']);
    // Conservative: only a whole paragraph of property lines, directly under the note's first line, an H1;
    // a value that does not open with a day, or one written month and day in numbers (11/03/2023: which?).
    const mtime = ['2024-03-05', 'mtime'];
    expect(date('# Notes', '', 'Created: November 3, 2023', 'and then some text')).toEqual(mtime);
    expect(date('# Notes', '', 'Intro.', '', 'Created: November 3, 2023')).toEqual(mtime);
    expect(date('Created: November 3, 2023')).toEqual(mtime);
    expect(date('## Notes', '', 'Created: November 3, 2023')).toEqual(mtime);
    expect(date('# Notes', '', 'Updated: see November 3, 2023')).toEqual(mtime);
    expect(date('# Notes', '', 'Date: 11/03/2023', 'Created: 03/11/2023')).toEqual(mtime);
    expect(date('# Notes', '', '- Created: November 3, 2023')).toEqual(mtime);
    expect(date('# Notes', '', '**Created**: November 3, 2023')).toEqual(mtime);
    // The lines stay text.
    expect(parse(md(...notion), 'n.md').sections[0].text).toContain('Created: November 3, 2023 4:12 PM');
  });

  // Notion exports a page's tags (a multi-select) as a property line, `Tags: Work, Product Launch`: they were not the note's tags.
  it("tags: a Notion export's Tags property line under its title, comma-separated, each value whole", () => {
    const tags = (...lines: string[]) => parse(md(...lines), 'Launch review 0123456789abcdef0123456789abcdef.md').tags;
    expect(tags('# Launch review', '', 'Created: November 3, 2023 4:12 PM', 'Tags: Work, Product Launch ,', '', 'Text with #inline.')).toEqual(['work', 'product launch', 'inline']);
    expect(tags('# 定例会議', '', '作成日時: 2023年11月7日 16:12', 'タグ: 会議, 週次')).toEqual(['会議', '週次']);
    expect(tags('---', 'tags: [fm]', '---', '# Plan', '', 'Tags: Work')).toEqual(['fm', 'work']);
    // Only in the property paragraph under the H1 that opens the note, as its dates.
    expect(tags('# Notes', '', 'Tags: Work', 'and then some text')).toEqual([]);
    expect(tags('# Notes', '', 'Intro.', '', 'Tags: Work')).toEqual([]);
    expect(tags('Tags: Work')).toEqual([]);
    expect(tags('## Notes', '', 'Tags: Work')).toEqual([]);
  });

  it('title from a file name as Logseq writes a page name: ___ and %2F are /, other %XX decoded', () => {
    const title = (path: string) => parse('- text', path).title;
    expect(title('pages/Project___Apollo___Storage.md')).toBe('Project/Apollo/Storage');
    expect(title('pages/Recipes%2FPasta.md')).toBe('Recipes/Pasta');
    expect(title('pages/What%3F.md')).toBe('What?');
    expect(title('notes/100%.md')).toBe('100%');
    expect(title('notes/snake_case__name.md')).toBe('snake_case__name');
  });

  it('aliases: list or string, deduplicated', () => {
    expect(parse(md('---', 'aliases: [One, Two, One]', '---')).aliases).toEqual(['One', 'Two']);
    expect(parse(md('---', 'alias: Solo Name', '---')).aliases).toEqual(['Solo Name']);
    // One string is split at its commas, as Obsidian reads it; a list's item is one alias, commas and all.
    expect(parse(md('---', 'aliases: Apollo, Moonshot ,, Apollo', '---')).aliases).toEqual(['Apollo', 'Moonshot']);
    expect(parse(md('---', 'aliases:', '  - Smith, John', '  - JS', '---')).aliases).toEqual(['Smith, John', 'JS']);
    expect(parse('x').aliases).toEqual([]);
  });

  // Obsidian reads `Tags:` and `Aliases:` (/^tags?$/i, /^alias(es)?$/i), Hugo every key in any case; tsm read
  // only the lower-case keys (the handbook's `Title: Self Managed` page was titled `_index`).
  it('keys in any case: Tags, Aliases, Title, Status, Date, Type, Description, Related', () => {
    const note = parse(
      md('---', 'Title: 2024-01-02', 'Tags: [Project, b]', 'ALIASES: [AI]', 'Status: Draft', 'Date: 2023-05-06', 'Type: daily', 'Related: "[[R]]"', '---', 'body'),
    );
    expect(note).toMatchObject({ title: '2024-01-02', tags: ['project', 'b'], aliases: ['AI'], status: 'draft', date: '2023-05-06', type: 'daily' });
    expect(note.links.map((l) => `${l.kind} ${l.target}`)).toEqual(['related R']);
    expect(frontmatterDescription({ Description: 'Security Engineer' })).toBe('Security Engineer');
    // Both spellings: a list's values from both, a single value from the lower-case key.
    expect(parse(md('---', 'Title: Upper', 'title: lower', 'Tags: [b]', 'tags: [a]', '---')).title).toBe('lower');
    expect(parse(md('---', 'Tags: [b]', 'tags: [a]', '---')).tags).toEqual(['a', 'b']);
  });
});
