// Shared argv → config plumbing for the commands.
import { loadConfig, type TsmConfig } from '../vault/config.js';

export function configFrom(argv: Record<string, unknown>): TsmConfig {
  return loadConfig({
    vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined,
    dbFlag: typeof argv.db === 'string' ? argv.db : undefined,
  });
}

/** Colours only on a TTY and never with NO_COLOR (https://no-color.org). */
export function useColor(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '') && process.env.TERM !== 'dumb';
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
