// Shared argv → config plumbing for the commands.
import { loadConfig, type TsmConfig } from '../vault/config.js';
import { UserError } from './run.js';

export function configFrom(argv: Record<string, unknown>): TsmConfig {
  return loadConfig({
    vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined,
    dbFlag: typeof argv.db === 'string' ? argv.db : undefined,
  });
}

/** Colours only on a TTY and never with NO_COLOR (https://no-color.org). */
export function useColor(toTerminal: boolean): boolean {
  return toTerminal && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '') && process.env.TERM !== 'dumb';
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

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
