// C++, C# and F# are searched as words (src/text/normalize.ts searchText): the word tokenizer cut each to
// `c` or `f`, and a one-letter word is never searched, so `C++` found every note with a `c` (a plain C
// note first). An index of schema 13, which cut them so, is brought to the current schema in place,
// keeping its vectors, into the very index a clean build writes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openReader, openWriter, type Database as Db } from '../../src/index/db.js';
import { ftsRows } from '../../src/index/fts-rows.js';
import { SECTION_FTS_COLUMNS } from '../../src/index/schema.js';
import { syncVault } from '../../src/index/sync.js';
import { CjkDocFrequencies } from '../../src/index/cjk-df.js';
import { search } from '../../src/search/search.js';
import { namesEveryTerm } from '../../src/search/display-section.js';
import { queryTerms } from '../../src/search/query-terms.js';
import { nameKey } from '../../src/search/rank.js';
import { bestSnippet } from '../../src/search/snippet.js';
import { searchText } from '../../src/text/normalize.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { writeFiles } from '../helpers/cli.js';
import { embedAll, expectMigratedInPlace, writeFtsRowsAs } from '../helpers/migration.js';
import { useTwoTinyModels } from '../helpers/tiny-model.js';

describe('searchText', () => {
  it.each([
    ['C++ templates', 'cpp templates'],
    ['Learn C# and F#.', 'learn csharp and fsharp.'],
    ['C++17 and C++20', 'cpp 17 and cpp 20'],
    ['(c++)', '(cpp)'],
    ['ｃ＋＋', 'cpp'],
    ['日本語のc#と漢字', '日本語のcsharpと漢字'],
    ['f#/c++', 'fsharp/cpp'],
  ])('%j → %j', (text, searched) => {
    expect(searchText(text)).toBe(searched);
  });

  it.each(['abc#', 'c#x', 'c+', 'a + b', '#c', 'x++', 'g++', 'c ++', 'issue #12', 'c++x', 'éc++', '𝑎c#', '_c#', 'c#_', 'c++#', 'c#é', '2c++'])('leaves %j as normalize() has it', (text) => {
    expect(searchText(text)).toBe(text.normalize('NFKC').toLowerCase());
  });
});

const models = useTwoTinyModels('tsm-symbols-');

const FILES: Record<string, string> = {
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'cpp.md': '# C++ templates\n\nVariadic templates in C++ need care.\n',
  'cs.md': '# C# async\n\nawait in C# tasks.\n',
  'c.md': '# Plain C\n\nA C program with malloc, and a c) item.\n',
  'fs.md': '# Pipelines\n\nF# pipes values with |>.\n',
};

async function vault(name: string): Promise<TsmConfig> {
  const dir = join(models.root, name);
  rmSync(dir, { recursive: true, force: true });
  writeFiles(dir, FILES);
  const cfg = loadConfig({ vaultFlag: dir, env: {} });
  await syncVault(cfg);
  return cfg;
}

const paths = (db: Db, query: string) => search(db, { query, limit: 10 }).hits.map((h) => h.path);

const MATCHES = ['cpp', 'csharp', 'fsharp', 'c', 'templates', 'program'];

/** Every section row's bm25() for each match, by path and order: equal rows and statistics give equal scores. */
function allScores(db: Db): Record<string, Record<string, number>> {
  const sql = `SELECT n.path || ':' || s.ord AS at, bm25(sections_fts) AS s FROM sections_fts f JOIN sections s ON s.id = f.rowid
    JOIN notes n ON n.id = s.note_id WHERE sections_fts MATCH ? ORDER BY at`;
  return Object.fromEntries(
    MATCHES.map((m) => [m, Object.fromEntries((db.prepare(sql).all(m) as { at: string; s: number }[]).map((r) => [r.at, Number(r.s.toFixed(9))]))]),
  );
}

describe('C++, C# and F# in search', () => {
  it('are found as themselves, by their symbols or spelled out, and a snippet shows the symbol', async () => {
    const cfg = await vault('search');
    const db = openReader(cfg.db);
    try {
      expect(paths(db, 'C++')).toEqual(['cpp.md']);
      expect(paths(db, 'cpp')).toEqual(['cpp.md']);
      expect(paths(db, 'C#')).toEqual(['cs.md']);
      expect(paths(db, 'F#')).toEqual(['fs.md']);
      expect(paths(db, '"C# tasks"')).toEqual(['cs.md']);
      expect(paths(db, 'c program')).toEqual(['c.md']);
    } finally {
      db.close();
    }
    expect(bestSnippet('Long text first. '.repeat(10) + 'Variadic templates in C++ need care.', ['cpp'], 40)).toContain('C++');
  });
});

describe('C++, C# and F# in note names', () => {
  it('name the notes of that name only: a note titled C# is not named by `C++`', async () => {
    expect(new Set(['C', 'C++', 'C#', 'F#', 'F'].map(nameKey)).size).toBe(5);
    expect(namesEveryTerm(['C++ tips'], queryTerms('C++ tips'))).toBe(true);
    expect(namesEveryTerm(['C# tips'], queryTerms('C++ tips'))).toBe(false);
    const dir = join(models.root, 'named');
    rmSync(dir, { recursive: true, force: true });
    writeFiles(dir, {
      '.tsm/config.json': JSON.stringify({ semantic: false }),
      'csharp.md': '# C#\n\nLINQ and async in C#. Calling into C++ code needs P/Invoke.\n',
      'templates.md': '# Templates\n\nC++ templates, C++ concepts and C++ move semantics in modern C++.\n',
    });
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    await syncVault(cfg);
    const db = openReader(cfg.db);
    try {
      expect(paths(db, 'C++')).toEqual(['templates.md', 'csharp.md']);
      expect(paths(db, 'C#')).toEqual(['csharp.md']);
    } finally {
      db.close();
    }
  });
});

describe('an index of schema 13', () => {
  it('is brought to the current schema in place: C++ is found, the vectors kept, the index equal to a clean build', async () => {
    const cfg = await vault('migrate');
    const vectors = await embedAll(cfg.db, models.embedder);
    downgradeTo13(cfg.db);
    const old = new Database(cfg.db, { readonly: true });
    try {
      // What schema 13 had: `c++` cut to `c`, no `cpp` anywhere.
      expect(old.prepare("SELECT count(*) FROM sections_fts WHERE sections_fts MATCH 'body_words: cpp'").pluck().get()).toBe(0);
    } finally {
      old.close();
    }
    expectMigratedInPlace(cfg.db, vectors);
    const clean = await vault('migrate-clean');
    const db = openReader(cfg.db);
    const cleanDb = openReader(clean.db);
    try {
      expect(paths(db, 'C++')).toEqual(['cpp.md']);
      expect(allScores(db)).toEqual(allScores(cleanDb));
    } finally {
      db.close();
      cleanDb.close();
    }
  });
});

describe('an index of schema 13 with a note of more than HEAD_NAMES aliases and tags', () => {
  it('gets the document frequencies of the CJK terms a clean build has, not those of the heads schema 13 wrote', async () => {
    const cities = ['東京', '大阪', '京都', '神戸', '横浜', '札幌', '仙台', '広島', '福岡', '那覇', '金沢', '新潟', '長野', '静岡', '岐阜', '奈良'];
    const names = [...cities, ...cities.map((c) => `${c}駅`), ...cities.map((c) => `${c}港`)]; // 48 > HEAD_NAMES
    const files = {
      '.tsm/config.json': JSON.stringify({ semantic: false }),
      'cities.md': `---\ntags: [${names.map((n) => `"${n}"`).join(', ')}]\naliases: [${names.map((n) => `"${n}市"`).join(', ')}]\n---\n# 都市\n\n## 一\n\n本文\n\n## 二\n\n本文\n`,
      'trip.md': '# 旅行\n\n奈良港と岐阜駅へ行った。\n',
    };
    const dir = join(models.root, 'cjk-heads');
    rmSync(dir, { recursive: true, force: true });
    writeFiles(dir, files);
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    await syncVault(cfg);
    const cjkDf = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT term, doc FROM cjk_df ORDER BY term').all();
      } finally {
        db.close();
      }
    };
    const clean = cjkDf(cfg.db);
    // What schema 13 wrote: every alias and tag in every section's head (as one name each, the same words),
    // and cjk_df counting them.
    const db = new Database(cfg.db);
    try {
      db.transaction(() => {
        const n = db.prepare("SELECT id, path, aliases, tags FROM notes WHERE path = 'cities.md'").get() as { id: number; path: string; aliases: string; tags: string };
        const sections = db.prepare('SELECT id, heading_path AS headingPath, text FROM sections WHERE note_id = ? ORDER BY ord').all(n.id) as { id: number; headingPath: string; text: string }[];
        const del = db.prepare(`INSERT INTO sections_fts (sections_fts, rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES ('delete', ?, ?, ?, ?, ?)`);
        const ins = db.prepare(`INSERT INTO sections_fts (rowid, ${SECTION_FTS_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`);
        const aliases = JSON.parse(n.aliases) as string[];
        const tags = JSON.parse(n.tags) as string[];
        for (const row of ftsRows(n.path, aliases, tags, sections)) del.run(sections[row.ord].id, row.head.words, row.body.words, row.head.cjk, row.body.cjk);
        for (const row of ftsRows(n.path, [aliases.join(' ')], [tags.join(' ')], sections)) ins.run(sections[row.ord].id, row.head.words, row.body.words, row.head.cjk, row.body.cjk);
        new CjkDocFrequencies(db).refill();
        db.prepare("UPDATE meta SET value = '13' WHERE key = 'schema_version'").run();
      })();
    } finally {
      db.close();
    }
    expect(cjkDf(cfg.db)).not.toEqual(clean);
    openWriter(cfg.db).db.close();
    expect(cjkDf(cfg.db)).toEqual(clean);
  });
});

/** Makes a current index what schema 13 wrote: its text analysed with `+` and `#` cutting words, version 13. */
function downgradeTo13(file: string): void {
  writeFtsRowsAs(file, 13, (t) => t.replace(/[+#]/g, ' '));
}
