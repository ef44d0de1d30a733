// Shared argv → config plumbing for the commands.
import { isExplained } from '../core/errors.js';
import { loadConfig, type TsmConfig } from '../vault/config.js';
import { typedVaultPath as vaultPathTyped } from '../vault/paths.js';
import { noteTarget } from './fix-target.js';
import { UsageError, UserError } from './run.js';
import { takesEscapes, writeOut } from './stdio.js';
import { jsonText } from '../format/escape.js';

/**
 * The config for a command's --vault / --db. `cwdIsVault`: this command may make the current directory a
 * vault when none is named or marked (`tsm index`, `tsm watch`); for every other command that is an error.
 */
export function configFrom(argv: Record<string, unknown>, opts: { cwdIsVault?: boolean; skipFile?: boolean } = {}): TsmConfig {
  const given = { vault: typeof argv.vault === 'string', db: typeof argv.db === 'string' };
  const cfg = loadConfig({
    vaultFlag: given.vault ? (argv.vault as string) : undefined,
    dbFlag: given.db ? (argv.db as string) : undefined,
    cwdIsVault: opts.cwdIsVault,
    skipFile: opts.skipFile,
  });
  noteTarget(cfg.vault, cfg.db, given);
  return cfg;
}

/**
 * Colour or not, as Node reads these variables: FORCE_COLOR asks for colour even to a pipe (any value
 * but 0 or false; the empty string counts as set), FORCE_COLOR=0 refuses it; else NO_COLOR
 * (https://no-color.org) refuses it; else colour only on a terminal that is not TERM=dumb.
 */
export function useColor(toTerminal: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined) return !/^(0|false)$/i.test(env.FORCE_COLOR);
  return takesEscapes(toTerminal, env) && !noColor(env);
}

function noColor(env: NodeJS.ProcessEnv): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

/**
 * "Now" for recency, temporal expressions ("last week") and relative times: $TSM_NOW (an ISO date or
 * time) when set — reproducible evaluations and golden tests — else the clock.
 */
export function referenceNow(env: NodeJS.ProcessEnv = process.env): Date {
  const v = env.TSM_NOW;
  if (!v) return new Date();
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T12:00:00` : v);
  if (Number.isNaN(d.getTime())) throw new UserError(`TSM_NOW must be an ISO date like 2026-11-22 (got "${v}")`);
  return d;
}

/**
 * A vault path the user typed (`tsm related`'s note, `--path`, `path:`), read by the vault's rule for typed
 * paths (src/vault/paths.ts), as the MCP tools read theirs: NFC, from the vault root. One that leads out of
 * the vault is a usage error, as a bad `type:` is.
 */
export function typedVaultPath(vault: string, input: string, name: string): string {
  try {
    return vaultPathTyped(vault, input, name);
  } catch (err) {
    throw isExplained(err) ? new UsageError((err as Error).message) : err;
  }
}

export function printJson(value: unknown): void {
  writeOut(`${jsonText(value)}\n`);
}
