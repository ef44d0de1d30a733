// A search of an index whose disk is full (a real tmpfs, filled after a clean `tsm index` left only
// index.db): SQLite cannot make the small index.db-shm a reader needs, and said only `disk I/O error`.
// Now the line names the full disk; the prompt hook stays silent (exit 0); once there is room the search answers.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { useSmallDisk } from '../helpers/small-disk.js';

describe('searching an index on a full disk', { timeout: 60_000 }, () => {
  const disk = useSmallDisk('4m', 'searching an index on a full disk');

  it('names the full disk, the hook stays silent, and the search answers once there is room', (ctx) => {
    if (!disk.mounted) ctx.skip();
    const vault = join(disk.path, 'vault');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), '# LoRa\n\nLoRa antenna gain notes\n');
    expect(tsm(['index', '--vault', vault]).code).toBe(0);
    expect(existsSync(join(vault, '.tsm', 'index.db-shm'))).toBe(false); // the reader must make it
    disk.fillAllBut(0);

    const full = tsm(['search', '--vault', vault, 'LoRa']);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stdout).toBe('');
    expect(full.stderr).toMatch(/^tsm: cannot read the index at \S+: its disk is full, [^\n]*index\.db-shm[^\n]*free some space\n$/);
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'LoRa antenna gain', cwd: vault });
    const hook = tsm(['hook', '--vault', vault], { input: payload });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toBe('');

    disk.room();
    const after = tsm(['search', '--vault', vault, 'LoRa']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('a.md');
  });
});
