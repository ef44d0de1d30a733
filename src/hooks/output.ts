// What a hook prints on stdout to add context (docs/claude-code.md): one JSON object, exit 0.
import type { HookEvent } from './payload.js';

/** Claude Code cuts hook output past this many characters; tsm stays below it. */
export const MAX_HOOK_OUTPUT = 10_000;

export function hookOutput(event: HookEvent, additionalContext: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } })}\n`;
}
