// A session model → one markdown note: frontmatter for filters, one section per prompt for search.
// Each prompt's section says, without an LLM, what was asked (the prompt), what was looked at (the
// actions: files read, searches) and what was done (files edited, commands, the answer). The layout is
// note-format.ts's.

import { localDay } from '../core/days.js';
import { actionLine } from './action-line.js';
import { firstLine, headingText, keptHead, safeBlock } from './markdown.js';
import { UNKNOWN_PROJECT, type SessionModel, type SessionPrompt } from './model.js';
import { ACTIONS_SECTION, ANSWER_SECTION, PLAN_OUTCOME_LINES, PLAN_SECTION, promptHeading, sessionNameId } from './note-format.js';
import { renderFrontmatter } from './yaml.js';
import { sliceModel } from './transcript.js';
import { isSessionCommand } from './user-message.js';

export interface RenderOptions {
  /** Longest answer kept per prompt, in characters (default 1200). */
  answerChars: number;
  /**
   * Set on a continuation note (the session's earlier note was edited by its user, so tsm leaves it alone and
   * writes later prompts to a new note): the file name of the session's first note, and this note's part number.
   */
  continues?: { note: string; part: number } | null;
}

export const DEFAULT_ANSWER_CHARS = 1200;

const TITLE_CHARS = 80;
const HEADING_CHARS = 80;

/** A file-name-safe slug: letters (any script), digits, `.`, `_`, `-`; lower case. */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return Array.from(slug).slice(0, 60).join('').replace(/[-.]+$/, '') || fallback;
}

/** YYYY-MM-DD of an ISO timestamp in local time (the user's day, like daily notes), or null. */
function localDate(iso: string | null): string | null {
  if (iso === null) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : localDay(d);
}

/** `YYYY-MM-DD-<project>-<first 8 of session id>.md` (or more of the id: note-format.ts), dated by `started`. */
export function sessionNoteName(model: SessionModel, idLength?: number): string {
  const date = localDate(model.started) ?? localDate(model.ended) ?? 'undated';
  const project = slugify(model.project, UNKNOWN_PROJECT);
  const id = sessionNameId(model.sessionId, idLength);
  return `${date}-${project}-${id}.md`;
}

/** Whether the session has anything worth a note (a prompt, or activity). */
export function hasContent(model: SessionModel): boolean {
  return model.prompts.some((p) => p.n > 0 || p.actions.length > 0 || p.answer !== '');
}

export function renderSessionNote(model: SessionModel, opts: RenderOptions): string {
  return joinNote(noteHead(model, opts), model.prompts.map((p) => renderPrompt(p, answerCharsOf(opts))));
}

/**
 * The note renderSessionNote writes, closed before its last prompt when it would pass `maxBytes`: as many
 * prompts as fit, at least one (`closed` then says so). Only a note that ends before the last prompt is
 * closed, since only the last prompt still grows (its actions, its answer); a last prompt too big alone stays
 * in an open note. Each prompt is rendered once (`rendered`: across the notes of one ingest); the head
 * (frontmatter, title) of each candidate once.
 */
export function renderSessionNoteWithin(
  model: SessionModel,
  opts: RenderOptions,
  maxBytes: number,
  rendered: Map<number, string> = new Map(),
): { model: SessionModel; content: string; closed: boolean } {
  // A prompt renders the same in any note: `rendered` (by prompt number) keeps the blocks for the next note
  // of the same ingest. Without it a transcript read at once into 7 notes rendered its prompts 4,400 times.
  const blockOf = (p: SessionPrompt): string => {
    let block = rendered.get(p.n);
    if (block === undefined) {
      block = renderPrompt(p, answerCharsOf(opts));
      rendered.set(p.n, block);
    }
    return block;
  };
  const blocks = model.prompts.map(blockOf);
  const sizes = [0];
  for (const b of blocks) sizes.push(sizes[sizes.length - 1] + Buffer.byteLength(b) + 2); // '\n\n' before each
  const bytesUpTo = (m: SessionModel, i: number) => Buffer.byteLength(noteHead(m, opts)) + sizes[i + 1] + 1;
  const last = model.prompts.length - 1;
  if (last < 1 || bytesUpTo(model, last) <= maxBytes) return { model, content: joinNote(noteHead(model, opts), blocks), closed: false };
  const upTo = (i: number) => {
    const m = sliceModel(model, -Infinity, model.prompts[i].n);
    // Its own end, not the session's so far: a closed note is written once, the same by every ingest.
    m.ended = m.prompts.at(-1)?.timestamp ?? m.ended;
    return m;
  };
  // The prompt a closed note ends with: any but the last, the most that fit (sizes grow with the prompts kept).
  let lo = 0;
  let hi = last - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytesUpTo(upTo(mid), mid) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  const kept = upTo(lo);
  return { model: kept, content: joinNote(noteHead(kept, opts), blocks.slice(0, lo + 1)), closed: true };
}

function answerCharsOf(opts: RenderOptions): number {
  return Number.isFinite(opts.answerChars) && opts.answerChars > 0 ? Math.floor(opts.answerChars) : DEFAULT_ANSWER_CHARS;
}

/** The frontmatter and the title heading. */
function noteHead(model: SessionModel, opts: RenderOptions): string {
  const cont = opts.continues ?? null;
  const heading = cont ? `${title(model)} (part ${cont.part})` : title(model);
  return `${frontmatter(model, cont?.note ?? null)}\n\n# ${headingText(heading)}`;
}

/** A note of its head and its prompts' blocks, a blank line before each. */
function joinNote(head: string, blocks: string[]): string {
  return `${[head, ...blocks].join('\n\n')}\n`;
}

function frontmatter(model: SessionModel, continues: string | null): string {
  const projectTag = slugify(model.project, '');
  const tags = ['session', ...(projectTag && projectTag !== UNKNOWN_PROJECT && projectTag !== 'session' ? [projectTag] : [])];
  return renderFrontmatter(
    [
      ['type', 'session'],
      ['session_id', model.sessionId],
      ['project', model.project],
      ['cwd', model.cwd],
      ['git_branch', model.gitBranch],
      ['started', model.started],
      ['ended', model.ended],
      ['files_read', model.filesRead],
      ['files_edited', model.filesEdited],
      ['commands', model.commands],
      ['tags', tags],
      ...(continues !== null ? [['continues', continues] as const] : []),
    ],
    new Set(['type']),
  );
}

/** The project and the session's first request: its first prompt that is not a command on the session itself (`/clear`). */
function title(model: SessionModel): string {
  const first = model.prompts.find((p) => p.n > 0 && !isSessionCommand(p.text));
  const request = first ? firstLine(first.text, TITLE_CHARS) : `session ${model.sessionId.slice(0, 8)}`;
  return `${model.project}: ${request}`;
}

function renderPrompt(prompt: SessionPrompt, answerChars: number): string {
  const out = [`## ${promptHeading(prompt.n, headingText(firstLine(prompt.text, HEADING_CHARS)))}`];
  if (prompt.text !== '') out.push('', safeBlock(prompt.text));
  if (prompt.actions.length > 0) {
    out.push('', `### ${ACTIONS_SECTION}`, '');
    // One by one: spread into push's arguments, one prompt's 150,000 tool uses overflowed the stack.
    for (const action of prompt.actions) out.push(actionLine(action));
  }
  // The plan the user approved (or rejected) is the session's decision: kept (bounded at ingest) in its own section.
  for (const { plan, planOutcome } of prompt.actions) {
    if (plan === undefined) continue;
    out.push('', `### ${PLAN_SECTION}`, '');
    if (planOutcome) out.push(PLAN_OUTCOME_LINES[planOutcome], '');
    out.push(safeBlock(plan));
  }
  if (prompt.answer !== '') out.push('', `### ${ANSWER_SECTION}`, '', safeBlock(keptHead(prompt.answer, answerChars)));
  return out.join('\n');
}
