import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { foldExtraSections } from '../../src/index/fts-rows.js';
import { MAX_SECTIONS_PER_NOTE, noteOfSection, noteOfSectionSql, ordOfSection, sectionId } from '../../src/index/section-ids.js';
import { parseNote } from '../../src/parse/parse-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';

describe('section ids', () => {
  it('carry their note and order, in JS and in SQL alike', () => {
    const db = new Database(':memory:');
    try {
      for (const [note, ord] of [
        [1, 0],
        [1, 7],
        [4560, MAX_SECTIONS_PER_NOTE - 1],
        [2 ** 32, 12],
      ]) {
        const id = sectionId(note, ord);
        expect([noteOfSection(id), ordOfSection(id)]).toEqual([note, ord]);
        expect(db.prepare(`SELECT ${noteOfSectionSql('?')} AS n`).pluck().get(id)).toBe(note);
      }
      expect(sectionId(2, 0)).toBeGreaterThan(sectionId(1, MAX_SECTIONS_PER_NOTE - 1));
    } finally {
      db.close();
    }
  });

  it('a note with more sections than ids allow keeps every word, in its last section', () => {
    const md = ['# T', ...Array.from({ length: 6 }, (_, i) => `## H${i}\n\nword${i}`)].join('\n\n');
    const note = parseNote({ path: 'n.md', content: md, mtimeMs: 0 }, DEFAULT_PARSE_OPTIONS);
    const folded = foldExtraSections(note, 3);
    expect(folded.sections).toHaveLength(3);
    const all = folded.sections.map((s) => s.text).join(' ');
    for (let i = 0; i < 6; i++) expect(all).toContain(`word${i}`);
    expect(folded.sections[2].endLine).toBe(note.sections[note.sections.length - 1].endLine);
    expect(folded.warnings.at(-1)).toMatch(/indexed as one/);
    expect(foldExtraSections(note, 100)).toBe(note);
  });
});
