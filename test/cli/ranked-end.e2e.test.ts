// tsm search -n past the ranked results: `total` counts every note holding a query word, of which only the
// best few hundred are ranked; stderr says so where the printed list ends before `total` (the Obsidian Hub's
// `tsm search -n 1000 plugin` said 6031 results and printed 325 without a word).
import { describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

describe('tsm search -n past the ranked results', () => {
  it('says that only the best are ranked, and says nothing while the page is within them', () => {
    const notes = Object.fromEntries(
      Array.from({ length: 700 }, (_, i) => [`n${String(i).padStart(3, '0')}.md`, `---\ndate: 2026-03-${String(1 + (i % 28)).padStart(2, '0')}\n---\n# Note ${i}\n\n${'walrus '.repeat(1 + (i % 7))}and filler ${i}.\n`]),
    );
    const v = makeVault({ ...notes, '.tsm/config.json': JSON.stringify({ semantic: false }) });
    try {
      expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
      const all = tsm(['search', 'walrus', '-n', '1000', '--ids'], { cwd: v.dir });
      expect(all.code).toBe(0);
      const printed = all.stdout.trim().split('\n').length;
      expect(printed).toBeLessThan(700);
      expect(all.stderr).toContain('tsm: 700 results for "walrus"');
      expect(all.stderr).toContain(`tsm: only the best ${printed} of the 700 matches are ranked, so no page goes past them`);
      const page = tsm(['search', 'walrus', '-n', '10'], { cwd: v.dir });
      expect(page.stderr).not.toContain('only the best');
      // It suggests only what the query does not use yet: `walrus 2026-03-05` was told to narrow by a date.
      expect(all.stderr).toContain('narrow the query (rarer words, a "phrase", type, tag, path or a date) to reach others');
      const dated = tsm(['search', 'walrus 2026-03-05', '-n', '1000', '--ids'], { cwd: v.dir, env: { TSM_NOW: '2026-04-10' } });
      expect(dated.stderr).toContain('narrow the query (rarer words, a "phrase", type, tag or path) to reach others');
      const flagged = tsm(['search', '"and filler" walrus', '--after', '2026-03-02', '--type', 'knowledge', '-n', '1000', '--ids'], { cwd: v.dir });
      expect(flagged.stderr).toContain('narrow the query (rarer words, tag or path) to reach others');
    } finally {
      v.cleanup();
    }
  }, 60_000);
});
