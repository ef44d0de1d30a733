// Path arguments from a model are untrusted: each is resolved against the vault and must stay inside
// it — lexically (no `..` or absolute path out) and on disk (no symlink out, checked with realpath).
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { isInside } from '../vault/config.js';
import { ToolError } from './errors.js';

/**
 * A path argument as a vault-relative, `/`-separated, NFC path ('' for the vault itself). Relative
 * paths are taken from the vault root; absolute ones must lie inside the vault.
 */
export function vaultRelative(vault: string, input: string, param = 'path'): string {
  const given = input.trim();
  if (given === '') throw new ToolError(`${param} must not be empty`);
  if (given.includes('\0')) throw new ToolError(`${param} must not contain NUL characters`);
  const abs = resolve(vault, given);
  if (!isInside(vault, abs)) {
    throw new ToolError(`${param} is outside the vault: ${given} (give a path relative to the vault root, like the paths search returns)`);
  }
  const rel = relative(resolve(vault), abs).split(sep).join('/').normalize('NFC');
  // A trailing slash matters for prefixes ("daily/" is not "daily-old/").
  return rel !== '' && /[\\/]$/.test(given) ? `${rel}/` : rel;
}

/**
 * The real location of a vault file, which must be inside the vault's real location: a note that is
 * a symlink to somewhere outside the vault is refused.
 */
export function realPathInVault(vault: string, relPath: string, param = 'path'): string {
  let vaultReal: string;
  let real: string;
  try {
    vaultReal = realpathSync(vault);
  } catch (err) {
    throw new ToolError(`the vault ${vault} cannot be read: ${(err as Error).message}`);
  }
  const abs = resolve(vault, relPath);
  if (!isInside(vault, abs)) throw new ToolError(`${param} is outside the vault: ${relPath}`);
  try {
    real = realpathSync(abs);
  } catch {
    throw new ToolError(`${param} not found on disk: ${relPath} (the index may be stale: run \`tsm index\`)`);
  }
  if (!isInside(vaultReal, real)) {
    throw new ToolError(`${param} leads outside the vault through a symlink: ${relPath}`);
  }
  return real;
}
