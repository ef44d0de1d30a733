// A frontmatter value js-yaml reads as a number that no reader of the note sees: YAML 1.1's base 60 (`start:
// 12:30` was 750; Obsidian's properties and YAML 1.2 read it as text), and a title in any number form (`title:
// 12:30` was "750", `title: 007` "7"), which is text a person reads, as a title written as a date is.
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/parse/frontmatter.js';
import { md, parse } from './helpers.js';

describe('numbers as written', () => {
  it('a base-60 value keeps its text, any key', () => {
    expect(parseYaml('start: 12:30\nlength: 1:02:03 # h:m:s\nneg: -1:30')).toMatchObject({ ok: true, data: { start: '12:30', length: '1:02:03', neg: '-1:30' } });
  });

  it('a title keeps the text written in every number form', () => {
    for (const written of ['12:30', '007', '1e3', '0x1F', '1_000', '3.10', '.5']) {
      expect(parse(md('---', `title: ${written}`, '---', 'body'), 'n.md').title, written).toBe(written);
    }
    expect(parseYaml('Title: 007')).toMatchObject({ data: { Title: '007' } });
  });

  it('other numbers stay numbers, and quoted or nested values are as YAML reads them', () => {
    expect(parseYaml('priority: 007\nscore: 1e3\nq: "12:30"\nlist: [12:30]\ntitle: 42')).toMatchObject({
      ok: true,
      data: { priority: 7, score: 1000, q: '12:30', list: [750], title: 42 },
    });
  });
});

describe('dates in names and words', () => {
  // A tag, alias, status or type written as a date was its timestamp: `tags: [2026-01-01]` was indexed as the
  // tag `2026-01-01t00:00:00.000z`, `status: 2026-03-03` as `2026-03-03t00:00:00.000z`.
  it('keep the day written', () => {
    const note = parse(md('---', 'tags: [2026-01-01, project]', 'aliases: [2025-12-31]', 'status: 2026-03-03', '---', 'body'), 'n.md');
    expect(note.tags).toEqual(['2026-01-01', 'project']);
    expect(note.aliases).toEqual(['2025-12-31']);
    expect(note.status).toBe('2026-03-03');
    expect(parseYaml('Tags: 2026-01-01\ncreated: 2026-01-01')).toMatchObject({ data: { Tags: '2026-01-01', created: '2026-01-01T00:00:00.000Z' } });
  });
});
