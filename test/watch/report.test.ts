import { describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/core/types.js';
import { formatBatchLine, formatInitialLine } from '../../src/watch/report.js';

const summary = (s: Partial<SyncSummary>): SyncSummary => ({
  added: 0,
  updated: 0,
  removed: 0,
  unchanged: 0,
  skipped: 0,
  warnings: 0,
  seconds: 0,
  ...s,
});

describe('formatBatchLine', () => {
  it('says what changed, how long it took and which paths', () => {
    expect(formatBatchLine({ paths: ['a.md', 'b.md'], rescanReasons: [], summary: summary({ updated: 1, removed: 1 }), ms: 41.6 })).toBe(
      'tsm watch: 1 updated, 1 removed in 42 ms (a.md, b.md)',
    );
  });
  it('counts and names the attachments a batch checked', () => {
    expect(formatBatchLine({ paths: ['a.md'], rescanReasons: [], attachments: ['p.png', 'q.pdf'], summary: summary({ updated: 1 }), ms: 4 })).toBe(
      'tsm watch: 1 updated, 2 attachments checked in 4 ms (a.md, p.png, q.pdf)',
    );
    expect(formatBatchLine({ paths: [], rescanReasons: [], attachments: ['p.png'], summary: summary({}), ms: 2 })).toBe(
      'tsm watch: 1 attachment checked in 2 ms (p.png)',
    );
  });
  it('shortens long path lists', () => {
    const paths = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'];
    expect(formatBatchLine({ paths, rescanReasons: [], summary: summary({ added: 5 }), ms: 3 })).toBe(
      'tsm watch: 5 added in 3 ms (a.md, b.md, c.md, +2 more)',
    );
  });
  it('names the reasons of a rescan once each', () => {
    const line = formatBatchLine({
      paths: [],
      rescanReasons: ['folder removed: old', 'folder added: new', 'folder added: new'],
      summary: summary({ added: 2, removed: 2 }),
      ms: 12,
    });
    expect(line).toBe('tsm watch: 2 added, 2 removed in 12 ms (rescan: folder removed: old, folder added: new)');
  });
  it('says so when nothing changed', () => {
    expect(formatBatchLine({ paths: ['x.md'], rescanReasons: [], summary: summary({ unchanged: 1 }), ms: 1 })).toBe(
      'tsm watch: no changes in 1 ms (x.md)',
    );
  });
});

describe('formatInitialLine', () => {
  it('gives the counts of the first sync', () => {
    expect(formatInitialLine(summary({ added: 3, unchanged: 2, seconds: 0.126 }))).toBe(
      'tsm watch: indexed 3 added, 0 updated, 0 removed, 2 unchanged in 0.13 s',
    );
    expect(formatInitialLine(summary({ skipped: 1, seconds: 1 }))).toMatch(/, 1 skipped in 1\.00 s$/);
  });
});
