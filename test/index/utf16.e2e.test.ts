// UTF-16 notes with a byte order mark are read (src/text/decode.ts). Older tsm versions skipped them as binary
// files (NUL bytes); the next sync reads such a skipped file again, once, though it has not changed.
import Database from 'better-sqlite3';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

const utf16le = (text: string) => Buffer.from(`\uFEFF${text}`, 'utf16le');
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d]);
const found = (vault: string) => JSON.parse(tsm(['search', 'widebody', '-f', 'json', '--vault', vault]).stdout);

describe('UTF-16 notes', () => {
  it('are indexed and searched', () => {
    const v = makeVault({ 'wide.md': utf16le('# Wide note\r\n\r\nwidebody 日本語テキスト\r\n'), 'binary.md': BINARY });
    try {
      const r = tsm(['index', '--vault', v.dir, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ added: 1, skipped: 1 });
      expect(found(v.dir)).toMatchObject([{ path: 'wide.md', title: 'Wide note', snippet: expect.stringContaining('日本語') }]);
    } finally {
      v.cleanup();
    }
  });

  it('one an older tsm skipped as binary is read by the next `tsm index`, once, though unchanged', () => {
    const v = makeVault({ 'binary.md': BINARY });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      // What an older tsm left: the UTF-16 note skipped as binary, with the reason it gave then.
      writeFileSync(join(v.dir, 'wide.md'), utf16le('# Wide note\n\nwidebody\n'));
      const st = statSync(join(v.dir, 'wide.md'));
      const old = 'binary file (NUL bytes in the first 8 KB)';
      const db = new Database(join(v.dir, '.tsm/index.db'));
      db.prepare('INSERT INTO skipped_files (path, size, mtime_ms, ctime_ms, reason) VALUES (?, ?, ?, ?, ?)')
        .run('wide.md', st.size, Math.floor(st.mtimeMs), Math.floor(st.ctimeMs), old);
      db.prepare("UPDATE skipped_files SET reason = ? WHERE path = 'binary.md'").run(old);
      db.close();
      expect(found(v.dir)).toEqual([]);

      const again = tsm(['index', '--vault', v.dir, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ added: 1 });
      expect(found(v.dir)).toMatchObject([{ path: 'wide.md' }]);
      // Once: the binary file now has this tsm's reason, so the next sync reads nothing again (a read would
      // write its reason anew over the mark put here), and counts it as skipped still.
      const mark = new Database(join(v.dir, '.tsm/index.db'));
      mark.prepare("UPDATE skipped_files SET reason = 'mark' WHERE path = 'binary.md'").run();
      mark.close();
      expect(JSON.parse(tsm(['index', '--vault', v.dir, '--json']).stdout)).toMatchObject({ added: 0, updated: 0, unchanged: 1, skipped: 1 });
      const after = new Database(join(v.dir, '.tsm/index.db'), { readonly: true });
      expect(after.prepare("SELECT reason FROM skipped_files WHERE path = 'binary.md'").pluck().get()).toBe('mark');
      after.close();
    } finally {
      v.cleanup();
    }
  });
});
