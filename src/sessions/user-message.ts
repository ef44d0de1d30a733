// What a `user` transcript line means: a typed prompt, a slash command, or Claude Code plumbing.

import { stripControls } from '../text/controls.js';
import { keptRedacted } from './kept-text.js';

export type UserContent = string | ReadonlyArray<unknown> | undefined;

/**
 * Output of local commands and shell mode echoes back as `user` lines; none of it was typed as a request. Nor
 * are the notices Claude Code sends the model itself, as `user` lines (not always marked isMeta): a background
 * command or agent finished (`<task-notification>`, 2.0.76's `<agent-notification>`), a teammate of an agent
 * team wrote (`<teammate-message teammate_id="…">`). They were prompts of their own: `## 2. <task-notification>`
 * with the XML as its text, and what Claude did about it as that "prompt"'s answer.
 */
const PLUMBING_TAGS = [
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-stdout',
  'bash-stderr',
  'task-notification',
  'agent-notification',
  'teammate-message',
];
/** A user line that starts with one of PLUMBING_TAGS (attributes allowed: `<teammate-message teammate_id="x">`). */
const PLUMBING = new RegExp(`^<(?:${PLUMBING_TAGS.join('|')})(?:[ \t\n][^>]*)?>`);

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

/**
 * Context an IDE integration (VS Code, JetBrains) adds to the user's message as text blocks of their own:
 * the file open in the editor, the lines selected (a selection of a .env holds its secrets). Not what the
 * user typed: they made the note's title `proj: <ide_opened_file>The user opened the file …`, copied the
 * selection into the note and into SessionStart's recent intents. A closed pair is dropped wherever it is;
 * an opening tag never closed drops the rest of its block only when the block starts with it (as the
 * integrations write it: when in doubt, write less). An unclosed tag inside typed text is text: "why does
 * the <ide_selection> tag show up?" is the prompt, whole.
 */
const IDE_TAG = '<(?:ide_opened_file|ide_selection)>';
/** A closed pair; its content never holds another opening tag, so a typed tag before a real pair stays. */
const IDE_PAIR = new RegExp(`<(ide_opened_file|ide_selection)>(?:(?!${IDE_TAG})[\\s\\S])*?</\\1>`, 'g');
const IDE_UNCLOSED_BLOCK = new RegExp(`^\\s*${IDE_TAG}[\\s\\S]*$`);

export function stripIdeContext(text: string): string {
  return text.replace(IDE_PAIR, '').replace(IDE_UNCLOSED_BLOCK, '');
}

function tagContent(text: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m ? m[1] : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a user message: text blocks joined, images marked, tool results and IDE context never included. */
export function userText(content: UserContent): string {
  if (typeof content === 'string') return stripIdeContext(content);
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    const text = typeof block === 'string' ? block : isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : null;
    if (text !== null) {
      // Block by block, so that a block of IDE context left unclosed cannot hide the typed prompt after it.
      const typed = stripIdeContext(text);
      if (typed.trim() !== '' && !INTERRUPTED.test(typed.trim())) parts.push(typed);
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
  if (PLUMBING.test(text)) return null;
  return finish(text, raw);
}

/**
 * Claude Code's built-in commands that work on the session itself (clear it, compact it, pick a model, resume
 * another, show costs or settings) rather than ask for anything: a prompt of its own in the note (it happened),
 * never the session's subject. After `/clear` Claude Code starts a new session whose transcript opens with the
 * command, so its note was titled `proj: /clear`. Commands that send Claude a request (`/init`, `/review`,
 * `/security-review`, a project's or a plugin's own commands) are subjects, and are not here.
 */
const SESSION_COMMANDS = new Set(
  (
    'add-dir agents bashes bug clear compact config context continue cost doctor exit export help hooks ide ' +
    'install-github-app login logout mcp memory model output-style permissions plugin privacy-settings quit ' +
    'release-notes resume rewind sandbox status statusline terminal-setup theme todos upgrade usage vim'
  ).split(' '),
);

/** Whether a prompt (as promptFromUserText gives it) is one of SESSION_COMMANDS, with or without arguments. */
export function isSessionCommand(prompt: string): boolean {
  const m = /^\/([a-z-]+)(?:\s|$)/.exec(prompt);
  return m !== null && SESSION_COMMANDS.has(m[1]);
}

/**
 * Longest prompt a session note keeps, in characters (answers: `answerChars`, 1,200). A pasted 5.4 MB log
 * was kept whole: a 5.4 MB note, a 5.5 MB ingest state, both rewritten by every later Stop (~0.7 s each).
 * A page of text says what was asked; the rest is in the transcript. (Only its head is read for secrets:
 * kept-text.ts.)
 */
export const PROMPT_CHARS = 4000;

function finish(text: string, raw: string): string | null {
  const cleaned = keptRedacted(text, PROMPT_CHARS);
  if (cleaned !== '') return cleaned;
  // Only an injected reminder: not something the user asked. Only private text: a prompt we may not show.
  return /<private[\s>]/i.test(raw) ? '(private)' : null;
}
