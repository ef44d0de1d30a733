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

/** How many of an ambiguous name's matches a message lists. */
const AMBIGUOUS_LISTED = 10;

/**
 * One wording for a name that fits several things (a note name in `tsm related` and the MCP tools, a
 * session id prefix in `session_trace`): `note "x" is ambiguous: it names 2 notes (a/x.md, b/x.md); give
 * its vault path`. Never a silent pick of one of them.
 */
export function ambiguousMessage(name: string, verb: string, noun: string, matches: readonly string[], fix: string): string {
  const listed = matches.slice(0, AMBIGUOUS_LISTED).join(', ');
  const more = matches.length > AMBIGUOUS_LISTED ? ` … and ${matches.length - AMBIGUOUS_LISTED} more` : '';
  return `${name} is ambiguous: it ${verb} ${matches.length} ${noun} (${listed}${more}); ${fix}`;
}

/** A note name (a file name or a title) that fits more than one note. */
export class AmbiguousNoteError extends TsmError {
  override name = 'AmbiguousNoteError';
  constructor(
    typed: string,
    readonly paths: readonly string[],
  ) {
    super(ambiguousMessage(`note "${typed}"`, 'names', 'notes', paths, 'give its vault path'));
  }
}
