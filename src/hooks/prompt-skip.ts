// Which prompts the prompt hook does not search. Every check is on the prompt's text alone, so a skipped
// prompt costs no file system access, no SQLite and no search code: this module loads only the
// acknowledgement list and the Unicode tables (dispatch.ts asks it before loading prompt-context.ts).
import { isAcknowledgement } from './acknowledgement.js';

/** Prompts shorter than this (in characters) are not searched. */
export const MIN_PROMPT_CHARS = 3;

/** Why a prompt is not searched, or null when it is. The reasons are listed in docs/claude-code.md. */
export function promptSkipReason(prompt: string): string | null {
  const text = prompt.trim();
  if ([...text].length < MIN_PROMPT_CHARS) return `shorter than ${MIN_PROMPT_CHARS} characters`;
  if (text.startsWith('/')) return 'a slash command';
  if (text.startsWith('<')) return 'starts with <';
  if (isShellLine(text)) return 'a shell command (! as in bash mode)';
  if (isAcknowledgement(text)) return 'an acknowledgement';
  if (isOnlyCode(text)) return 'only a fenced code block';
  return null;
}

/**
 * `!git status`: Claude Code's bash mode. Typed in a session it never reaches UserPromptSubmit (2.0.12,
 * 2.0.76 and 2.1.331 return before the prompt hooks in bash mode); it does as the text of `claude -p` or an
 * SDK prompt, where a one-line shell command is still nothing to search notes for. `!!` or a second line
 * and it is searched.
 */
function isShellLine(text: string): boolean {
  return text.startsWith('!') && text[1] !== '!' && !text.includes('\n');
}

/** An opening or closing fence: up to 3 spaces, then 3 or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * True when the prompt is one or more closed fenced code blocks with only blank lines outside them: pasted
 * code with no question. Its identifiers match notes by chance (```` ```c\nint main(){return 0;}\n``` ````
 * injected 3 notes on vault-example). An unclosed fence (```` ``` is the fence syntax? ````) is searched.
 */
export function isOnlyCode(text: string): boolean {
  if (!FENCE.test(text.slice(0, text.indexOf('\n') + 1 || text.length).trimEnd())) return false;
  let open: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    const fence = FENCE.exec(line);
    if (open === null) {
      if (line === '') continue;
      // An opening backtick fence's info string holds no backtick (CommonMark): ```a``` is inline code.
      if (!fence || (fence[1][0] === '`' && fence[2].includes('`'))) return false;
      open = fence[1];
    } else if (fence && fence[1][0] === open[0] && fence[1].length >= open.length && fence[2].trim() === '') {
      open = null;
    }
  }
  return open === null;
}
