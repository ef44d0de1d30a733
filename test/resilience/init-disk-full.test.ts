// `tsm init` on a full disk (a real tmpfs, filled): one line naming the full disk, no empty file left behind,
// and once there is room `tsm init` makes the whole config and `tsm index` runs. Before: writeFileSync made
// `.tsm/config.json` and `.tsm/.gitignore` before writing them, the disk left both empty, `tsm init` run
// again said `already set up`, and every command stopped on `config.json: not valid JSON`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';

let root: string;
let disk: string;
let mounted = false;

describe('tsm init on a full disk', { timeout: 60_000 }, () => {
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tsm-idf-'));
    disk = join(root, 'disk');
    mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { stdio: 'pipe' });
      mounted = true;
    } catch (err) {
      console.log(`skipped "tsm init on a full disk": cannot mount a small tmpfs here (needs root): ${(err as Error).message.split('\n')[0]}`);
    }
  });

  afterAll(() => {
    if (mounted) execFileSync('umount', [disk], { stdio: 'pipe' });
    rmSync(root, { recursive: true, force: true });
  });

  it('names the full disk, leaves no empty file, and sets the vault up once there is room', (ctx) => {
    if (!mounted) ctx.skip();
    const vault = join(disk, 'vault');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), '# a\n\nLoRa antenna notes\n');
    const fill = join(disk, 'fill');
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(fill, Buffer.alloc(bavail * bsize));

    const full = tsm(['init', '--vault', vault]);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stdout).toBe('');
    expect(full.stderr).toMatch(/^tsm: cannot write \S+config\.json \(ENOSPC\): the disk is full: free some space and run `tsm init` again\n$/);
    // Nothing half-written: no empty config or .gitignore, no temp file.
    expect(readdirSync(join(vault, '.tsm'))).toEqual([]);

    rmSync(fill);
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
    if (!mounted) ctx.skip();
    const vault = join(disk, 'vault2');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), '# a\n');
    const fill = join(disk, 'fill');
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(fill, Buffer.alloc(bavail * bsize));
    const full = tsm(['index', '--vault', vault]);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^tsm: [^\n]*disk is full[^\n]*\n$/);
    rmSync(fill);
    // The .gitignore is written when .tsm/ is made: an empty one would let git commit the index.
    expect(readdirSync(join(vault, '.tsm')).filter((n) => n === '.gitignore' || n.endsWith('.tmp'))).toEqual([]);
    expect(tsm(['init', '--vault', vault]).code).toBe(0);
    expect(readFileSync(join(vault, '.tsm', '.gitignore'), 'utf8')).toContain('!config.json');
  });
});
