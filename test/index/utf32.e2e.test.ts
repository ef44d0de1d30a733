// UTF-32 notes with a byte order mark (PowerShell's `Out-File -Encoding utf32`). Little-endian, the mark starts
// with UTF-16's: the note was read as UTF-16, a NUL between every two characters, and indexed with no word
// of it found and no warning; big-endian, it was skipped as a binary file. A UTF-32 note a tsm before this
// one skipped is read by the next `tsm index`, once.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

function utf32(text: string, littleEndian: boolean): Buffer {
  const cps = Array.from(`\uFEFF${text}`, (c) => c.codePointAt(0)!);
  const buf = Buffer.alloc(cps.length * 4);
  cps.forEach((cp, i) => (littleEndian ? buf.writeUInt32LE(cp, i * 4) : buf.writeUInt32BE(cp, i * 4)));
  return buf;
}

const found = (vault: string) =>
  (JSON.parse(tsm(['search', 'widebody', '-f', 'json', '--vault', vault]).stdout) as { path: string; title: string; snippet: string }[]).sort((a, b) =>
    a.path.localeCompare(b.path),
  );

describe('UTF-32 notes', () => {
  it('are indexed and searched; a cut one with a warning', () => {
    const v = makeVault({
      'le.md': utf32('# Little note\r\n\r\nwidebody 日本語 🚀\r\n', true),
      'be.md': utf32('# Big note\n\nwidebody text\n', false),
      'cut.md': Buffer.concat([utf32('# Cut note\n\nwidebody cut\n', true), Buffer.from([0x41])]),
    });
    try {
      const r = tsm(['index', '--vault', v.dir, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ added: 3, skipped: 0 });
      expect(found(v.dir)).toMatchObject([
        { path: 'be.md', title: 'Big note', snippet: 'widebody text' },
        { path: 'cut.md', title: 'Cut note' },
        { path: 'le.md', title: 'Little note', snippet: 'widebody 日本語 🚀' },
      ]);
      const status = JSON.parse(tsm(['status', '--json', '--vault', v.dir]).stdout) as { warningList: { path: string; message: string }[] };
      expect(status.warningList).toEqual([{ path: 'cut.md', message: 'invalid UTF-32LE: undecodable bytes replaced with U+FFFD' }]);
    } finally {
      v.cleanup();
    }
  });

  it('one a tsm before this one skipped as binary is read by the next `tsm index`, though unchanged', () => {
    const v = makeVault({ 'be.md': utf32('# Big note\n\nwidebody text\n', false) });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      // What that tsm left: the note skipped as binary, with the reason it gave.
      const db = new Database(join(v.dir, '.tsm/index.db'));
      const st = statSync(join(v.dir, 'be.md'));
      db.prepare("DELETE FROM notes WHERE path = 'be.md'").run();
      db.prepare('INSERT INTO skipped_files (path, size, mtime_ms, ctime_ms, reason) VALUES (?, ?, ?, ?, ?)').run(
        'be.md',
        st.size,
        Math.trunc(st.mtimeMs),
        Math.trunc(st.ctimeMs),
        'binary file (NUL bytes in the first 8 KB, and no UTF-16 byte order mark)',
      );
      db.close();
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      expect(found(v.dir)).toMatchObject([{ path: 'be.md', title: 'Big note' }]);
    } finally {
      v.cleanup();
    }
  });
});
