// Link evidence (src/search/search.ts addLinked): the notes the best results link to gain a share of their
// score, a note reached only by such a link joins the results (shown by its best section, filters and
// status applied like any note's), and notes below the first `linkDepth` pass nothing.
import { describe, expect, it } from 'vitest';
import type { Tuning } from '../../src/search/rank.js';
import { search } from '../../src/search/search.js';
import type { FilterFlags } from '../../src/search/filters.js';
import { useIndexReader } from '../helpers/fixture-vault.js';

const index = useIndexReader(() => ({
  // The team's page names the query's words and sends the reader to the handbook's rules.
  'team/zeppelin-checklist.md':
    '# Zeppelin checklist\n\nBefore a zeppelin flight, follow [[Approvals]] and read [[Mooring]].\n\n## Crew\n\nThe zeppelin crew of four.\n',
  // Shares no word with the query: reached only through the link.
  'handbook/approvals.md': '# Approvals\n\nTwo maintainers sign off on every flight plan.\n\n## Exceptions\n\nNone.\n',
  // Archived, otherwise reached the same way.
  'handbook/mooring.md': '---\nstatus: archived\n---\n# Mooring\n\nTie the ropes to the mast before nightfall.\n',
  // Two weaker matches, equal but for the link one of them gets.
  'notes/airship-history.md': '# Airship history\n\nThe airship sleeps in [[Hangars]] since 1910.\n',
  'notes/hangars.md': '# Hangars\n\nWhere the airship sleeps.\n',
  'notes/sheds.md': '# Sheds\n\nWhere the airship sleeps.\n',
  // Links to itself and to nothing: pass nothing, break nothing.
  'notes/self.md': '# Self\n\nA zeppelin page that links [[Self]] and [[Nowhere at all]].\n',
}));

function hits(query: string, tuning: Partial<Tuning> = {}, flags?: FilterFlags) {
  return search(index.db, { query, limit: 20, tuning, ...(flags ? { flags } : {}) }).hits;
}

const paths = (query: string, tuning: Partial<Tuning> = {}, flags?: FilterFlags) => hits(query, tuning, flags).map((h) => h.path);

describe('link evidence', () => {
  it('brings in a note the best results link to, though it shares no word with the query', () => {
    expect(paths('zeppelin checklist')).toContain('handbook/approvals.md');
    expect(paths('zeppelin checklist', { linkWeight: 0 })).not.toContain('handbook/approvals.md');
    // Shown by its best section (here its first: nothing in it matches the query).
    const approvals = hits('zeppelin checklist').find((h) => h.path === 'handbook/approvals.md');
    expect(approvals?.title).toBe('Approvals');
  });

  it('adds nothing when asked only to reorder', () => {
    expect(paths('zeppelin checklist', { linkAdd: false })).not.toContain('handbook/approvals.md');
  });

  it('moves a linked note above an equal one that nothing links to', () => {
    const off = Object.fromEntries(hits('airship sleeps', { linkWeight: 0 }).map((h) => [h.path, h.score]));
    const on = Object.fromEntries(hits('airship sleeps').map((h) => [h.path, h.score]));
    // Same text, same score without links; the history note links to one of them.
    expect(off['notes/hangars.md']).toBeCloseTo(off['notes/sheds.md'], 12);
    expect(on['notes/hangars.md']).toBeGreaterThan(on['notes/sheds.md']);
    expect(on['notes/sheds.md']).toBeCloseTo(off['notes/sheds.md'], 12);
  });

  it('applies the status penalty to what a link brings', () => {
    const byPath = Object.fromEntries(hits('zeppelin checklist').map((h) => [h.path, h.score]));
    expect(byPath['handbook/mooring.md']).toBeGreaterThan(0);
    expect(byPath['handbook/mooring.md'] / byPath['handbook/approvals.md']).toBeCloseTo(0.6, 6);
  });

  it('brings in no note the filters leave out', () => {
    const inTeam = paths('zeppelin checklist', {}, { path: ['team/'] });
    expect(inTeam).toEqual(['team/zeppelin-checklist.md']);
  });

  it('passes nothing from notes below the first linkDepth', () => {
    const off = paths('airship sleeps', { linkWeight: 0 });
    const at = off.indexOf('notes/airship-history.md');
    expect(at).toBeGreaterThanOrEqual(0);
    const hangars = (linkDepth: number) => hits('airship sleeps', { linkDepth }).find((h) => h.path === 'notes/hangars.md')?.score;
    const alone = hits('airship sleeps', { linkWeight: 0 }).find((h) => h.path === 'notes/hangars.md')?.score;
    // The history note is the only one linking to the hangars: above its place, nothing; at it, a share.
    expect(hangars(at)).toBeCloseTo(alone as number, 12);
    expect(hangars(at + 1)).toBeGreaterThan(alone as number);
  });

  it('ignores a note linking to itself and links to nothing', () => {
    const all = paths('zeppelin');
    expect(all.filter((p) => p === 'notes/self.md')).toHaveLength(1);
  });
});
