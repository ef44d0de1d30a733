// A note titled `title: 2024-01-02` was stored by older tsm versions as 2024-01-02T00:00:00.000Z; the next
// sync parses such a note again (its file unchanged) so an existing index gets the title as written.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

describe('date titles', () => {
  it('an index holding the ISO form of a date title is corrected by the next `tsm index`, without --full', () => {
    const v = makeVault({ 'day.md': '---\ntitle: 2024-01-02\n---\n# body\n\ntext\n', 'other.md': '# other\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const title = () => JSON.parse(tsm(['related', 'day.md', '--json', '--vault', v.dir]).stdout).title;
      expect(title()).toBe('2024-01-02');
      // What an older tsm left: the ISO timestamp as the title.
      const db = new Database(join(v.dir, '.tsm/index.db'));
      db.prepare("UPDATE notes SET title = '2024-01-02T00:00:00.000Z' WHERE path = 'day.md'").run();
      db.close();
      expect(title()).toBe('2024-01-02T00:00:00.000Z');
      const r = tsm(['index', '--vault', v.dir, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(title()).toBe('2024-01-02');
      expect(JSON.parse(tsm(['index', '--vault', v.dir, '--json']).stdout)).toMatchObject({ updated: 0, added: 0 });
    } finally {
      v.cleanup();
    }
  });
});
