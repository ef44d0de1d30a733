// Errors a tool reports to the model as an `isError` result: the message is all the model needs.

/** A bad argument or an unknown id/path/session: the message says what was wrong and what to do. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** Errors whose message is written for the reader (tsm's own), as opposed to bugs that need a stack. */
const EXPLAINED = new Set(['ToolError', 'FilterError', 'IndexError', 'ConfigError']);

/**
 * The text an error result carries. Filter messages are written for the CLI (`--after takes …`);
 * over MCP the same value is a parameter, so the flag dashes go.
 */
export function errorMessage(err: unknown): { message: string; explained: boolean } {
  const e = err instanceof Error ? err : new Error(String(err));
  if (!EXPLAINED.has(e.name)) return { message: `internal error: ${e.message}`, explained: false };
  return { message: e.name === 'FilterError' ? e.message.replace(/(^|\s)--(?=[a-z])/g, '$1') : e.message, explained: true };
}
