// Neighbouring query words written as one in the vault (`mind map` → `mindmap`): searched beside the
// words, and only when the vault holds the joined word (a long prompt's made-up pairs never displace
// its real words among the rarest terms kept).
import { describe, expect, it } from 'vitest';
import { search } from '../../src/search/search.js';
import { useIndexReader } from '../helpers/fixture-vault.js';

const index = useIndexReader(() => ({
  'plugins/enhancing-mindmap.md': '# Enhancing Mindmap\n\nDraw your outline as a mindmap and fold its branches.\n',
  'plugins/map-view.md': '# Map View\n\nShow places from your notes on a map.\n',
  'concepts/mind.md': '# Theory of mind\n\nWhat the mind knows about other minds.\n',
}));

const paths = (query: string, joinPairs = true) =>
  search(index.db, {
    query,
    limit: 10,
    tuning: { cutter: { dropHiragana: true, trimTails: true, splitScripts: true, joinPairs } },
  }).hits.map((h) => h.path);

describe('joined words', () => {
  it('find the note that writes the two words as one', () => {
    expect(paths('mind map')).toContain('plugins/enhancing-mindmap.md');
    expect(paths('mind map', false)).not.toContain('plugins/enhancing-mindmap.md');
    expect(paths('mindmap plugin')[0]).toBe('plugins/enhancing-mindmap.md');
  });

  it('change nothing when the vault never writes the pair as one word', () => {
    expect(paths('map places')).toEqual(paths('map places', false));
  });
});
