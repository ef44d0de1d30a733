// The JSON object Claude Code sends a hook on stdin (docs/claude-code.md). Only the fields tsm uses are read; unknown
// fields are ignored and a known field of the wrong type counts as absent, so a newer Claude Code cannot
// break the hook. Only stdin that is not a JSON object at all is an input error.

import { TsmError } from '../core/errors.js';
import { headAndTail } from '../text/chars.js';

/** The events `tsm hook` handles. */
export const HOOK_EVENTS = ['UserPromptSubmit', 'SessionStart', 'Stop', 'PreCompact', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Stdin that is not a hook payload: reported on stderr with exit 1 (never 2, which would block). */
export class HookInputError extends TsmError {
  override name = 'HookInputError';
}

export interface HookPayload {
  /** `hook_event_name` as sent (may be an event tsm does not handle). */
  eventName: string | null;
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  /** UserPromptSubmit. */
  prompt: string | null;
  /** SessionStart: startup | resume | clear | compact. */
  source: string | null;
  /** SessionEnd. */
  reason: string | null;
  /** PreCompact: manual | auto. */
  trigger: string | null;
}

/**
 * Longest prompt the hook works with, in UTF-16 units: its first and last halves (a pasted log or file
 * between a question and its follow-up says little about what to search for). Every later step (the skip
 * rules, the search text, the query attribute) then costs the same for a 5 MB prompt as for a page.
 */
export const MAX_PROMPT_CHARS = 10_000;

function capPrompt(prompt: string | null): string | null {
  return prompt === null ? null : headAndTail(prompt, MAX_PROMPT_CHARS);
}

export function parseHookPayload(stdin: string): HookPayload {
  const text = stdin.replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    throw new HookInputError('no hook payload on stdin: `tsm hook` reads the JSON object Claude Code sends');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new HookInputError(`the hook payload on stdin is not valid JSON (${(err as Error).message})`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new HookInputError(`the hook payload on stdin must be a JSON object (got ${Array.isArray(data) ? 'an array' : typeof data === 'object' ? 'null' : typeof data})`);
  }
  const o = data as Record<string, unknown>;
  const str = (key: string): string | null => (typeof o[key] === 'string' ? (o[key] as string) : null);
  const nonEmpty = (key: string): string | null => {
    const v = str(key);
    return v === null || v.trim() === '' ? null : v;
  };
  return {
    eventName: nonEmpty('hook_event_name'),
    sessionId: nonEmpty('session_id'),
    transcriptPath: nonEmpty('transcript_path'),
    cwd: nonEmpty('cwd'),
    prompt: capPrompt(str('prompt')),
    source: nonEmpty('source'),
    reason: nonEmpty('reason'),
    trigger: nonEmpty('trigger'),
  };
}

/**
 * The event a name stands for, ignoring case, `-` and `_` (so `session-start` works as the `event`
 * argument); null for events tsm does not handle.
 */
export function canonicalEvent(name: string | null | undefined): HookEvent | null {
  if (!name) return null;
  const key = name.replace(/[-_\s]/g, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === key) ?? null;
}

/** The fields a detached SessionEnd worker needs: small enough for an environment variable. */
export function essentialPayload(p: HookPayload): string {
  return JSON.stringify({
    hook_event_name: p.eventName,
    session_id: p.sessionId,
    transcript_path: p.transcriptPath,
    cwd: p.cwd,
    reason: p.reason,
  });
}
