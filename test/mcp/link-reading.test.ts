// The MCP tools' previews read links as the vault's notes were read (search/link-reading.ts, from the
// index): in a Dendron vault `[[Setup guide|project.setup]]` is `Setup guide`, not `project.setup`, in
// timeline, recent_context, session_trace, file_history and retrieve_memory alike. And search's preview
// is its snippet cut, not read as markdown a second time (code shown as written kept its marks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { frontmatterText, indexFixtureVault } from '../helpers/fixture-vault.js';
import { ok } from './client.js';
import { connect } from './setup.js';

const LINK = '[[Setup guide|project.setup]]';
const SESSION_ID = '5e55105e-0000-4000-8000-000000000001';

const note = (fm: Record<string, unknown>, body: string) => ({ content: frontmatterText(fm) + body, mtimeMs: Date.parse(`${String(fm.date)}T12:00:00`) });

const FILES = {
  'dendron.yml': { content: 'version: 5\n' },
  'project.md': note({ type: 'knowledge', date: '2026-11-20' }, `# Project\n\n## Intro\n\nSee ${LINK} first.\n\n## Zebra\n\nThe zebra install, \`[[target|label]]\` as written.\n\n## Outro\n\nRead ${LINK} again.\n`),
  'project.setup.md': note({ type: 'knowledge', date: '2026-11-01' }, `# Setup\n\nSteps: edit src/a.c as ${LINK} says.\n`),
  'daily.2026.11.20.md': note({ type: 'daily', date: '2026-11-20' }, `# 2026-11-20\n\n## Log\n\nAnchor day.\n`),
  'daily.2026.11.19.md': note({ type: 'daily', date: '2026-11-19' }, `# 2026-11-19\n\n## Log\n\nFollowed ${LINK} today.\n`),
  'sessions.s1.md': note(
    { type: 'session', date: '2026-11-21', session_id: SESSION_ID, project: 'p', started: '2026-11-21T10:00:00.000Z', files_edited: ['src/a.c'] },
    `# p: fix a.c\n\n## 1. Fix src/a.c as ${LINK} says\n\nFix src/a.c as ${LINK} says.\n\n### Actions\n\n- Edit src/a.c\n\n### Answer\n\nDone, as ${LINK} says.\n`,
  ),
};

describe('MCP previews in a Dendron vault', () => {
  let dir: string;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsm-mcp-links-'));
    const cfg = await indexFixtureVault(dir, FILES);
    ({ client, close } = await connect(cfg));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('timeline: neighbouring sections and days', async () => {
    const hit = (await ok(client, 'search', { query: 'zebra' })).results[0];
    const t = await ok(client, 'timeline', { anchor: hit.id });
    expect(t.before.map((s: { preview: string }) => s.preview)).toContain('See Setup guide first.');
    expect(t.after.map((s: { preview: string }) => s.preview)).toContain('Read Setup guide again.');
    const day = (await ok(client, 'search', { query: 'anchor day' })).results[0];
    const d = await ok(client, 'timeline', { anchor: day.id });
    expect(d.days_before[0].preview).toBe('Followed Setup guide today.');
  });

  it('recent_context', async () => {
    const r = await ok(client, 'recent_context', { type: 'knowledge' });
    expect(r.find((e: { path: string }) => e.path === 'project.md').preview).toBe('See Setup guide first.');
  });

  it('session_trace and file_history', async () => {
    const s = await ok(client, 'session_trace', { session_id: SESSION_ID });
    expect(s.prompts[0].answer_preview).toBe('Done, as Setup guide says.');
    const f = await ok(client, 'file_history', { file_path: 'src/a.c' });
    expect(f.sessions[0].touches[0].prompt).toBe('Fix src/a.c as Setup guide says.');
    expect(f.notes[0].sections[0].preview).toBe('Steps: edit src/a.c as Setup guide says.');
  });

  it("retrieve_memory's summary", async () => {
    expect(await ok(client, 'retrieve_memory', { query: 'again' })).toContain('**Summary:** Project > Outro — Read Setup guide again.');
  });

  it("search: the snippet's code keeps its marks", async () => {
    expect((await ok(client, 'search', { query: 'zebra' })).results[0].preview).toBe('The zebra install, [[target|label]] as written.');
  });
});
