// A variation selector after a CJK character (葛󠄀飾: 葛 in its registered glyph, U+E0100; 辻︀ with U+FE00) picks
// a glyph, not a character: the text analysed drops it (src/text/normalize.ts dropCjkSelectors), so 葛飾 finds
// 葛󠄀飾. It used to cut the CJK run in two, and no bigram 葛飾 was indexed. An index of schema 14, which cut
// it so, is brought to the current schema in place into the index a clean build writes; rows of the old cut
// left in place were deleted with other values than they were written with, and FTS5 called the index damaged.
import { describe, expect, it } from 'vitest';
import { openReader, type Database as Db } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { search } from '../../src/search/search.js';
import { bestSnippet } from '../../src/search/snippet.js';
import { dropCjkSelectors, searchText } from '../../src/text/normalize.js';
import { writeFiles } from '../helpers/cli.js';
import { syncedVaults } from '../helpers/synced-vaults.js';
import { expectMigratedInPlace, writeFtsRowsAs } from '../helpers/migration.js';

const IVS = '\u{E0100}';
const FILES = {
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'address.md': `# 住所\n\n東京都葛${IVS}飾区の倉庫に発送した。\n`,
  'meeting.md': '# 打ち合わせ\n\n辻\ufe00本さんと打ち合わせ。\n',
  'plain.md': '# 葛西\n\n葛西臨海公園の下見。⚠️注意 ℹ️Info\n',
};

const vault = syncedVaults('tsm-vs-', FILES);

const paths = (db: Db, query: string) => search(db, { query, limit: 10 }).hits.map((h) => h.path);

/** Every section row's bm25() for each match, by path and order: equal rows and statistics give equal scores. */
function allScores(db: Db): Record<string, Record<string, number>> {
  const sql = `SELECT n.path || ':' || s.ord AS at, bm25(sections_fts) AS s FROM sections_fts f JOIN sections s ON s.id = f.rowid
    JOIN notes n ON n.id = s.note_id WHERE sections_fts MATCH ? ORDER BY at`;
  return Object.fromEntries(
    ['葛飾', '飾区', '辻本', '葛西', 'info'].map((m) => [
      m,
      Object.fromEntries((db.prepare(sql).all(`"${m}"`) as { at: string; s: number }[]).map((r) => [r.at, Number(r.s.toFixed(9))])),
    ]),
  );
}

describe('dropCjkSelectors', () => {
  it('drops a selector after a CJK character, keeps one after anything else', () => {
    expect(dropCjkSelectors(`葛${IVS}飾`)).toBe('葛飾');
    expect(dropCjkSelectors('辻\ufe00本')).toBe('辻本');
    expect(dropCjkSelectors(`𠮷${IVS}野家`)).toBe('𠮷野家');
    expect(dropCjkSelectors('⚠\ufe0f注意')).toBe('⚠\ufe0f注意');
    expect(dropCjkSelectors('i\ufe0finfo')).toBe('i\ufe0finfo');
    expect(searchText(`東京都葛${IVS}飾区`)).toBe('東京都葛飾区');
  });

  it('a snippet shows the text as written, the match found', () => {
    const text = `${'前置きの文章。'.repeat(30)}東京都葛${IVS}飾区の倉庫に発送した。${'後書きの文章。'.repeat(30)}`;
    expect(bestSnippet(text, ['葛飾'], 40)).toContain(`葛${IVS}飾区`);
  });
});

describe('a variation selector after a CJK character', () => {
  it('does not cut the word: 葛飾 finds 葛󠄀飾, 辻本 finds 辻︀本', async () => {
    const cfg = await vault('search');
    const db = openReader(cfg.db);
    try {
      expect(paths(db, '葛飾')).toEqual(['address.md']);
      expect(paths(db, '辻本')).toEqual(['meeting.md']);
      expect(paths(db, `"葛${IVS}飾区"`)).toEqual(['address.md']);
    } finally {
      db.close();
    }
  });
});

describe('an index of schema 14', () => {
  it('is brought to the current schema in place, equal to a clean build, and stays sound when a note changes', async () => {
    const cfg = await vault('migrate');
    downgradeTo14(cfg.db);
    expectMigratedInPlace(cfg.db);
    const clean = await vault('clean');
    let db = openReader(cfg.db);
    const cleanDb = openReader(clean.db);
    try {
      expect(paths(db, '葛飾')).toEqual(['address.md']);
      expect(allScores(db)).toEqual(allScores(cleanDb));
    } finally {
      db.close();
      cleanDb.close();
    }
    // The old rows are gone: rewriting the note deletes exactly the rows the migration wrote.
    writeFiles(cfg.vault, { 'address.md': `# 住所\n\n東京都葛${IVS}飾区の倉庫に発送した。追記あり。\n` });
    await syncVault(cfg);
    db = openReader(cfg.db);
    try {
      expect(paths(db, '葛飾')).toEqual(['address.md']);
      expect(paths(db, '追記')).toEqual(['address.md']);
    } finally {
      db.close();
    }
  });
});

/** The full-text rows schema 14 wrote: a selector after a CJK character parted the run, as a space does. */
function downgradeTo14(file: string): void {
  const cut = (t: string) => t.replace(/([\u3400-\u9fff])(?:[\ufe00-\ufe0f]|\udb40[\udd00-\uddef])/g, '$1 ');
  writeFtsRowsAs(file, 14, cut, (db) => expect(db.prepare("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH '\"葛飾\"'").pluck().get()).toBe(0));
}
