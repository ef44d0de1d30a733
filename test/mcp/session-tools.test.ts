import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok } from './client.js';
import { serveTestVault, type Served } from './setup.js';
import { SESSION_A_ID, SESSION_B_ID } from './vault-data.js';

let s: Served;
beforeAll(async () => {
  s = await serveTestVault();
});
afterAll(async () => s.close());

describe('recent_context', () => {
  it('ranks one entry per note by recency and type weight', async () => {
    const r = await ok(s.client, 'recent_context', {});
    expect(Array.isArray(r)).toBe(true);
    const paths = r.map((x: any) => x.path);
    expect(new Set(paths).size).toBe(paths.length);
    // Yesterday's session (0.6 × 0.91 + 0.4 × 1.0) beats yesterday's daily note (0.6 × 0.91 + 0.4 × 0.67).
    expect(paths.slice(0, 3)).toEqual(['sessions/2026-11-20-tsm-b7c1d2e3.md', 'sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md', 'daily/2026-11-20.md']);
    const scores = r.map((x: any) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(r[0].score).toBeCloseTo(0.6 * Math.exp((-Math.LN2 * 1) / 7) + 0.4, 3);
    for (const e of r) {
      expect(Object.keys(e).sort()).toEqual(['date', 'id', 'path', 'preview', 'score', 'section', 'status', 'title', 'type']);
      expect(Array.from(e.preview as string).length).toBeLessThanOrEqual(120);
    }
  });

  it("stands for a session by its latest prompt", async () => {
    const r = await ok(s.client, 'recent_context', { type: 'session' });
    expect(r.every((x: any) => x.type === 'session')).toBe(true);
    const a = r.find((x: any) => x.path === 'sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md');
    expect(a.section).toMatch(/> 3\. receiver のビルドが通るかだけ確認して$/);
    expect(a.id).toBe(await s.sectionId(a.path, '3. receiver のビルドが通るかだけ確認して'));
  });

  it('filters by type and clamps limit', async () => {
    const k = await ok(s.client, 'recent_context', { type: 'knowledge', limit: 2 });
    expect(k.map((x: any) => x.path)).toEqual(['knowledge/mentions.md', 'knowledge/lora.md']);
    expect(await ok(s.client, 'recent_context', { limit: 0 })).toHaveLength(1);
    const all = await ok(s.client, 'recent_context', { limit: 1e6 });
    expect(all).toHaveLength(11); // every note of the test vault but knowledge/escape.md, a symlink out of it
  });
});

describe('session_trace', () => {
  it('returns the prompts in order with their actions, files and answers', async () => {
    const r = await ok(s.client, 'session_trace', { session_id: SESSION_A_ID });
    expect(r).toMatchObject({
      session_id: SESSION_A_ID,
      project: 'dog-tracker-fw',
      cwd: '/home/me/src/dog-tracker-fw',
      git_branch: 'fix/receiver-distance',
      started: '2026-11-19T12:04:12.000Z',
      ended: '2026-11-19T12:47:55.000Z',
      path: 'sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md',
      title: 'dog-tracker-fw: 受信機の距離表示が実際の60倍くらいになってる',
    });
    expect(r.prompts.map((p: any) => p.n)).toEqual([1, 2, 3]);
    const [p1, p2] = r.prompts;
    expect(p1.prompt).toBe('受信機の距離表示が実際の60倍くらいになってる。src/geo あたりを見て原因を探して。');
    expect(p1.actions).toEqual(['Read src/receiver/display.c', 'Bash `grep -rn "haversine" src` (exit 0)', 'Read src/geo/geo.c', 'Read src/geo/geo.h']);
    expect(p1.files_read).toEqual(['src/receiver/display.c', 'src/geo/geo.c', 'src/geo/geo.h']);
    expect(p1.files_edited).toEqual([]);
    expect(p1.answer_preview).toMatch(/^原因は src\/geo\/geo\.c の geo_distance_m\(\) です。/);
    expect(p2.files_edited).toEqual(['src/geo/geo.c', 'test/test_geo/test_geo.c']);
    expect(p2.files_read).toEqual(['test/test_geo/test_geo.c']);
    expect(p2.id).toBe(await s.sectionId(r.path, '2. 直して、テストも追加して'));
  });

  it('reads the action lines tsm ingest-session writes, keeping only successful file actions as files', async () => {
    const r = await ok(s.client, 'session_trace', { session_id: SESSION_B_ID.slice(0, 8) });
    expect(r.session_id).toBe(SESSION_B_ID);
    const [p1, p2] = r.prompts;
    expect(p1.actions).toEqual([
      'Read `src/cli/main.ts`',
      'Grep `registerTool` in `node_modules/@modelcontextprotocol/sdk`',
      'Edit `src/mcp/server.ts`',
      'Edit `src/missing.ts` → error',
      'Bash `npm test` → error',
      'Bash `npm test` → ok',
    ]);
    expect(p1.files_read).toEqual(['src/cli/main.ts']);
    expect(p1.files_edited).toEqual(['src/mcp/server.ts']);
    expect(p2.files_edited).toEqual(['docs/mcp.md']);
    expect(p2.files_read).toEqual(['/home/me/src/dog-tracker-fw/src/geo/geo.c']);
  });

  it('accepts an 8-character prefix and says when a prefix is ambiguous or too short', async () => {
    expect((await ok(s.client, 'session_trace', { session_id: '3f9a2c1e-7b4d' })).session_id).toBe(SESSION_A_ID);
    expect(await fails(s.client, 'session_trace', { session_id: '3f9a2c1e' })).toMatch(/ambiguous.*3f9a2c1e-7b4d.*3f9a2c1e-ffff|ambiguous.*3f9a2c1e-ffff.*3f9a2c1e-7b4d/);
    expect(await fails(s.client, 'session_trace', { session_id: '3f9a' })).toMatch(/at least 8 characters/);
  });

  it('fails for an unknown session, and treats LIKE wildcards as text', async () => {
    expect(await fails(s.client, 'session_trace', { session_id: 'deadbeef-0000' })).toBe('session not found: deadbeef-0000');
    expect(await fails(s.client, 'session_trace', { session_id: '%%%%%%%%' })).toBe('session not found: %%%%%%%%');
    expect(await fails(s.client, 'session_trace', { session_id: '________' })).toBe('session not found: ________');
  });
});

describe('file_history', () => {
  it('groups touches by session, with the prompt behind each, and lists notes that mention the file', async () => {
    const r = await ok(s.client, 'file_history', { file_path: 'src/geo/geo.c' });
    expect(r.file_path).toBe('src/geo/geo.c');
    expect(r.sessions.map((x: any) => x.session_id)).toEqual([SESSION_B_ID, SESSION_A_ID]);
    const a = r.sessions[1];
    expect(a).toMatchObject({ project: 'dog-tracker-fw', how: 'edited', path: 'sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md' });
    expect(a.touches.map((t: any) => [t.n, t.how])).toEqual([
      [1, 'read'],
      [2, 'edited'],
    ]);
    expect(a.touches[1].actions).toEqual(['Edit src/geo/geo.c']);
    expect(a.touches[1].prompt).toBe('直して、テストも追加して。');
    expect(r.sessions[0].how).toBe('read');
    expect(r.sessions[0].touches.map((t: any) => t.n)).toEqual([2]);
    expect(r.notes).toEqual([
      {
        path: 'knowledge/mentions.md',
        title: 'Geo maths',
        type: 'knowledge',
        date: '2026-11-01',
        sections: [{ id: expect.any(Number), section: 'Geo maths', line: 5, preview: 'The distance code lives in src/geo/geo.c and uses the haversine formula.' }],
      },
    ]);
  });

  it("finds a session by an absolute path inside its cwd, and by a bare file name", async () => {
    const abs = await ok(s.client, 'file_history', { file_path: '/home/me/src/dog-tracker-fw/src/geo/geo.c' });
    expect(abs.sessions.map((x: any) => x.session_id).sort()).toEqual([SESSION_A_ID, SESSION_B_ID].sort());
    const bare = await ok(s.client, 'file_history', { file_path: 'platformio.ini' });
    expect(bare.sessions.map((x: any) => x.session_id)).toEqual([SESSION_A_ID]);
    expect(bare.sessions[0].touches.map((t: any) => t.n)).toEqual([3]);
  });

  it('gives empty lists for a file never seen, and does not match LIKE wildcards', async () => {
    expect(await ok(s.client, 'file_history', { file_path: 'src/nothing.c' })).toEqual({ file_path: 'src/nothing.c', sessions: [], notes: [] });
    const wild = await ok(s.client, 'file_history', { file_path: 'test_geo_test_geo.c' });
    expect(wild.sessions).toEqual([]);
  });

  it('clamps limit and rejects an empty path', async () => {
    const one = await ok(s.client, 'file_history', { file_path: 'src/geo/geo.c', limit: 0 });
    expect(one.sessions.length + one.notes.length).toBe(1);
    const many = await ok(s.client, 'file_history', { file_path: 'src/geo/geo.c', limit: 1e9 });
    expect(many.sessions.length + many.notes.length).toBe(3);
    expect(await fails(s.client, 'file_history', { file_path: '  ' })).toBe('file_path must not be empty');
  });
});
