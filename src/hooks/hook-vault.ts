// Which vault a hook works on. Unlike the other commands, a hook never falls back to "the current
// directory": Claude Code runs hooks in every project, and a project without a vault gets no context.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { TsmError } from '../core/errors.js';
import { envSetting, TSM_DIR, userPath } from '../vault/config.js';

export interface HookVaultInput {
  vaultFlag?: string;
  env: NodeJS.ProcessEnv;
  /** The payload's `cwd` (the project Claude Code runs in), else the process's own: a `.tsm/` above it is the vault. */
  cwd: string;
  /**
   * The process's folder (default: `cwd`), from which a relative --vault or $TSM_VAULT is read, as every
   * command reads a relative path (README, "Configuration"), and as the hook reads its --db: `TSM_VAULT=../notes`
   * names one folder for the hook and for `tsm search` run in the same place. It was read from the payload's cwd.
   */
  processCwd?: string;
}

/** The vault named by --vault or $TSM_VAULT does not exist: worth a line on stderr, still no context. */
export class HookVaultError extends TsmError {
  override name = 'HookVaultError';
}

/** `--vault`, `$TSM_VAULT`, then the nearest ancestor of `cwd` holding `.tsm/`; null when there is none. */
export function resolveHookVault(input: HookVaultInput): string | null {
  const given = input.vaultFlag ?? envSetting(input.env, 'TSM_VAULT');
  if (given !== undefined) {
    const dir = userPath(input.processCwd ?? input.cwd, given, input.env);
    if (!isDir(dir)) throw new HookVaultError(`vault not found: ${dir}`);
    return dir;
  }
  for (let dir = resolve(input.cwd); ; dir = dirname(dir)) {
    if (isDir(join(dir, TSM_DIR))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

function isDir(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}
