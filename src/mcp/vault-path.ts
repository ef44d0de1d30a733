// Path arguments from a model are untrusted: each is resolved against the vault and must stay inside
// it — lexically (no `..` or absolute path out) and on disk, by the indexer's symlink policy (a symlinked
// folder is followed, a symlinked file must lead inside the vault or such a folder; checked with realpath).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { vaultGoneMessage } from '../vault/folders.js';
import { findOnDisk, isInside, leadsInside } from '../vault/paths.js';
import { ToolError } from './errors.js';

/**
 * The real location of a vault file, found by its NFC path whatever form its name has on disk. The
 * symlink policy of indexing applies (src/vault/paths.ts): a note in a symlinked folder is served, a
 * note that is a symlink to somewhere outside the vault (and outside such folders) is refused.
 */
export function realPathInVault(vault: string, relPath: string, param = 'path'): string {
  let real: string;
  const abs = resolve(vault, relPath);
  if (!isInside(vault, abs)) throw new ToolError(`${param} is outside the vault: ${relPath}`);
  const onDisk = findOnDisk(vault, relPath) ?? abs;
  try {
    realpathSync(vault);
  } catch (err) {
    // Deleted or moved while the server runs (its index kept elsewhere, --db): "cannot be read: ENOENT …" named no fix.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolError(vaultGoneMessage(vault));
    throw new ToolError(`the vault ${vault} cannot be read: ${(err as Error).message}`);
  }
  try {
    real = realpathSync(onDisk);
  } catch {
    throw new ToolError(`${param} not found on disk: ${relPath} (the index may be stale: run \`tsm index\`)`);
  }
  if (!leadsInside(vault, onDisk, real)) {
    throw new ToolError(`${param} leads outside the vault through a symlink: ${relPath}`);
  }
  return real;
}
