// What a `user` transcript line means: a typed prompt, a slash command, or Claude Code plumbing.

import { redactForNote } from './redact.js';
import { stripControls } from '../text/controls.js';

export type UserContent = string | ReadonlyArray<unknown> | undefined;

/** Output of local commands and shell mode echoes back as `user` lines; none of it was typed as a request. */
const PLUMBING_TAGS = [
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-stdout',
  'bash-stderr',
];

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

function tagContent(text: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m ? m[1] : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a user message: text blocks joined, images marked, tool results never included. */
export function userText(content: UserContent): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') {
      if (!INTERRUPTED.test(block.text.trim())) parts.push(block.text);
    } else if (isRecord(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n\n');
}

/** Whether a user message carries tool results (then it is the tool's answer, never a prompt). */
export function toolResultBlocks(content: UserContent): Record<string, unknown>[] {
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'tool_result');
}

/**
 * The prompt a user message stands for, cleaned (private spans removed, secrets redacted),
 * or null when it is not a prompt (plumbing, interruption marker, injected reminder only).
 */
export function promptFromUserText(raw: string): string | null {
  const text = stripControls(raw).trim();
  if (text === '' || INTERRUPTED.test(text)) return null;

  const commandName = tagContent(text, 'command-name');
  if (commandName !== null && /^<command-(?:name|message|args)>/.test(text)) {
    const name = commandName.trim();
    const args = (tagContent(text, 'command-args') ?? '').trim();
    const slash = name.startsWith('/') ? name : `/${name}`;
    return finish(args ? `${slash} ${args}` : slash, raw);
  }
  const bashInput = tagContent(text, 'bash-input');
  if (bashInput !== null && text.startsWith('<bash-input>')) return finish(`! ${bashInput.trim()}`, raw);
  if (PLUMBING_TAGS.some((tag) => text.startsWith(`<${tag}>`))) return null;
  return finish(text, raw);
}

function finish(text: string, raw: string): string | null {
  const cleaned = redactForNote(text).trim();
  if (cleaned !== '') return cleaned;
  // Only an injected reminder: not something the user asked. Only private text: a prompt we may not show.
  return /<private[\s>]/i.test(raw) ? '(private)' : null;
}
