// One error vocabulary for every surface. An error whose message is already written for the reader (what
// went wrong and the command that fixes it) extends TsmError; anything else is a bug and is reported with
// its stack (CLI), as "internal error" (MCP) or with its first frame (hook.log).
//
// Recognised by a brand, not by `instanceof`: the fast-path bundle (dist/tsm.cjs) and the code-split
// dist/lazy/ modules each hold their own copy of these classes, so an error thrown by the lazily loaded
// indexer is not an instance of the fast path's class. Symbol.for() is one registry per process.
const EXPLAINED = Symbol.for('tsm.explained-error');

export class TsmError extends Error {
  /** How a command-line surface reports it: `usage` errors exit 2 (never from a hook), the rest exit 1. */
  readonly kind: 'usage' | 'user' = 'user';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    (this as unknown as Record<symbol, boolean>)[EXPLAINED] = true;
  }
}

/** True for tsm's own errors (from any bundle): their message is all the user needs. */
export function isExplained(err: unknown): err is TsmError {
  return err instanceof Error && (err as unknown as Record<symbol, unknown>)[EXPLAINED] === true;
}

/** True for an explained error that is about how the command was called (exit 2 on the command line). */
export function isUsageError(err: unknown): boolean {
  return isExplained(err) && (err as TsmError).kind === 'usage';
}
