// A day written as Japanese notes write it (2026年7月18日) or in full-width digits dates a note; an older tsm
// dated such a note by its file's mtime. The next sync parses those notes again (their files unchanged), so
// an existing index gets their dates without --full, and a sync after that reads nothing again.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

/** Every note's path, type, date and where the date came from, by path. */
function datesOf(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT path, type, date, date_source AS src FROM notes ORDER BY path').all();
  } finally {
    db.close();
  }
}

/** Leaves the index as an older tsm wrote it: these statements, on the index's own rows. */
function asOlderTsm(path: string, ...statements: string[]): void {
  const db = new Database(path);
  try {
    for (const sql of statements) db.prepare(sql).run();
  } finally {
    db.close();
  }
}

describe('days written in Japanese, in an index an older tsm wrote', () => {
  it('are read by the next `tsm index`, once', () => {
    const v = makeVault({
      'meeting.md': '---\ndate: 2026年7月18日\n---\n# 定例\n\n議事録\n',
      'wide.md': '---\ncreated: ２０２６-０７-１９\n---\n# 幅\n\n全角の日付\n',
      '2026年7月20日.md': '# 日記\n\n晴れ\n',
      'plain.md': '# plain\n\nno date at all\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const path = join(v.dir, '.tsm/index.db');
      const rows = () => datesOf(path);
      const dated = [
        { path: '2026年7月20日.md', type: 'daily', date: '2026-07-20', src: 'filename' },
        { path: 'meeting.md', type: 'knowledge', date: '2026-07-18', src: 'frontmatter' },
        { path: 'wide.md', type: 'knowledge', date: '2026-07-19', src: 'frontmatter' },
      ];
      expect(rows().filter((r) => (r as { path: string }).path !== 'plain.md')).toEqual(dated);
      // What an older tsm left: those notes dated by mtime, the dated file name typed knowledge.
      asOlderTsm(path, "UPDATE notes SET date = '2000-01-01', date_source = 'mtime', type = 'knowledge' WHERE path <> 'plain.md'");
      const first = tsm(['index', '--vault', v.dir, '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ updated: 3, added: 0 });
      expect(rows().filter((r) => (r as { path: string }).path !== 'plain.md')).toEqual(dated);
      // Read once: an mtime-dated note without such a day is never read again for it.
      expect(JSON.parse(tsm(['index', '--vault', v.dir, '--json']).stdout)).toMatchObject({ updated: 0, added: 0 });
    } finally {
      v.cleanup();
    }
  });

  it('are read again too when the day is in a file name of full-width digits, or in a frontmatter date that outranks the file name', () => {
    const v = makeVault({
      '２０２６-０７-２１.md': '# 全角の日記\n\n曇り\n',
      '2026－07－22.md': '# 全角のハイフン\n\n雨\n',
      'slashes.md': '---\nupdated: 2026／07／23\n---\n# 全角のスラッシュ\n\n風\n',
      '2026-07-01 plan.md': '---\ndate: 2026年7月24日\n---\n# 計画\n\n日付は本文の方\n',
      '第１回.md': '# 第１回\n\n日付ではない全角数字\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const path = join(v.dir, '.tsm/index.db');
      const rows = () => datesOf(path);
      const clean = rows();
      expect(clean).toEqual(
        expect.arrayContaining([
          { path: '２０２６-０７-２１.md', type: 'daily', date: '2026-07-21', src: 'filename' },
          { path: '2026－07－22.md', type: 'daily', date: '2026-07-22', src: 'filename' },
          { path: 'slashes.md', type: 'knowledge', date: '2026-07-23', src: 'frontmatter' },
          { path: '2026-07-01 plan.md', type: 'daily', date: '2026-07-24', src: 'frontmatter' },
        ]),
      );
      // What an older tsm left: the full-width names and the slashes dated by mtime and typed knowledge,
      // the plan dated by its file name.
      asOlderTsm(
        path,
        "UPDATE notes SET date = '2000-01-01', date_source = 'mtime', type = 'knowledge' WHERE path IN ('２０２６-０７-２１.md', '2026－07－22.md', 'slashes.md')",
        "UPDATE notes SET date = '2026-07-01', date_source = 'filename' WHERE path = '2026-07-01 plan.md'",
      );
      const first = tsm(['index', '--vault', v.dir, '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ updated: 4, added: 0 });
      expect(rows()).toEqual(clean);
      expect(JSON.parse(tsm(['index', '--vault', v.dir, '--json']).stdout)).toMatchObject({ updated: 0, added: 0 });
    } finally {
      v.cleanup();
    }
  });

  it('are not read again at every sync where a name or a date only looks like one', () => {
    const v = makeVault({
      '1年生の月曜日.md': '# 月曜\n\n一年生\n',
      '2024年/03月/日報.md': '# 日報\n\n作業\n',
      '2026年2月30日.md': '# ない日\n\n二月三十日\n',
      'fiscal.md': '---\ndate: 2024年度\n---\n# 年度\n\n予算\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const again = tsm(['index', '--vault', v.dir, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, added: 0, unchanged: 4 });
    } finally {
      v.cleanup();
    }
  });
});
