// SessionStart on a vault whose notes all share one date and mtime (a fresh clone or an extracted archive:
// the Obsidian Hub corpus is 6,591 such notes). The table promises "ties by newer, then by path"; the notes
// it ranks must be picked by the same rule, or which ones appear depends on the order the index stored them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleHook } from '../../src/hooks/dispatch.js';
import { makeIndexedVault, type TestNote, type TestVault } from './fixture-index.js';
import { injected, NOW, request, state } from './hook-harness.js';

/** More notes than SessionStart reads as candidates (200), all written at the same moment. */
const NOTES: TestNote[] = Array.from({ length: 260 }, (_, i) => ({
  // Stored in reverse path order, as a scan can store them: z259.md first, a000.md last.
  path: `${i % 2 === 0 ? 'z' : 'a'}${String(259 - i).padStart(3, '0')}.md`,
  title: `Note ${i}`,
  type: 'knowledge',
  date: '2026-11-20',
  sections: [{ heading: '', level: 0, text: 'body' }],
  mtimeMs: Date.parse('2026-11-20T10:00:00Z'),
}));

let vault: TestVault;
beforeAll(async () => {
  vault = await makeIndexedVault(NOTES);
  state.vault = vault;
});
afterAll(() => vault.cleanup());

describe('SessionStart on notes of one date and mtime', () => {
  it('lists the first paths in path order, whatever order the index stored them in', async () => {
    const payload = { session_id: 's', cwd: vault.dir, hook_event_name: 'SessionStart', source: 'startup' };
    const md = injected(await handleHook(request(payload, { vaultFlag: vault.dir, now: NOW })), 'SessionStart');
    const paths = md.split('\n').filter((l) => l.startsWith('| yesterday ')).map((l) => l.split(' | ')[2]);
    const odd = (n: number) => `a${String(259 - (2 * n + 1)).padStart(3, '0')}.md`;
    const expected = NOTES.map((n) => n.path).sort().slice(0, 10);
    expect(expected[0]).toBe(odd(129));
    expect(paths).toEqual(expected);
  });
});
