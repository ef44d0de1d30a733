import { describe, expect, it } from 'vitest';
import { DEFAULT_TUNING, fileNameShare, fuse, listCredits, noteRecency, statusFactor, tuningOf } from '../../src/search/rank.js';

describe('rank', () => {
  it('fuses lists by reciprocal rank (k = 60)', () => {
    const s = fuse([{ ids: [1, 2, 3] }, { ids: [3, 1] }]);
    expect(s.get(1)).toBeCloseTo(1 / 61 + 1 / 62);
    expect(s.get(3)).toBeCloseTo(1 / 63 + 1 / 61);
    expect(s.get(2)).toBeCloseTo(1 / 62);
  });

  it('fuses lists by score relative to each list\'s best, its first row counting as under RRF', () => {
    // List one: scores 10, 5, 1 → 1, 0.5, 0.1 of 1/61; list two: 4, 4 → 1, 1 of 1/61.
    const s = fuse([{ ids: [1, 2, 3], scores: [10, 5, 1] }, { ids: [3, 1], scores: [4, 4], weight: 2 }], 60, 'best');
    expect(s.get(1)).toBeCloseTo(1 / 61 + 2 / 61);
    expect(s.get(2)).toBeCloseTo(0.5 / 61);
    expect(s.get(3)).toBeCloseTo(0.1 / 61 + 2 / 61);
    // By place, the same lists give rank 2 nearly what rank 1 gets; by score, what its score earned.
    expect(listCredits([10, 5, 1], 'rrf', 60)).toEqual([1 / 61, 1 / 62, 1 / 63]);
    expect(listCredits([10, 5, 1], 'minmax', 60).map((c) => c * 61)).toEqual([1, 4 / 9, 0]);
    // A list without scores is fused by place whatever the fusion.
    expect(fuse([{ ids: [7, 8] }], 60, 'best').get(8)).toBeCloseTo(1 / 62);
  });

  it('score fusion never divides by zero: equal or zero scores count alike', () => {
    expect(listCredits([0, 0], 'best', 60)).toEqual([1 / 61, 1 / 61]);
    expect(listCredits([3, 3], 'minmax', 60)).toEqual([1 / 61, 1 / 61]);
    expect(listCredits([], 'best', 60)).toEqual([]);
  });

  it('recency halves toward the floor and never hides old notes', () => {
    const now = new Date(2026, 10, 22);
    expect(noteRecency('daily', '2026-11-22', 'filename', now, DEFAULT_TUNING)).toBeCloseTo(1);
    expect(noteRecency('daily', '2026-09-23', 'filename', now, DEFAULT_TUNING)).toBeCloseTo(0.85);
    expect(noteRecency('daily', '2000-01-01', 'filename', now, DEFAULT_TUNING)).toBeGreaterThanOrEqual(0.7);
    expect(noteRecency('daily', '2000-01-01', 'mtime', now, DEFAULT_TUNING)).toBe(1);
    expect(noteRecency('daily', '2030-01-01', 'frontmatter', now, DEFAULT_TUNING)).toBe(1);
  });

  it('stale statuses rank lower but stay', () => {
    expect(statusFactor('outdated', DEFAULT_TUNING)).toBeLessThan(1);
    expect(statusFactor('outdated', DEFAULT_TUNING)).toBeGreaterThan(0);
    expect(statusFactor('current', DEFAULT_TUNING)).toBe(1);
    expect(statusFactor(null, DEFAULT_TUNING)).toBe(1);
  });
});

describe('fileNameShare', () => {
  it('is the share of the query words that are words of the file name', () => {
    expect(fileNameShare(['kanban', 'board'], 'Plugins/obsidian-kanban.md', ['.md'])).toBe(0.5);
    expect(fileNameShare(['spaced', 'repetition'], '05 - Concepts/Spaced repetition.md', ['.md'])).toBe(1);
    // Whole words only: "templater" is not "templates", and folders do not count.
    expect(fileNameShare(['templater'], 'Templater templates/🗂️ Templates.md', ['.md'])).toBe(0);
    expect(fileNameShare(['ｌｏｒａ'.normalize('NFKC').toLowerCase()], 'knowledge/lora/LoRa-Module-Guide.MD', ['.md'])).toBe(1);
    expect(fileNameShare([], 'a.md', ['.md'])).toBe(0);
  });

  it("a file name's words leave out the vault's note extension, whichever it is", () => {
    const both = ['.md', '.markdown'];
    expect(fileNameShare(['markdown'], 'notes/beta.markdown', both)).toBe(0);
    expect(fileNameShare(['txt'], 'notes/beta.txt', ['.txt'])).toBe(0);
    expect(fileNameShare(['markdown', 'tables'], 'markdown-tables.MD', both)).toBe(1);
    // another file's extension is a word of its name, as before
    expect(fileNameShare(['markdown'], 'notes/beta.markdown', ['.md'])).toBe(1);
    // the vault's extensions reach search with its tuning
    expect(tuningOf({ halfLifeDays: DEFAULT_TUNING.halfLifeDays, semantic: true, extensions: ['.txt'] }).noteExtensions).toEqual(['.txt']);
    expect(DEFAULT_TUNING.noteExtensions).toEqual(['.md']);
  });
});

describe('nameKey', () => {
  it('compares names by letters and digits only, case- and width-blind', async () => {
    const { nameKey } = await import('../../src/search/rank.js');
    expect(nameKey('Text to Speech')).toBe(nameKey('text-to-speech'));
    expect(nameKey('  ＬｏＲａ   Module! ')).toBe('lora module');
    expect(nameKey('技適')).toBe('技適');
    expect(nameKey('🗂️ Templater templates')).toBe('templater templates');
    expect(nameKey('Templater')).not.toBe(nameKey('Templater templates'));
  });
});
