// Sessions opened together on a vault with no index: the first SessionStart starts the background build
// and waits for it (within its deadline); the others find the build's lock taken, so they start nothing,
// and used to read the index at once: "no index … run `tsm index` first" (or "is empty"), nothing injected,
// and their first prompt got nothing either. They wait for that build too now.
import { removeTree } from '../helpers/remove-tree.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, copyVaultExample, tsm, tsmAsync } from '../helpers/cli.js';

let work: string;
beforeAll(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), 'tsm-conc-start-'));
});
afterAll(() => removeTree(work));

const start = (v: string) => JSON.stringify({ cwd: v, hook_event_name: 'SessionStart', source: 'startup', session_id: 'c0ffee00-1111' });
const logOf = (v: string) => (existsSync(join(v, '.tsm', 'hook.log')) ? readFileSync(join(v, '.tsm', 'hook.log'), 'utf8') : '');

describe('SessionStart while another session builds the first index', () => {
  for (const stage of ['no index file yet', 'an empty index file']) {
    it(`waits for that build (${stage}) and injects the recent context`, async () => {
      const v = join(work, stage.replace(/\W+/g, '-'));
      copyVaultExample(v);
      rmSync(join(v, '.tsm'), { recursive: true, force: true });
      mkdirSync(join(v, '.tsm'));
      // Another session's worker: its lock names a live process (this one), so no sync starts here.
      const lock = join(v, '.tsm', 'sync.lock');
      writeFileSync(lock, String(process.pid));
      if (stage === 'an empty index file') writeFileSync(join(v, '.tsm', 'index.db'), '');
      const hook = tsmAsync(['hook'], { cwd: v, env: { TSM_VAULT: v, TSM_HOOK_TIMEOUT_MS: '8000' }, input: start(v) });
      await new Promise((r) => setTimeout(r, 1200));
      // The other worker's build ends.
      rmSync(join(v, '.tsm', 'index.db'), { force: true });
      expect(tsm(['index'], { cwd: v }).code).toBe(0);
      rmSync(lock);
      const r = await hook;
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('SessionStart');
      expect(logOf(v)).not.toMatch(/no index at|is empty/);
    }, 30_000);
  }
});
