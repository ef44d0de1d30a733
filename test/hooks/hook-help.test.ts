// `tsm hook --help` tells the truth about which vault a hook uses: .tsm/ only (src/hooks/hook-vault.ts).
// It said "the nearest folder holding .tsm/ or .obsidian/", which is what the other commands do.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { TSM } from '../helpers/cli.js';

describe('tsm hook --help', () => {
  it('names .tsm/ as the only marker of a hook vault', () => {
    // stdin /dev/null, as from a terminal: a piped stdin would make it a hook run (docs/claude-code.md).
    const r = spawnSync(process.execPath, [TSM, 'hook', '--help'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const vaultLine = r.stdout.replace(/\n\s+/g, ' ');
    expect(vaultLine).toMatch(/--vault .*nearest folder holding \.tsm\/ at or above the payload's cwd/);
    expect(vaultLine).not.toContain('.obsidian');
  });
});
