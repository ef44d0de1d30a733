// Link evidence (src/search/search.ts addLinked): the notes the best results link to gain a share of their
// score, multiplied by the target's own factor (status here); a linked note that holds none of the query's
// words is never added; and notes below the first `linkDepth` pass nothing.
import { describe, expect, it } from 'vitest';
import type { Tuning } from '../../src/search/rank.js';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';

const index = useIndexReader(() => ({
  // The team's page names the query's words and sends the reader to the handbook's rules.
  'team/zeppelin-checklist.md':
    '# Zeppelin checklist\n\nBefore a zeppelin flight, follow [[Approvals]], read [[Mooring]] and [[Weather]].\n\n## Crew\n\nThe zeppelin crew of four.\n',
  // Say the query's word once; the second is archived.
  'handbook/approvals.md': '# Approvals\n\nTwo maintainers sign off on every zeppelin flight plan.\n',
  'handbook/mooring.md': '---\nstatus: archived\n---\n# Mooring\n\nTwo maintainers sign off on every zeppelin flight plan.\n',
  // Linked from the first result, but shares no word with the query.
  'handbook/weather.md': '# Weather\n\nWind above forty knots grounds everything.\n',
  // Two weaker matches, equal but for the link one of them gets.
  'notes/airship-history.md': '# Airship history\n\nThe airship sleeps in [[Hangars]] since 1910.\n',
  'notes/hangars.md': '# Hangars\n\nWhere the airship sleeps.\n',
  'notes/sheds.md': '# Sheds\n\nWhere the airship sleeps.\n',
  // Links to itself and to nothing: pass nothing, break nothing.
  'notes/self.md': '# Self\n\nA zeppelin page that links [[Self]] and [[Nowhere at all]].\n',
  // Other topics, so that `zeppelin` stays a rare enough word to search with (search prunes the common ones).
  ...Object.fromEntries(
    ['gardening', 'baking', 'cycling', 'painting', 'chess', 'sailing', 'knitting', 'hiking', 'pottery', 'fishing', 'rowing', 'juggling'].map(
      (topic) => [`misc/${topic}.md`, `# ${topic}\n\nNotes on ${topic} and nothing else.\n`],
    ),
  ),
}));

function hits(query: string, tuning: Partial<Tuning> = {}) {
  return search(index.db, { query, limit: 20, tuning }).hits;
}

const scores = (query: string, tuning: Partial<Tuning> = {}) => Object.fromEntries(hits(query, tuning).map((h) => [h.path, h.score]));

describe('link evidence', () => {
  it('moves a linked note above an equal one that nothing links to', () => {
    const off = scores('airship sleeps', { linkWeight: 0 });
    const on = scores('airship sleeps');
    // Same text, same score without links; the history note links to one of them.
    expect(off['notes/hangars.md']).toBeCloseTo(off['notes/sheds.md'], 12);
    expect(on['notes/hangars.md']).toBeGreaterThan(on['notes/sheds.md']);
    expect(on['notes/sheds.md']).toBeCloseTo(off['notes/sheds.md'], 12);
  });

  it('never adds a linked note that holds none of the query words', () => {
    const on = hits('zeppelin checklist').map((h) => h.path);
    expect(on[0]).toBe('team/zeppelin-checklist.md');
    expect(on).toContain('handbook/approvals.md');
    expect(on).not.toContain('handbook/weather.md');
  });

  it('multiplies the credit by the target’s own factor, as its score is', () => {
    const off = scores('zeppelin checklist', { linkWeight: 0 });
    const on = scores('zeppelin checklist');
    expect(on['handbook/approvals.md']).toBeGreaterThan(off['handbook/approvals.md']);
    // The archived twin: × 0.6 on its own score and on what the link brings.
    expect(on['handbook/mooring.md'] / on['handbook/approvals.md']).toBeCloseTo(0.6, 9);
    expect(off['handbook/mooring.md'] / off['handbook/approvals.md']).toBeCloseTo(0.6, 9);
  });

  it('passes nothing from notes below the first linkDepth', () => {
    const off = hits('airship sleeps', { linkWeight: 0 }).map((h) => h.path);
    const at = off.indexOf('notes/airship-history.md');
    expect(at).toBeGreaterThanOrEqual(0);
    const alone = scores('airship sleeps', { linkWeight: 0 })['notes/hangars.md'];
    // The history note is the only one linking to the hangars: above its place, nothing; at it, a share.
    expect(scores('airship sleeps', { linkDepth: at })['notes/hangars.md']).toBeCloseTo(alone, 12);
    expect(scores('airship sleeps', { linkDepth: at + 1 })['notes/hangars.md']).toBeGreaterThan(alone);
  });

  it('ignores a note linking to itself and links to nothing', () => {
    const off = scores('zeppelin', { linkWeight: 0 });
    const on = scores('zeppelin');
    expect(on['notes/self.md']).toBeCloseTo(off['notes/self.md'], 12);
  });
});
