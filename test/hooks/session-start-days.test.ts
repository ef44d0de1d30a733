// SessionStart's "When" for a user west of UTC: a note's day is the day written, in the user's zone.
// Vitest runs each test file in its own child process (pool: forks), so this file's zone is its own.
process.env.TZ = 'America/Los_Angeles';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleHook } from '../../src/hooks/dispatch.js';
import { makeIndexedVault, type TestVault } from './fixture-index.js';
import { injected, request, state } from './hook-harness.js';

// Friday 2026-11-27, 13:00 in Los Angeles (21:00 UTC).
const NOW = new Date('2026-11-27T21:00:00Z');

let vault: TestVault;
beforeAll(async () => {
  vault = await makeIndexedVault([
    {
      // A project note: `started`/`ended` are the project's days, not a session's clock.
      path: 'knowledge/kappa.md',
      title: 'Project Kappa',
      type: 'knowledge',
      date: '2026-11-27',
      frontmatter: { ended: '2026-11-27' },
      sections: [{ heading: '', level: 0, text: 'kappa' }],
      mtimeMs: Date.parse('2026-11-27T18:00:00Z'), // 10:00 in Los Angeles
    },
    {
      path: 'knowledge/old-project.md',
      title: 'Old project',
      type: 'knowledge',
      date: '2026-11-26',
      frontmatter: { started: '2025-01-10', ended: '2025-03-01' },
      sections: [{ heading: '', level: 0, text: 'notes written yesterday about a project that ended last year' }],
      mtimeMs: Date.parse('2026-11-26T20:00:00Z'),
    },
  ]);
  state.vault = vault;
});
afterAll(() => vault.cleanup());

const rows = async () => {
  const payload = { session_id: 's', cwd: vault.dir, hook_event_name: 'SessionStart', source: 'startup' };
  const md = injected(await handleHook(request(payload, { vaultFlag: vault.dir, now: NOW })), 'SessionStart');
  return md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| When'));
};

describe('SessionStart dates a note by its own day', () => {
  it('reads started/ended of session notes only, so a project note dated today is today, not yesterday', async () => {
    // Was "yesterday": `ended: 2026-11-27` read as midnight UTC, the 26th at 16:00 in Los Angeles.
    expect((await rows()).find((r) => r.includes('knowledge/kappa.md'))).toMatch(/^\| 3 h ago \|/);
  });

  it('lists a note edited yesterday whose frontmatter names a project ended long ago', async () => {
    // Was missing: its `ended: 2025-03-01` put it past the 90 days of "recent".
    expect((await rows()).find((r) => r.includes('knowledge/old-project.md'))).toMatch(/^\| yesterday \|/);
  });
});
