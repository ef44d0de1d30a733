// Fixture vaults built the way a user's are: markdown files on disk, indexed in process by the real sync
// (scanner, parser, writer), so a fixture can never disagree with what `tsm index` makes of the same notes.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openReader, type Database } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';

export interface FixtureFile {
  content: string;
  /** The file's modification time (notes without a frontmatter date are dated by it). */
  mtimeMs?: number;
  /** Write the content at this absolute path instead, and a symlink to it at the note's path. */
  symlinkTo?: string;
}

/** YAML from JSON values (JSON is YAML), one key per line; nothing for no keys. */
export function frontmatterText(fm: Record<string, unknown>): string {
  const keys = Object.keys(fm).filter((k) => fm[k] !== undefined);
  if (keys.length === 0) return '';
  return `---\n${keys.map((k) => `${k}: ${JSON.stringify(fm[k])}`).join('\n')}\n---\n`;
}

/** Writes `files` into `vault` (with `.tsm/` and, given settings, `.tsm/config.json`) and indexes them. */
export async function indexFixtureVault(
  vault: string,
  files: Record<string, FixtureFile>,
  settings: Record<string, unknown> = {},
): Promise<TsmConfig> {
  mkdirSync(join(vault, '.tsm'), { recursive: true });
  if (Object.keys(settings).length) writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify(settings));
  for (const [rel, file] of Object.entries(files)) {
    const abs = join(vault, rel);
    mkdirSync(dirname(abs), { recursive: true });
    const target = file.symlinkTo ?? abs;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
    if (file.mtimeMs !== undefined) utimesSync(target, new Date(), new Date(file.mtimeMs));
    if (file.symlinkTo) symlinkSync(file.symlinkTo, abs);
  }
  const cfg = loadConfig({ vaultFlag: vault, env: {} });
  await syncVault(cfg);
  return cfg;
}

/**
 * For the tests of one file: a temporary vault of `files` indexed in process before them, a read-only
 * connection to its index while they run, and both gone after them.
 */
export function useIndexReader(files: () => Record<string, string>): { readonly db: Database } {
  const state = { db: undefined as unknown as Database };
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsm-reader-'));
    const cfg = await indexFixtureVault(dir, Object.fromEntries(Object.entries(files()).map(([p, content]) => [p, { content }])));
    state.db = openReader(cfg.db);
  }, 60_000);
  afterAll(() => {
    state.db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return state;
}
