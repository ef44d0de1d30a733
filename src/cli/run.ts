// How every command runs and fails: errors go to stderr as one `tsm: …` line, with exit 1 (2 for usage).
// A hook never exits 2 (Claude Code erases the user's prompt on exit 2): main.ts marks a hook run with
// setHookMode(), and fail() then reports a usage error with exit 1.
import { isUsageError, TsmError } from '../core/errors.js';
import { readableMessage } from '../core/machine-limits.js';
import { stripControls } from '../text/controls.js';
import { writeErr } from './stdio.js';

/** The command line itself is wrong: exit 2 with a pointer to the command's --help. */
export class UsageError extends TsmError {
  override name = 'UsageError';
  override readonly kind = 'usage';
}

/** An error whose message is already what the user should read (no stack trace). */
export class UserError extends TsmError {
  override name = 'UserError';
}

export interface CommandModule {
  run(argv: Record<string, unknown>): Promise<void> | void;
}

export async function runCommand(load: () => Promise<CommandModule>, argv: Record<string, unknown>): Promise<void> {
  const mod = await load();
  await mod.run(argv);
}

let hookMode = false;

/** From now on this process answers a hook: no error may exit 2. */
export function setHookMode(): void {
  hookMode = true;
}

/** Reports an error on stderr; `help`, the help a usage error points to (command-options.ts helpFor). */
export function fail(err: unknown, help: string): void {
  const e = err instanceof Error ? err : new Error(String(err));
  if (isUsageError(e)) {
    writeErr(`tsm: ${stripControls(e.message)}\n${hookMode ? '' : `Run \`${help}\` for usage.\n`}`);
    process.exitCode = hookMode ? 1 : 2;
    return;
  }
  // A message may echo what the user typed or a vault's file name: no terminal escape reaches stderr.
  const readable = readableMessage(e);
  writeErr(readable !== null ? `tsm: ${stripControls(readable)}\n` : `tsm: ${e.stack ?? e.message}\n`);
  process.exitCode = 1;
}
