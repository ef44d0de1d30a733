// Vaults indexed in process (syncVault, no CLI), each a folder of one temporary root removed after the file's
// tests: `const vault = syncedVaults('tsm-x-', FILES); const cfg = await vault('clean');`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { syncVault } from '../../src/index/sync.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { writeFiles } from './cli.js';

export function syncedVaults(prefix: string, files: Record<string, string>): (name: string) => Promise<TsmConfig> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return async (name) => {
    const dir = join(root, name);
    writeFiles(dir, files);
    const cfg = loadConfig({ vaultFlag: dir, env: {} });
    await syncVault(cfg);
    return cfg;
  };
}
