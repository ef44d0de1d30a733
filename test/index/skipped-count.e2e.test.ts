// A file tsm skips (binary, too large) is counted as skipped by every `tsm index` while it stays so, not only by
// the run that first met it: the second run said "2 unchanged, 0 skipped" of a note and a binary file, where the
// first had said "1 added, 1 skipped", as if the binary file had become a note.
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

it('a skipped file is counted as skipped by each run, changed or not', () => {
  const v = makeVault({ 'a.md': '# A\n\nalpha\n', 'pic.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d]) });
  try {
    const run = () => JSON.parse(tsm(['index', '--vault', v.dir, '--json']).stdout) as Record<string, number>;
    expect(run()).toMatchObject({ added: 1, unchanged: 0, skipped: 1 });
    expect(run()).toMatchObject({ added: 0, unchanged: 1, skipped: 1 });
    // Read again (a new time): skipped again, counted once.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(v.dir, 'pic.md'), later, later);
    expect(run()).toMatchObject({ added: 0, updated: 0, unchanged: 1, skipped: 1 });
    expect(tsm(['index', '--vault', v.dir]).stdout).toMatch(/^0 added, 0 updated, 0 removed, 1 unchanged, 1 skipped in /);
  } finally {
    v.cleanup();
  }
});
