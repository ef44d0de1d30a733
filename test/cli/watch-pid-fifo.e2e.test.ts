// A FIFO at `.tsm/watch.pid`: reading it to learn whether a watcher runs waited for a writer forever, and
// with it `tsm status`, `tsm doctor`, the SessionStart hook (past Claude Code's hook timeout) and `tsm watch`
// itself. The built CLI against a temporary vault; each run must end well before its timeout.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, makeVault, TSM, tsm } from '../helpers/cli.js';

describe('a FIFO at .tsm/watch.pid', () => {
  it('status, doctor, the SessionStart hook and tsm watch answer, and say no watcher is on record', async () => {
    const v = makeVault({ 'a.md': '# A\n\nalpha\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const fifo = join(v.dir, '.tsm', 'watch.pid');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const status = tsm(['status', '--json', '--vault', v.dir], { timeoutMs: 8000 });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).watcher).toBeNull();
      const doctor = tsm(['doctor', '--json', '--vault', v.dir], { timeoutMs: 8000 });
      expect(doctor.code, doctor.stderr).not.toBeNull();
      expect(JSON.parse(doctor.stdout).problems).toContainEqual(expect.objectContaining({ check: 'watcher' }));
      const payload = { hook_event_name: 'SessionStart', source: 'startup', cwd: v.dir, session_id: 's1' };
      const hook = tsm(['hook', '--vault', v.dir], { input: JSON.stringify(payload), timeoutMs: 8000 });
      expect(hook.code).toBe(0);
      // tsm watch starts and indexes (its pid file waits until it can be written, as on a full disk).
      const watch = spawn(process.execPath, [TSM, 'watch', '--vault', v.dir], { env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      watch.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const started = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 10_000);
        watch.stderr.on('data', () => {
          if (/watching /.test(stderr)) {
            clearTimeout(timer);
            resolve(true);
          }
        });
      });
      watch.kill('SIGKILL');
      expect(started, stderr).toBe(true);
      expect(lstatSync(fifo).isFIFO(), 'the FIFO left where it is').toBe(true);
    } finally {
      v.cleanup();
    }
  }, 60_000);
});
