// file_history looks a file up in the sessions' files_read/files_edited lists by its path or a '/'-suffix of
// it. That lookup was a LIKE, where `_` and `%` in a file name are wildcards: newer sessions that edited
// `src/myXmodule.py` took the rows the lookup fetches (twice the limit), the exact check after it dropped
// them all, and `my_module.py`'s own session was never reached.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import type { NoteSpec } from './fixture.js';
import { serveFixture } from './setup.js';

const sessionNote = (n: number, day: string, file: string): [string, NoteSpec] => [
  `sessions/${day}-proj-${String(n).padStart(8, '0')}.md`,
  {
    type: 'session',
    date: day,
    frontmatter: { session_id: `${String(n).padStart(8, '0')}-0000-0000-0000-000000000000`, project: 'proj', cwd: '/home/me/proj', files_edited: [file] },
    body: `# proj: session ${n}\n\n## 1. edit it\n\nedit it\n`,
  },
];

let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  const notes = Object.fromEntries([
    sessionNote(1, '2026-10-01', 'src/my_module.py'),
    ...Array.from({ length: 25 }, (_, i) => sessionNote(i + 2, `2026-11-${String(i + 2).padStart(2, '0')}`, 'src/myXmodule.py')),
  ]);
  served = await serveFixture(notes);
});
afterAll(() => served.close());

it('finds the session of a file whose name holds _ behind 25 newer sessions of a name _ would match', async () => {
  const r = await ok(served.client, 'file_history', { file_path: 'my_module.py', limit: 10 });
  expect(r.sessions.map((s: { path: string }) => s.path)).toEqual(['sessions/2026-10-01-proj-00000001.md']);
  expect(r.sessions[0].how).toBe('edited');
  const pct = await ok(served.client, 'file_history', { file_path: 'my%module.py' });
  expect(pct.sessions).toEqual([]);
});
