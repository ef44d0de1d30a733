// What a note's full-text rows hold (src/index/fts-rows.ts): every section's head repeats the note's
// aliases, tags and path words, at most HEAD_NAMES of each; the note's own row holds them all.
import { describe, expect, it } from 'vitest';
import { openReader } from '../../src/index/db.js';
import { ftsRows, HEAD_NAMES, noteFtsRow } from '../../src/index/fts-rows.js';
import { syncVault } from '../../src/index/sync.js';
import { search } from '../../src/search/search.js';
import { loadConfig } from '../../src/vault/config.js';
import { makeVault } from '../helpers/cli.js';

const tags = Array.from({ length: 100 }, (_, i) => `topic${i}`);

describe('section heads', () => {
  it('hold the first HEAD_NAMES aliases and tags, and the path words; the note row holds all of them', () => {
    const aliases = tags.map((t) => `alias-${t}`);
    const [row] = ftsRows('area/deep-notes.md', aliases, tags, [{ headingPath: 'Title', text: 'body' }]);
    const head = row.head.words.split(/\s+/);
    expect(head).toContain(`topic${HEAD_NAMES - 1}`);
    expect(head).not.toContain(`topic${HEAD_NAMES}`);
    expect(head.filter((w) => w.startsWith('alias-'))).toHaveLength(HEAD_NAMES);
    expect(head).toEqual(expect.arrayContaining(['area', 'deep', 'notes']));
    const own = noteFtsRow('area/deep-notes.md', 'Title', aliases, tags, [{ heading: 'Title' }], {});
    expect(own.name.words.split(/\s+/)).toEqual(expect.arrayContaining(['topic99', 'alias-topic99']));
  });

  it('a note of many tags is still found by any of them, as a word and by --tag', async () => {
    const v = makeVault({
      '.tsm/config.json': JSON.stringify({ semantic: false }),
      'tagged.md': `---\ntags: [${tags.join(', ')}]\n---\n# Tagged\n\nText of the note.\n\n## Part two\n\nMore text.\n`,
      'other.md': '# Other\n\nNothing of the kind.\n',
    });
    try {
      const cfg = loadConfig({ vaultFlag: v.dir, env: {} });
      await syncVault(cfg);
      const db = openReader(cfg.db);
      try {
        expect(search(db, { query: 'topic99', limit: 5 }).hits.map((h) => h.path)).toEqual(['tagged.md']);
        expect(search(db, { query: 'text', limit: 5, flags: { tag: ['topic77'] } }).hits.map((h) => h.path)).toEqual(['tagged.md']);
      } finally {
        db.close();
      }
    } finally {
      v.cleanup();
    }
  });
});
