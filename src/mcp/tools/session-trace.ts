// session_trace: one Claude Code session, prompt by prompt, with what the agent did for each — read
// back from the session note `tsm ingest-session` (or the hooks) wrote.
import { z } from 'zod';
import { ambiguousMessage } from '../../core/errors.js';
import type { NoteRecord } from '../../core/types.js';
import { truncateText } from '../../text/chars.js';
import { collapseWhitespace } from '../../text/markdown-line.js';
import { ToolError } from '../errors.js';
import { inSessionOrder, promptFiles, sessionIdOfRecord, type SessionPromptView } from '../session-note.js';
import { defineTool, preview, RESULT_CHAR_BUDGET, withinBudget } from '../tool.js';
import { linkReadingOf } from '../../search/link-reading.js';
import type { LinkReading } from '../../text/markdown-line.js';

export const MIN_SESSION_PREFIX = 8;
const PROMPT_CHARS = 300;
const ANSWER_CHARS = 200;
/** A plan's preview: its verdict line and the head of the plan (what the session decided). */
const PLAN_CHARS = 300;

export const sessionTraceTool = defineTool({
  name: 'session_trace',
  title: 'Trace a session',
  description: [
    'Drill into one past Claude Code session: its prompts in order, each with the actions taken (Read/Edit/Write',
    'with paths, Bash commands with how they ended, other tools), the files it read and edited, and the start of',
    'the answer. session_id is the full id or its first 8+ characters (session notes are named',
    'YYYY-MM-DD-<project>-<first 8 of id>.md; search results of type "session" carry it in their path). Returns',
    '{session_id, project, cwd, git_branch, started, ended, path, title, prompts:[{n, id, line, prompt, actions,',
    'files_read, files_edited, answer_preview, plan_preview?}]} (plan_preview: the plan put to the user in plan mode, opened by whether they approved it); id is the prompt\'s section id for get_sections/timeline. In a long',
    'session the later prompts come as {n, id, omitted: true}: read them with get_sections or timeline; in a very long one',
    'the list stops and next_from says where to go on: call again with from = next_from. from: the first prompt number to list.',
    'Unknown session → error "session not found".',
  ].join(' '),
  inputSchema: {
    session_id: z.string().describe(`session id or its first ${MIN_SESSION_PREFIX}+ characters`),
    from: z.number().int().optional().describe('the first prompt number to list (default: the first); next_from of a trace that stopped'),
  },
  run(args, ctx) {
    const id = args.session_id.trim();
    if (Array.from(id).length < MIN_SESSION_PREFIX) {
      throw new ToolError(`session_id needs at least ${MIN_SESSION_PREFIX} characters (got "${id}")`);
    }
    return ctx.withIndex((db, reader) => {
      const links = linkReadingOf(db);
      const notes = reader.sessionNotes(id);
      if (notes.length === 0) throw new ToolError(`session not found: ${id}`);
      const ids = [...new Set(notes.map(sessionIdOf))];
      if (ids.length > 1) {
        throw new ToolError(ambiguousMessage(`session id "${id}"`, 'starts', 'sessions', ids, 'give more characters'));
      }
      // One session may span several notes (inSessionOrder): by the date alone a trace began at prompt 191.
      const parts = inSessionOrder(reader, notes).map(({ note, prompts }) => ({ note, prompts: tracePrompts(note, prompts, links) }));
      const first = parts[0].note;
      const fm = first.frontmatter;
      const from = args.from;
      const { prompts, nextFrom } = promptsWithinBudget(parts.flatMap((part) => part.prompts).filter((p) => from === undefined || p.n >= from));
      const last = parts[parts.length - 1].note.frontmatter;
      return {
        session_id: ids[0],
        project: str(fm.project),
        cwd: str(fm.cwd),
        git_branch: str(fm.git_branch),
        started: str(fm.started),
        ended: str(last.ended) ?? str(fm.ended),
        path: first.path,
        ...(parts.length > 1 ? { other_paths: parts.slice(1).map((part) => part.note.path) } : {}),
        title: first.title,
        prompts,
        ...(nextFrom !== null ? { next_from: nextFrom } : {}),
      };
    });
  },
});

function tracePrompts(note: NoteRecord, prompts: SessionPromptView[], links: LinkReading) {
  return prompts.map((p) => {
    const files = promptFiles(p, note.frontmatter);
    return {
      n: p.n,
      id: p.sectionId,
      line: p.line,
      prompt: truncateText(collapseWhitespace(p.text || p.heading), PROMPT_CHARS),
      actions: p.actions.map((a) => a.text),
      files_read: files.read,
      files_edited: files.edited,
      answer_preview: preview(p.answer, links, ANSWER_CHARS),
      ...(p.plan !== '' ? { plan_preview: preview(p.plan, links, PLAN_CHARS) } : {}),
    };
  });
}

/**
 * The prompts as one result holds them: whole while they fit beside the short forms of the rest (withinBudget).
 * When the short forms alone would pass half the budget (a session of 1,200 prompts gave 46,000 characters of
 * `{n, id, omitted: true}` and no prompt whole), the list stops there and `nextFrom` is the first prompt left.
 */
function promptsWithinBudget<T extends { n: number; id: number }>(all: T[]): { prompts: (T | { n: number; id: number; omitted: true })[]; nextFrom: number | null } {
  const short = (p: T) => ({ n: p.n, id: p.id, omitted: true as const });
  let kept = 0;
  let chars = 0;
  for (; kept < all.length; kept++) {
    chars += JSON.stringify(short(all[kept])).length + 1;
    if (chars > RESULT_CHAR_BUDGET / 2) break;
  }
  return { prompts: withinBudget(all.slice(0, kept), short), nextFrom: kept < all.length ? all[kept].n : null };
}

function sessionIdOf(note: NoteRecord): string {
  return sessionIdOfRecord(note) ?? '';
}

function str(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  return v instanceof Date ? v.toISOString() : String(v);
}
