// Errors a tool reports to the model as an `isError` result: the message is all the model needs.
import { isExplained, TsmError } from '../core/errors.js';
import { readableMessage } from '../core/machine-limits.js';

/** A bad argument or an unknown id/path/session: the message says what was wrong and what to do. */
export class ToolError extends TsmError {
  override name = 'ToolError';
}

/**
 * The text an error result carries. tsm's own errors (src/core/errors.ts) are written for the reader;
 * anything else is a bug. Filter messages are written for the CLI (`--after takes …`); over MCP the same
 * value is a parameter, so the flag dashes go.
 */
export function errorMessage(err: unknown): { message: string; explained: boolean } {
  const e = err instanceof Error ? err : new Error(String(err));
  if (!isExplained(e)) {
    const short = readableMessage(e); // the machine ran short (a full disk, too many open files): not a bug
    return short === null ? { message: `internal error: ${e.message}`, explained: false } : { message: short, explained: true };
  }
  return { message: e.name === 'FilterError' ? e.message.replace(/(^|\s)--(?=[a-z])/g, '$1') : e.message, explained: true };
}
