// The layout of a session note, written (render.ts) and read back (MCP session tools, SessionStart, the
// prompt hook) from this one place:
//
//   # <project>: <first request>
//   ## <n>. <the prompt's first line>      one section per prompt; `## 0. (activity before the first prompt)`
//   <the prompt>
//   ### Actions                            one list item per tool use (action-line.ts)
//   ### Plan                               a plan put to the user (ExitPlanMode): what became of it, the plan
//   ### Answer                             the assistant's last text for the prompt
//
// Light on purpose: the hooks' fast path imports it (no remark, no file system).
import type { NoteRecord, SectionRecord } from '../core/types.js';
import { parseActionLine, type ActionLine } from './action-line.js';

/** A session id's letters and digits, lower case. */
const alnumId = (sessionId: string) => sessionId.normalize('NFC').toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The session id as a note's file name carries it: its first `length` letters and digits, lower case. 8 as a
 * rule; a session whose 8 are another session's (or a file not of this session sits at its name) is named by
 * 16, then 32 — a UUID's all (ingest.ts). Names already written stay as they are.
 */
export function sessionNameId(sessionId: string, length = 8): string {
  return alnumId(sessionId).slice(0, length) || 'session';
}

/** The name-id lengths a session's note may be written with, in the order they are tried. */
export const NAME_ID_LENGTHS = [8, 16, 32];

/**
 * Whether a vault path is one of this session's notes: `…-<name id>.md`, or a continuation `…-<name id>-<n>.md`
 * (render.ts's sessionNoteName, ingest.ts's continuation names), the name id being 8 or more of its letters
 * and digits.
 */
export function isNoteOfSession(path: string, sessionId: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  if (!name.endsWith('.md')) return false;
  const full = alnumId(sessionId) || 'session';
  const base = name.slice(0, -3);
  return [base, base.replace(/-\d+$/, '')].some((stem) => {
    const id = stem.slice(stem.lastIndexOf('-') + 1);
    return id.length >= Math.min(8, full.length) && full.startsWith(id);
  });
}

/**
 * The session an indexed session note belongs to (its frontmatter's `session_id`; a number, as YAML reads an
 * unquoted one in a note written by hand, as its text), else null.
 */
export function sessionIdOfRecord(note: Pick<NoteRecord, 'type' | 'frontmatter'>): string | null {
  const id = note.frontmatter.session_id;
  if (note.type !== 'session' || (typeof id !== 'string' && typeof id !== 'number') || id === '') return null;
  return String(id);
}

/**
 * The items in order, each session's after its first left out (`sessionOf`: an item's session id, null for an
 * item of none): a session of several notes stands once, by the first the caller's order gives.
 */
export function oncePerSession<T>(items: T[], sessionOf: (item: T) => string | null): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = sessionOf(item);
    if (id === null) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The session a note's frontmatter names (`session_id`, written by render.ts as a YAML double-quoted
 * string), or null for a file that names none: a user's own note, or another kind of file.
 */
export function sessionIdOfNote(text: string): string | null {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  const m = fm ? /^session_id:[ \t]*(.*?)[ \t]*$/m.exec(fm[1]) : null;
  if (!m) return null;
  try {
    const value: unknown = m[1].startsWith('"') ? JSON.parse(m[1]) : m[1].replace(/^'(.*)'$/, '$1');
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

/** The names of a prompt's sub-sections (level 3). */
export const ACTIONS_SECTION = 'Actions';
export const ANSWER_SECTION = 'Answer';
export const PLAN_SECTION = 'Plan';
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

export type PromptPart = 'actions' | 'answer' | 'plan' | 'other';

const PARTS: [string, PromptPart][] = [
  [ACTIONS_SECTION, 'actions'],
  [ANSWER_SECTION, 'answer'],
  [PLAN_SECTION, 'plan'],
];

/** Which part of a prompt a level-3 heading starts (case and spaces do not matter to a reader). */
export function promptPart(heading: string): PromptPart {
  const h = heading.trim().toLowerCase();
  return PARTS.find(([name]) => name.toLowerCase() === h)?.[1] ?? 'other';
}

/** The line that opens a `### Plan` section: what the user did with the plan (none while it is unanswered). */
export const PLAN_OUTCOME_LINES = {
  approved: 'Approved by the user.',
  'approved-edited': 'Approved by the user, who edited it first.',
  rejected: 'Rejected by the user.',
} as const;

/**
 * Which part of a session note a section's heading path (`title > 1. prompt > Answer`) lies in: a
 * prompt's Actions, Answer or Plan (what the session decided, not an echo of the question), or else the
 * words of a request (the title repeats the first one, a `## n.` section holds the prompt itself).
 */
export function sessionPathPart(headingPath: string): 'request' | 'actions' | 'answer' | 'plan' {
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
  /** The plans put to the user (`### Plan`: what became of each, then the plan), '' when none. */
  plan: string;
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
        current = { n: prompt.n, sectionId: s.id, line: s.startLine, endLine: s.endLine, heading: prompt.text, text: '', actions: [], answer: '', plan: '' };
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
    else if (part === 'plan') current.plan = join(current.plan, s.text);
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
