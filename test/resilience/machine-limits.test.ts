// Too few file descriptors (a real `ulimit -n`): a command says so in one line with the fix, and a hook
// still answers. Before: `tsm status` (and `tsm index`) under `ulimit -n 40` died with a stack trace of
// Node's module loader (`EMFILE: too many open files, open '…/dist/chunks/chunk-….js'` and six `at` lines),
// opening tsm's own code files at once. (Under about 20, Node itself aborts before tsm runs: nothing to do.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';
import { runTsm } from './processes.js';

// Node starts and runs tsm's fast path; the lazily loaded commands need more (48 was enough, 40 was not).
const LIMIT = 28;
let vault: { dir: string; cleanup: () => void };

describe(`ulimit -n ${LIMIT}`, { timeout: 60_000 }, () => {
  beforeAll(() => {
    vault = makeVault({ 'a.md': '# LoRa\n\nLoRa antenna gain notes\n', 'b.md': '# VHF\n\nVHF collar\n' });
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
  });
  afterAll(() => vault.cleanup());

  const limited = (args: string[], input = '') => runTsm(args, { shell: `ulimit -n ${LIMIT}; exec "$@"`, input });

  it('a command that cannot open its files: one line naming the limit and the fix, exit 1', () => {
    const r = limited(['status', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^tsm: too many open files for one process \(`ulimit -n`\): raise the limit \(`ulimit -n 4096`\) \(EMFILE\): [^\n]+\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('the prompt hook still answers, and search too', () => {
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'LoRa antenna gain', cwd: vault.dir });
    const hook = limited(['hook', '--vault', vault.dir], payload);
    expect(hook.code, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain('a.md');
    const search = limited(['search', '--vault', vault.dir, 'LoRa']);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('a.md');
  });
});
