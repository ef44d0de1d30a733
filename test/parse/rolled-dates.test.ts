// A frontmatter date that is no day (`0000-00-00`, as templates and database exports write an empty date;
// `2024-02-30`) dated the note: js-yaml rolls it over to a real day (1899-11-30; 2024-03-01), so the note
// sat 126 years back (`**When:** 126 years ago`) or on a day never written. It dates nothing now.
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../src/parse/frontmatter.js';
import { MTIME, md, parse } from './helpers.js';

const mtimeDay = new Date(MTIME).toLocaleDateString('sv-SE');

describe('frontmatter dates that are no day', () => {
  it('date no note by a day they roll over to', () => {
    for (const written of ['0000-00-00', '2024-02-30', '2023-13-01', '2024-00-10T08:00:00']) {
      const note = parse(md('---', `date: ${written}`, '---', 'body'), 'n.md');
      expect([written, note.date, note.dateSource]).toEqual([written, mtimeDay, 'mtime']);
      expect(parseYaml(`date: ${written}`)).toMatchObject({ ok: true, data: { date: written.slice(0, 10) } }); // its date part, as written
    }
  });

  it('a real day still dates the note', () => {
    const note = parse(md('---', 'date: 2024-02-29', 'updated: 2024-03-01T10:00:00', '---', 'body'), 'n.md');
    expect([note.date, note.dateSource]).toEqual(['2024-02-29', 'frontmatter']);
    expect(parseYaml('created: 2024-02-29')).toMatchObject({ data: { created: '2024-02-29T00:00:00.000Z' } });
  });
});
