// One `### Actions` line of a session note, both ways: actionLine() writes it from a tool use
// (- Read `src/a.c`, - Bash `make` → error) and parseActionLine() reads it back, as well as hand-written
// lines (- Read src/a.c, - Bash `make` (exit 1)).
import { inlineCode, trimAtBoundary } from './markdown.js';
import type { ExitStatus, SessionAction } from './model.js';

const ACTION_CHARS = 160;

export interface ActionLine {
  tool: string;
  /** Path, command, pattern…; '' for name-only tools. */
  subject: string;
  /** Grep/Glob search scope (`in <path>`). */
  scope?: string;
  status?: ExitStatus;
  /** Why it failed, as written after `→ error:`. */
  error?: string;
  /** The line without its list marker, as the note shows it. */
  text: string;
}

const LIST_ITEM = /^\s{0,3}[-*+]\s+(.*\S)\s*$/;
const ARROW_STATUS = /\s*→\s*(ok|error|refused)\s*$/;

const EXIT_STATUS = /\s*\(exit(?: status| code)?:?\s*(-?\d+)\)\s*$/i;

/** A CommonMark code span at the start of `s`: its content and the rest, or null when `s` has none. */
export function leadingCodeSpan(s: string): { content: string; rest: string } | null {
  const open = /^`+/.exec(s);
  if (!open) return null;
  const fence = open[0];
  let from = fence.length;
  for (;;) {
    const at = s.indexOf(fence, from);
    if (at < 0) return null;
    // A longer backtick run does not close a shorter one.
    if (s[at + fence.length] === '`') {
      from = at + fence.length;
      while (s[from] === '`') from++;
      continue;
    }
    let content = s.slice(fence.length, at);
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    return { content, rest: s.slice(at + fence.length) };
  }
}

/** Takes a code span, or plain text up to an `in \`scope\`` part, from the start of `s`. */
function takeValue(s: string): { value: string; rest: string } {
  const code = leadingCodeSpan(s);
  if (code) return { value: code.content, rest: code.rest };
  const end = s.search(/\s+in\s+`/);
  return end < 0 ? { value: s.trim(), rest: '' } : { value: s.slice(0, end).trim(), rest: s.slice(end) };
}

export function parseActionLine(line: string): ActionLine | null {
  const item = LIST_ITEM.exec(line);
  if (!item) return null;
  const text = item[1];
  let rest = text;
  let status: ActionLine['status'];
  let error: string | undefined;
  const failed = errorAtEnd(rest);
  const arrow = failed ? null : ARROW_STATUS.exec(rest);
  const exit = failed || arrow ? null : EXIT_STATUS.exec(rest);
  if (failed) {
    status = 'error';
    error = failed.error;
    rest = rest.slice(0, failed.index);
  } else if (arrow) status = arrow[1] as ExitStatus;
  else if (exit) status = Number(exit[1]) === 0 ? 'ok' : 'error';
  const statusMatch = arrow ?? exit;
  if (statusMatch) rest = rest.slice(0, statusMatch.index);

  let tool: string;
  const codeTool = leadingCodeSpan(rest);
  if (codeTool) {
    tool = codeTool.content;
    rest = codeTool.rest;
  } else {
    const m = /^(\S+)/.exec(rest) as RegExpExecArray;
    tool = m[1];
    rest = rest.slice(m[1].length);
  }
  rest = rest.trimStart();
  let subject = '';
  if (rest !== '' && !/^in\s+`/.test(rest)) {
    const v = takeValue(rest);
    subject = v.value;
    rest = v.rest.trimStart();
  }
  const action: ActionLine = { tool, subject, text };
  const scope = /^in\s+(.*)$/.exec(rest);
  if (scope) action.scope = takeValue(scope[1]).value;
  if (status) action.status = status;
  if (error !== undefined) action.error = error;
  return action;
}

/**
 * `→ error: \`why\`` ending the line, read as a CommonMark code span: the last `→ error: ` whose rest is one
 * code span (so a command or an error that holds `→ error: ` itself is read right).
 */
function errorAtEnd(s: string): { index: number; error: string } | null {
  for (let at = s.lastIndexOf('→'); at >= 0; at = s.lastIndexOf('→', at - 1)) {
    const m = /^→\s*error:\s*/.exec(s.slice(at));
    if (!m) continue;
    const code = leadingCodeSpan(s.slice(at + m[0].length));
    if (code && code.rest.trim() === '') return { index: s.slice(0, at).trimEnd().length, error: code.content };
  }
  return null;
}

function code(text: string): string {
  return inlineCode(trimAtBoundary(text, ACTION_CHARS));
}

/** One list item per tool use: the tool, its subject in code, and how it ended when that matters. */
export function actionLine(action: SessionAction): string {
  // Tool names come from the model (MCP tools are named by servers): anything unusual goes in code.
  let line = `- ${/^[A-Za-z0-9_.:-]+$/.test(action.tool) ? action.tool : code(action.tool)}`;
  if (action.summary !== '') line += ` ${code(action.summary)}`;
  const searchTool = action.tool === 'Grep' || action.tool === 'Glob';
  if (searchTool && action.path) line += ` in ${code(action.path)}`;
  // Commands say how they ended; other tools only when they did not succeed.
  if (action.command !== undefined && action.exitStatus) line += ` → ${action.exitStatus}`;
  else if (action.exitStatus === 'error' || action.exitStatus === 'refused') line += ` → ${action.exitStatus}`;
  if (action.exitStatus === 'error' && action.error) line += `: ${inlineCode(action.error)}`;
  return line;
}
