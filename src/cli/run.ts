// How every command runs and fails: errors go to stderr as one `tsm: …` line, with exit 1 (2 for usage).
// `tsm hook` never exits 2: Claude Code erases the user's prompt on exit 2.
import { writeErr } from './stdio.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** An error whose message is already what the user should read (no stack trace). */
export class UserError extends Error {
  override name = 'UserError';
}

const KNOWN = new Set(['ConfigError', 'IndexError', 'UsageError', 'UserError', 'FilterError']);

export interface CommandModule {
  run(argv: Record<string, unknown>): Promise<void> | void;
}

export async function runCommand(load: () => Promise<CommandModule>, argv: Record<string, unknown>): Promise<void> {
  const mod = await load();
  await mod.run(argv);
}

export function fail(err: unknown): void {
  const isHook = process.argv[2] === 'hook';
  const e = err instanceof Error ? err : new Error(String(err));
  if (e.name === 'UsageError' || e.name === 'FilterError') {
    writeErr(`tsm: ${e.message}\n${isHook ? '' : 'Run `tsm --help` for usage.\n'}`);
    process.exitCode = isHook ? 1 : 2;
    return;
  }
  writeErr(KNOWN.has(e.name) ? `tsm: ${e.message}\n` : `tsm: ${e.stack ?? e.message}\n`);
  process.exitCode = 1;
}
