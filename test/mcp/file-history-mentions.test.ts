// file_history's "mentioned": a session or note names the file in its text. That was a substring test, so
// a one-letter file name (`x`) was "mentioned" by every session whose text holds an x, and
// `geo.c` by every one that says `geo.cpp`: the tool listed them all, crowding out the file's own story.
// A mention is now the name standing as a whole path or path tail.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import type { NoteSpec } from './fixture.js';
import { serveFixture } from './setup.js';

const session = (n: number, body: string): [string, NoteSpec] => [
  `sessions/2026-11-0${n}-proj-0000000${n}.md`,
  {
    type: 'session',
    date: `2026-11-0${n}`,
    frontmatter: { session_id: `0000000${n}-0000-0000-0000-000000000000`, project: 'proj', cwd: '/home/me/proj' },
    body: `# proj: session ${n}\n\n## 1. ${body}\n\n${body}\n`,
  },
];

let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  served = await serveFixture({
    ...Object.fromEntries([
      session(1, 'fix the syntax of the box layout in xterm'),
      session(2, 'port geo.cpp to the new API'),
      session(3, 'the bug is in src/geo/geo.c, line 40'),
      session(4, 'geo.cのバッファを直す'),
      session(5, 'see geo.c.'),
      session(6, 'backup at geo.c.orig and build/geo.c/out'),
    ]),
    'notes/x.md': { type: 'knowledge', date: '2026-11-01', body: '# notes on x\n\nThe file called `x` holds the seed.\n' },
    'sessions/2026-11-07-proj-00000007.md': {
      type: 'session',
      date: '2026-11-07',
      frontmatter: { session_id: '00000007-0000-0000-0000-000000000000', project: 'proj', cwd: '/home/me/proj' },
      body: '# proj: session 7\n\n## 1. apply it\n\napply it\n\n### Actions\n\n- Read `README.md`\n- Bash `python scripts/migrate.py --apply` (exit 0)\n\n## 2. now the docs\n\nnow the docs\n',
    },
    // Edited by its user: a heading of their own under a prompt, and a line of their own among the actions.
    'sessions/2026-11-08-proj-00000008.md': {
      type: 'session',
      date: '2026-11-08',
      frontmatter: { session_id: '00000008-0000-0000-0000-000000000000', project: 'proj', cwd: '/home/me/proj' },
      body: '# proj: session 8\n\n## 1. tidy up\n\ntidy up\n\n### Actions\n\n- Read `README.md`\n\nthen seed.sql by hand\n\n## 2. and the rest\n\nand the rest\n\n### My notes\n\nrollback.sh is the way back.\n',
    },
  });
});
afterAll(() => served.close());

// A name that is also a word (`a`) is still mentioned wherever the word stands: text cannot tell them apart.
it('a one-letter file is mentioned only where it stands as a name', async () => {
  const r = await ok(served.client, 'file_history', { file_path: 'x', limit: 20 });
  expect(r.sessions).toEqual([]);
  expect(r.notes.map((n: { path: string }) => n.path)).toEqual(['notes/x.md']);
});

it('geo.c is mentioned by its paths and sentences, not by geo.cpp or geo.c.orig', async () => {
  const r = await ok(served.client, 'file_history', { file_path: 'geo.c', limit: 20 });
  const ids = r.sessions.map((s: { session_id: string }) => s.session_id.slice(0, 8)).sort();
  expect(ids).toEqual(['00000003', '00000004', '00000005']);
  expect(r.sessions.every((s: { how: string }) => s.how === 'mentioned')).toBe(true);
});

// A file named only by a command (a script run, a log tailed) had its session listed as "mentioned" with no
// touch: the per-prompt check read the prompt, answer and plan, not the actions.
it('a file named by a command of a prompt is a touch of that prompt, with the action', async () => {
  for (const file_path of ['migrate.py', 'scripts/migrate.py']) {
    const r = await ok(served.client, 'file_history', { file_path, limit: 20 });
    expect(r.sessions.map((s: { session_id: string }) => s.session_id.slice(0, 8)), file_path).toEqual(['00000007']);
    expect(r.sessions[0].how).toBe('mentioned');
    expect(r.sessions[0].touches).toEqual([{ n: 1, id: expect.any(Number), how: 'mentioned', prompt: 'apply it', actions: ['Bash `python scripts/migrate.py --apply` (exit 0)'] }]);
  }
});

// The session was "mentioned" by any of its sections, a prompt only by its request, answer, plan and actions:
// text its user added under a prompt (a heading of their own, a line among the actions) listed the session
// with touches: [].
it('a file named anywhere under a prompt is a touch of that prompt', async () => {
  for (const [file_path, n] of [['seed.sql', 1], ['rollback.sh', 2]] as const) {
    const r = await ok(served.client, 'file_history', { file_path, limit: 20 });
    expect(r.sessions.map((s: { session_id: string }) => s.session_id.slice(0, 8)), file_path).toEqual(['00000008']);
    expect(r.sessions[0].touches.map((t: { n: number; how: string }) => [t.n, t.how]), file_path).toEqual([[n, 'mentioned']]);
  }
});
