// `tsm init` on a full disk (a real tmpfs, filled): one line naming the full disk, no empty file left behind,
// and once there is room `tsm init` makes the whole config and `tsm index` runs. Before: writeFileSync made
// `.tsm/config.json` and `.tsm/.gitignore` before writing them, the disk left both empty, `tsm init` run
// again said `already set up`, and every command stopped on `config.json: not valid JSON`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';
import { useSmallDisk } from '../helpers/small-disk.js';

describe('tsm init on a full disk', { timeout: 60_000 }, () => {
  const disk = useSmallDisk('2m', 'tsm init on a full disk');

  it('names the full disk, leaves no empty file, and sets the vault up once there is room', (ctx) => {
    if (!disk.mounted) ctx.skip();
    const vault = join(disk.path, 'vault');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), '# a\n\nLoRa antenna notes\n');
    disk.fillAllBut(0);

    const full = tsm(['init', '--vault', vault]);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stdout).toBe('');
    expect(full.stderr).toMatch(/^tsm: cannot write \S+config\.json \(ENOSPC\): the disk is full: free some space and run `tsm init` again\n$/);
    // Nothing half-written: no empty config or .gitignore, no temp file.
    expect(readdirSync(join(vault, '.tsm'))).toEqual([]);

    disk.room();
    const again = tsm(['init', '--vault', vault]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/created .*config\.json, .*\.gitignore/);
    expect(readFileSync(join(vault, '.tsm', 'config.json'), 'utf8')).toContain('{');
    expect(readFileSync(join(vault, '.tsm', '.gitignore'), 'utf8')).toContain('!config.json');
    const index = tsm(['index', '--vault', vault]);
    expect(index.code, index.stderr).toBe(0);
    rmSync(vault, { recursive: true });
  });

  it('a .tsm/ the first `tsm index` makes on a full disk gets no empty .gitignore', (ctx) => {
    if (!disk.mounted) ctx.skip();
    const vault = join(disk.path, 'vault2');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), '# a\n');
    disk.fillAllBut(0);
    const full = tsm(['index', '--vault', vault]);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^tsm: [^\n]*disk is full[^\n]*\n$/);
    disk.room();
    // The .gitignore is written when .tsm/ is made: an empty one would let git commit the index.
    expect(readdirSync(join(vault, '.tsm')).filter((n) => n === '.gitignore' || n.endsWith('.tmp'))).toEqual([]);
    expect(tsm(['init', '--vault', vault]).code).toBe(0);
    expect(readFileSync(join(vault, '.tsm', '.gitignore'), 'utf8')).toContain('!config.json');
  });
});
