// A note whose read fails for a reason of the moment — a cloud file (iCloud, Dropbox, OneDrive online-only)
// still downloading fails with EIO — keeps its last version in the index and is read again at the next sync.
// Before, it left the index and was recorded as skipped by its stat: searches lost it, and whether a later
// sync read it again hung on its stat changing. A real EIO: /proc/<pid>/mem read at offset 0, bind-mounted
// over the note in a mount namespace of its own (needs root; skipped elsewhere).
import { appendFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canMount, cleanEnv, makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

describe('a read that fails with EIO', () => {
  it.skipIf(!canMount())('leaves the note in the index as it was, and the next sync reads it', () => {
    const v = makeVault({ 'a.md': '# Alpha\n\nzebra crossing\n', 'b.md': '# Beta\n\nbeta\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      appendFileSync(join(v.dir, 'a.md'), '\nokapi\n'); // changed on another device: the sync tool fetches it
      const note = join(v.dir, 'a.md');
      const tsmCmd = (args: string) => `'${process.execPath}' '${TSM}' ${args} --vault '${v.dir}'`;
      const script = `mount --bind /proc/$$/mem '${note}' && ! head -c 1 '${note}' 2>/dev/null && ${tsmCmd('index')} && ${tsmCmd('search zebra -f json')}; s=$?; umount '${note}'; exit $s`;
      const r = spawnSync('unshare', ['-m', 'bash', '-c', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/1 skipped/);
      expect(r.stdout).toMatch(/"path": ?"a\.md"/); // still found, by its last version
      // Readable again: the next sync reads it, with its stat as it was when the read failed.
      expect(tsm(['index', '--vault', v.dir]).stdout).toMatch(/1 updated/);
      expect(tsm(['search', 'okapi', '-f', 'json', '--vault', v.dir]).stdout).toMatch(/"path": ?"a\.md"/);
    } finally {
      v.cleanup();
    }
  });
});
