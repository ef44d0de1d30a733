// cjk_df must always hold what the FTS vocabulary says of every CJK term: after a build from scratch,
// through edits, deletions, renames and skips, and after --full. Searches read it instead of fts5vocab.
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ftsTokenOf, isCjkTerm } from '../../src/index/cjk-df.js';
import { analyze } from '../../src/text/analyze.js';
import { isCjkCodePoint } from '../../src/text/unicode.js';
import { openReader } from '../../src/index/db.js';
import { SectionSearch } from '../../src/index/section-search.js';
import { syncVault } from '../../src/index/sync.js';
import { loadConfig } from '../../src/vault/config.js';
import { writeFiles } from '../helpers/cli.js';
import { cjkDfDifferences } from '../resilience/index-check.js';
import { generateVault } from '../resilience/vault-gen.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function differences(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return cjkDfDifferences(db);
  } finally {
    db.close();
  }
}

function rowCount(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM cjk_df').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('isCjkTerm', () => {
  it('is one or two CJK characters', () => {
    for (const t of ['日', '日本', 'オン', 'ー', '々々', '한국', '𠀀', '𠀀日']) expect(isCjkTerm(t), t).toBe(true);
    for (const t of ['', 'a', '日a', '日本語', 'ab', '1日', '😀', '日 ']) expect(isCjkTerm(t), t).toBe(false);
  });
});

describe('ftsTokenOf', () => {
  it("is the token FTS5's tokenizer makes of each CJK term, for every CJK character alone and in a bigram", () => {
    // cjk_df counts rows by the tokens FTS5 makes of what analyze() writes: predicted here, counted there.
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(a, content = '', tokenize = 'porter unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')");
    const insert = db.prepare('INSERT INTO f (rowid, a) VALUES (?, ?)');
    const want = new Map<string, number>();
    let row = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (!isCjkCodePoint(cp)) continue;
      const ch = String.fromCodePoint(cp);
      for (const text of [ch, `${ch}日`, `日${ch}`]) {
        const cjk = analyze(text).cjk;
        if (!cjk) continue;
        insert.run(++row, cjk);
        const tokens = new Set(cjk.split(' ').map(ftsTokenOf).filter(Boolean));
        for (const t of tokens) want.set(t, (want.get(t) ?? 0) + 1);
      }
    }
    const got = new Map((db.prepare('SELECT term, doc FROM v').all() as { term: string; doc: number }[]).map((r) => [r.term, r.doc]));
    db.close();
    expect(row).toBeGreaterThan(300_000);
    const diff = [...new Set([...want.keys(), ...got.keys()])].filter((t) => want.get(t) !== got.get(t));
    expect(diff.slice(0, 10).map((t) => `${t}: predicted ${want.get(t)}, indexed ${got.get(t)}`)).toEqual([]);
    expect(ftsTokenOf('\u2e80日')).toBe('日');
  });
});

describe('cjk_df', () => {
  it('equals the FTS vocabulary after a build, edits, deletions, renames, skips and --full', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsm-cjkdf-'));
    dirs.push(dir);
    const files = generateVault(21, 50).files;
    writeFiles(dir, { ...files, '.tsm/.keep': '' });
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    await syncVault(cfg);
    expect(rowCount(cfg.db)).toBeGreaterThan(100);
    expect(differences(cfg.db)).toEqual([]);

    const notes = Object.keys(files).filter((p) => p.endsWith('.md'));
    appendFileSync(join(dir, notes[0]), '\n\n## 追記\n\n量子コンピュータの誤り訂正について。\n');
    await syncVault(cfg);
    expect(differences(cfg.db)).toEqual([]);

    rmSync(join(dir, notes[1]));
    renameSync(join(dir, notes[2]), join(dir, 'moved-note.md'));
    writeFileSync(join(dir, notes[3]), Buffer.from([0, 1, 2, 3, 0xff])); // binary: skipped
    writeFileSync(join(dir, 'new.md'), '# 新しいノート\n\n深層学習と強化学習の違い。');
    await syncVault(cfg);
    expect(differences(cfg.db)).toEqual([]);

    await syncVault(cfg, { full: true });
    expect(differences(cfg.db)).toEqual([]);
  });

  it('gives searches the counts fts5vocab would', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsm-cjkdf-'));
    dirs.push(dir);
    writeFiles(dir, { ...generateVault(22, 30).files, '.tsm/.keep': '' });
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    await syncVault(cfg);
    const db = openReader(cfg.db);
    try {
      const vocab = db.prepare("SELECT term, doc FROM sections_vocab WHERE term >= '\u1100' LIMIT 200").all() as { term: string; doc: number }[];
      const cjk = vocab.map((r) => r.term).filter(isCjkTerm);
      expect(cjk.length).toBeGreaterThan(20);
      const got = new SectionSearch(db).docFrequencies([], [...cjk, '存在しない']);
      expect(Object.fromEntries(got)).toEqual(Object.fromEntries(vocab.filter((r) => isCjkTerm(r.term)).map((r) => [r.term, r.doc])));
    } finally {
      db.close();
    }
  });
});
