// One tool use → one action line's worth of facts: which file, which command, which pattern.

import { redactForNote } from './redact.js';
import { oneLine } from './markdown.js';
import { stripControls } from '../text/controls.js';
import type { SessionAction } from './model.js';
import { keptRedacted } from './kept-text.js';
import { PROMPT_CHARS } from './user-message.js';

/** Tools whose `file_path` (or `notebook_path`) the agent read. */
export const READ_TOOLS = new Set(['Read', 'NotebookRead']);
/** Tools whose `file_path` (or `notebook_path`) the agent changed. */
export const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const SUMMARY_CHARS = 200;
/** Commands are kept whole for session_trace, up to a bound that keeps heredocs from bloating state. */
const COMMAND_CHARS = 2000;

type Input = Record<string, unknown>;

const str = (input: Input, key: string): string | undefined =>
  typeof input[key] === 'string' && (input[key] as string).trim() !== '' ? (input[key] as string) : undefined;

/** A path as the note shows it: relative to the session's working directory when inside it. */
export function displayPath(path: string, cwd: string | null): string {
  const cleaned = redactForNote(stripControls(path)).trim();
  if (cwd) {
    if (cleaned === cwd) return '.';
    for (const sep of ['/', '\\']) {
      const root = cwd.endsWith(sep) ? cwd : cwd + sep;
      if (cleaned.startsWith(root) && cleaned.length > root.length) return cleaned.slice(root.length);
    }
  }
  return cleaned;
}

const summaryOf = (text: string | undefined) => (text === undefined ? '' : oneLine(redactForNote(stripControls(text)), SUMMARY_CHARS));

/** The action a `tool_use` block stands for. `cwd` is the session's (already cleaned) working directory. */
export function describeToolUse(name: string, input: Input, cwd: string | null, toolUseId: string | undefined): SessionAction {
  const action: SessionAction = { tool: redactForNote(stripControls(name)) || 'unknown', summary: '' };
  if (toolUseId) action.toolUseId = toolUseId;

  if (READ_TOOLS.has(name) || EDIT_TOOLS.has(name)) {
    const file = str(input, 'file_path') ?? str(input, 'notebook_path') ?? str(input, 'path');
    if (file !== undefined) {
      action.path = displayPath(file, cwd);
      action.summary = oneLine(action.path, SUMMARY_CHARS);
    }
    return action;
  }
  switch (name) {
    case 'Bash':
    case 'BashOutput': {
      const command = str(input, 'command');
      if (command !== undefined) {
        const cleaned = redactForNote(stripControls(command)).trim();
        action.command = cleaned.length > COMMAND_CHARS ? cleaned.slice(0, COMMAND_CHARS) + '…' : cleaned;
        action.summary = commandSummary(cleaned);
      }
      return action;
    }
    case 'Grep':
    case 'Glob': {
      action.summary = summaryOf(str(input, 'pattern'));
      const scope = str(input, 'path');
      if (scope !== undefined) action.path = displayPath(scope, cwd);
      return action;
    }
    case 'WebSearch':
      action.summary = summaryOf(str(input, 'query'));
      return action;
    case 'WebFetch':
      action.summary = summaryOf(str(input, 'url'));
      return action;
    case 'Task':
    case 'Agent': {
      const parts = [str(input, 'subagent_type'), str(input, 'description')].filter((p) => p !== undefined);
      action.summary = summaryOf(parts.join(': ') || undefined);
      return action;
    }
    case 'AskUserQuestion':
      action.summary = questionsSummary(input.questions);
      return action;
    case 'ExitPlanMode':
      setPlan(action, input.plan);
      return action;
    case 'Skill':
    case 'SlashCommand':
      action.summary = summaryOf(str(input, 'skill') ?? str(input, 'command'));
      return action;
    default:
      // MCP and future tools: their most telling argument, when they have a usual one.
      action.summary = summaryOf(GENERIC_SUBJECT_KEYS.map((key) => str(input, key)).find((v) => v !== undefined));
      return action;
  }
}

/**
 * AskUserQuestion on one line: each question by its short header (its text when it has none), followed by the
 * answer the user chose or typed once there is one — `Rig prefix: No rig; Tools: Credo + Dialyxir`. The answers
 * are the session's decisions, and were lost: the line said `AskUserQuestion` alone. Claude Code (2.1.38)
 * writes them in the result line's toolUseResult: `questions` as asked, `answers` keyed by question text.
 */
export function questionsSummary(questions: unknown, answers?: unknown): string {
  if (!Array.isArray(questions)) return '';
  const chosen = typeof answers === 'object' && answers !== null && !Array.isArray(answers) ? (answers as Input) : {};
  const parts: string[] = [];
  for (const q of questions) {
    if (typeof q !== 'object' || q === null) continue;
    const question = str(q as Input, 'question');
    const label = str(q as Input, 'header') ?? question;
    if (label === undefined) continue;
    const answer = question === undefined ? undefined : chosen[question];
    const text = typeof answer === 'string' ? answer : Array.isArray(answer) ? answer.filter((a) => typeof a === 'string').join(', ') : '';
    parts.push(text.trim() === '' ? label : `${label}: ${text}`);
  }
  return summaryOf(parts.join('; ') || undefined);
}

/**
 * Longest plan a note keeps, in characters: what the user approved weighs what they typed (PROMPT_CHARS);
 * a plan is most often 1,000–6,000 characters, and its head says what was decided.
 */
export const PLAN_CHARS = PROMPT_CHARS;

/**
 * Sets an ExitPlanMode action's plan (markdown: `input.plan` in Claude Code 2.0.x and from about 2.1.4x;
 * the result's `toolUseResult.plan` in every version that has one, the user's edits included) and its
 * summary, the plan's first line without its `#` marks. A missing or empty plan leaves the action as it is:
 * 2.1.38 writes `input: {}` and, when no plan file was written, `plan: null`, and then there is no plan to keep
 * (Claude Code's own reply says "User has approved exiting plan mode"). The plan file under ~/.claude/plans/
 * is not read: it is rewritten by the session's later plans, and the transcript holds what was put to the user.
 */
export function setPlan(action: SessionAction, plan: unknown): void {
  if (typeof plan !== 'string') return;
  const kept = keptRedacted(stripControls(plan), PLAN_CHARS);
  if (kept === '') return;
  action.plan = kept;
  action.summary = oneLine(kept.split('\n').find((l) => l.trim() !== '')?.replace(/^\s*#+\s*/, '') ?? '', SUMMARY_CHARS);
}

/** Longest error line an action keeps (characters): why it failed, not its output. */
const ERROR_CHARS = 120;
/** A line that says what went wrong; before it, a failed command's output often starts with its own echo. */
const TELLING = /error|fail|fatal|denied|not found|no such|cannot|can't|unable|invalid|refused|timed? ?out|exception|panic/i;

/**
 * Why a tool use failed, from its result text: the first line that says so (else the first line), without
 * Claude Code's `Exit code N` line, `<tool_use_error>` tags or colours, never from a `<private>` or
 * `<system-reminder>` span, redacted, at most ERROR_CHARS; null when the result says nothing more. A note
 * said `→ error` alone, so "command not found" or "No such file" was lost, and so was any way to find the
 * session by the error it met.
 */
export function errorLine(result: string): string | null {
  // Hidden spans and secrets go before the text is cut into lines: a <system-reminder> Claude Code appends to a
  // result, a <private> span or a key block is many lines, and a line taken out of one no longer showed it
  // was in one (a reminder's line, "…raise RuntimeError(…)" of a file it quoted, became the note's error).
  const lines = redactForNote(stripControls(result.slice(0, 20_000)).replace(/<\/?tool_use_error>/g, '\n'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Exit code -?\d+$/i.test(l));
  const line = lines.find((l) => TELLING.test(l)) ?? lines[0];
  return line === undefined ? null : oneLine(line, ERROR_CHARS) || null;
}

const GENERIC_SUBJECT_KEYS = ['query', 'url', 'pattern', 'file_path', 'path', 'command', 'description'];

/** A command on one line for lists and action lines: the first line, with `…` when more follows. */
export function commandSummary(command: string): string {
  const lines = command.split('\n').filter((l) => l.trim() !== '');
  const first = oneLine(lines[0] ?? '', SUMMARY_CHARS);
  return lines.length > 1 && !first.endsWith('…') ? `${first} …` : first;
}
