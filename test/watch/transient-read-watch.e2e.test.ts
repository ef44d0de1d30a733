// Under `tsm watch`, a note whose read failed for the moment (a cloud file still downloading: EIO) is read
// again a little later (`readRetryMs`), not only at its next event: before, it kept its old version until the
// file changed again, and a download that completes need not change what a watcher sees. A real EIO, as in
// test/index/transient-read.e2e.test.ts: /proc/<pid>/mem bind-mounted over the note in a mount namespace of
// its own, unmounted once the watcher is up (needs root; skipped elsewhere).
import { appendFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMount, cleanEnv, makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

describe('tsm watch and a read that fails with EIO', () => {
  it.skipIf(!canMount())('reads the note again once it can be read, with no event for it', () => {
    const v = makeVault({ 'a.md': '# Alpha\n\nzebra crossing\n', 'b.md': '# Beta\n\nbeta\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      appendFileSync(join(v.dir, 'a.md'), '\nokapi\n'); // changed on another device; the sync tool is fetching it
      const note = join(v.dir, 'a.md');
      const cmd = (args: string) => `'${process.execPath}' '${TSM}' ${args} --vault '${v.dir}'`;
      const log = join(v.dir, '..', `${process.pid}-watch.log`);
      const script = [
        `mount --bind /proc/$$/mem '${note}'`,
        `! head -c 1 '${note}' 2>/dev/null || exit 3`,
        `TSM_READ_RETRY_MS=300 ${cmd('watch')} 2>'${log}' & w=$!`,
        `for i in $(seq 100); do grep -q 'watching' '${log}' && break; sleep 0.1; done`,
        `${cmd('search okapi -f json')} > /dev/null`,
        `umount '${note}'`,
        `for i in $(seq 50); do ${cmd('search okapi -f json')} | grep -q '"a.md"' && break; sleep 0.2; done`,
        `${cmd('search okapi -f json')}; s=$?`,
        `kill $w; wait $w; cat '${log}' >&2; rm -f '${log}'; exit $s`,
      ].join('\n');
      const r = spawnSync('unshare', ['-m', 'bash', '-c', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, r.stderr).toMatch(/"path": ?"a\.md"/);
      expect(r.stderr).toMatch(/1 skipped/); // the initial sync could not read it
    } finally {
      v.cleanup();
    }
  });
});
