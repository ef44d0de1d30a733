// The layout of a session note, written (render.ts) and read back (MCP session tools, SessionStart, the
// prompt hook) from this one place:
//
//   # <project>: <first request>
//   ## <n>. <the prompt's first line>      one section per prompt; `## 0. (activity before the first prompt)`
//   <the prompt>
//   ### Actions                            one list item per tool use (action-line.ts)
//   ### Answer                             the assistant's last text for the prompt
//
// Light on purpose: the hooks' fast path imports it (no remark, no file system).
import type { SectionRecord } from '../core/types.js';
import { parseActionLine, type ActionLine } from './action-line.js';

/** The session id as a note's file name carries it: its first 8 letters and digits, lower case. */
export function sessionNameId(sessionId: string): string {
  return sessionId.normalize('NFC').toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 8) || 'session';
}

/**
 * Whether a vault path is one of this session's notes: `…-<name id>.md`, or a continuation `…-<name id>-<n>.md`
 * (render.ts's sessionNoteName, ingest.ts's continuation names).
 */
export function isNoteOfSession(path: string, sessionId: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  return new RegExp(`-${sessionNameId(sessionId)}(?:-\\d+)?\\.md$`).test(name);
}

/** The names of a prompt's sub-sections (level 3). */
export const ACTIONS_SECTION = 'Actions';
export const ANSWER_SECTION = 'Answer';
/** The heading of prompt 0: tool use recorded before the first prompt (a transcript cut at its start). */
export const PRE_PROMPT_HEADING = '0. (activity before the first prompt)';

/** A prompt section's heading text (level 2), `firstLine` already made safe for a heading line. */
export function promptHeading(n: number, firstLine: string): string {
  return n > 0 ? `${n}. ${firstLine}` : PRE_PROMPT_HEADING;
}

// `1. text` as written; `1.text` by hand is read too. A heading that is only `1.` has no prompt text.
const PROMPT_HEADING = /^(\d+)\.[ \t]*(.*)$/;

/** The prompt number and first line of a level-2 heading, or null when it is not a prompt heading. */
export function parsePromptHeading(heading: string): { n: number; text: string } | null {
  const m = PROMPT_HEADING.exec(heading.trim());
  return m ? { n: Number(m[1]), text: m[2].trim() } : null;
}

export type PromptPart = 'actions' | 'answer' | 'other';

/** Which part of a prompt a level-3 heading starts (case and spaces do not matter to a reader). */
export function promptPart(heading: string): PromptPart {
  const h = heading.trim().toLowerCase();
  return h === ACTIONS_SECTION.toLowerCase() ? 'actions' : h === ANSWER_SECTION.toLowerCase() ? 'answer' : 'other';
}

/**
 * Which part of a session note a section's heading path (`title > 1. prompt > Answer`) lies in: a
 * prompt's Actions or Answer, or else the words of a request (the title repeats the first one, a `## n.`
 * section holds the prompt itself).
 */
export function sessionPathPart(headingPath: string): 'request' | 'actions' | 'answer' {
  const last = headingPath.slice(headingPath.lastIndexOf(' > ') + 3);
  const part = headingPath.includes(' > ') ? promptPart(last) : 'other';
  return part === 'other' ? 'request' : part;
}

export interface SessionPromptView {
  /** The prompt's number in the session (0: activity before the first prompt). */
  n: number;
  /** Section id of the `## n.` section (get_sections / timeline anchor). */
  sectionId: number;
  line: number;
  endLine: number;
  /** Heading text after `n. ` (the prompt's first line). */
  heading: string;
  /** The prompt as written under the heading. */
  text: string;
  actions: ActionLine[];
  answer: string;
}

/**
 * The prompts of a session note from its indexed sections, in order; notes without `## n.` sections give [].
 * Long sections are stored as several chunks with the same heading path: they are joined here.
 */
export function sessionPrompts(sections: SectionRecord[]): SessionPromptView[] {
  const prompts: SessionPromptView[] = [];
  let current: SessionPromptView | null = null;
  let part: 'prompt' | PromptPart = 'other';
  let prev: SectionRecord | null = null;

  for (const s of [...sections].sort((a, b) => a.ord - b.ord)) {
    const continuation = prev !== null && prev.level === s.level && prev.headingPath === s.headingPath && prev.heading === s.heading;
    prev = s;
    if (!continuation) {
      const prompt = s.level === 2 ? parsePromptHeading(s.heading) : null;
      if (prompt) {
        current = { n: prompt.n, sectionId: s.id, line: s.startLine, endLine: s.endLine, heading: prompt.text, text: '', actions: [], answer: '' };
        prompts.push(current);
        part = 'prompt';
      } else if (s.level <= 2) {
        current = null;
        part = 'other';
      } else if (current && s.level === 3) {
        part = promptPart(s.heading);
      }
    }
    if (!current) continue;
    current.endLine = Math.max(current.endLine, s.endLine);
    if (part === 'prompt') current.text = join(current.text, s.text);
    else if (part === 'actions') current.actions.push(...s.text.split('\n').flatMap(toAction));
    else if (part === 'answer') current.answer = join(current.answer, s.text);
  }
  return prompts;
}

function join(a: string, b: string): string {
  const t = b.trim();
  return a === '' ? t : t === '' ? a : `${a}\n\n${t}`;
}

function toAction(line: string): ActionLine[] {
  const a = parseActionLine(line);
  return a ? [a] : [];
}
