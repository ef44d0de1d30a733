// A note dated ahead is no recent work: SessionStart's table and MCP recent_context list notes dated up to
// tomorrow (search/dates.ts recentBefore, the end `--recent` has), not a plan dated next year. Measured
// before: a note dated 2027-06-01 was the table's first row, "in 6 months", on every session start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleHook } from '../../src/hooks/dispatch.js';
import { injected, request, state } from '../hooks/hook-harness.js';
import type { TestVault } from '../hooks/fixture-index.js';
import { indexFixtureVault } from '../helpers/fixture-vault.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { ok } from './client.js';
import { connect } from './setup.js';
import { NOW } from './vault-data.js';

const DAY = 24 * 3600 * 1000;
const ymd = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const note = (title: string, date: Date) => ({ content: `---\ndate: ${ymd(date)}\n---\n# ${title}\n\nwork on ${title}\n`, mtimeMs: NOW.getTime() - 3600_000 });

let vault = '';
let cfg: TsmConfig;
let s: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  vault = mkdtempSync(join(tmpdir(), 'tsm-recent-future-'));
  cfg = await indexFixtureVault(vault, {
    'today.md': note('Today', NOW),
    'tomorrow.md': note('Tomorrow', new Date(NOW.getTime() + DAY)),
    'in-two-days.md': note('In two days', new Date(NOW.getTime() + 2 * DAY)),
    'plan.md': note('Plan for next year', new Date(NOW.getTime() + 190 * DAY)),
  });
  s = await connect(cfg);
});
afterAll(async () => {
  await s.close();
  rmSync(vault, { recursive: true, force: true });
});

describe('notes dated ahead', () => {
  it('recent_context lists the notes dated up to tomorrow', async () => {
    const r = await ok(s.client, 'recent_context', {});
    expect(r.map((x: any) => x.path).sort()).toEqual(['today.md', 'tomorrow.md']);
  });

  it("SessionStart's table lists the notes dated up to tomorrow", async () => {
    state.vault = { dir: vault } as TestVault; // request() reads the harness's vault folder
    const payload = { session_id: 's', cwd: vault, hook_event_name: 'SessionStart', source: 'startup' };
    const md = injected(await handleHook(request(payload, { cwd: vault, vaultFlag: vault, now: NOW })), 'SessionStart');
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| When'));
    expect(rows.map((r) => r.split(' | ')[2]).sort()).toEqual(['today.md', 'tomorrow.md']);
  });
});
