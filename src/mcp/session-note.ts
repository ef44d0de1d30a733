// A session note (SPEC §6) read back from its indexed sections: one `## n. …` section per prompt,
// holding the prompt text, `### Actions` (one line per tool use) and `### Answer`. Long sections are
// stored as several chunks with the same heading path; they are joined here.
import type { SectionRecord } from '../core/types.js';
import { EDIT_TOOLS, READ_TOOLS } from '../sessions/tools.js';
import { parseActionLine, type ActionLine } from './action-line.js';

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

const PROMPT_HEADING = /^(\d+)\.\s*(.*)$/;

type Part = 'prompt' | 'actions' | 'answer' | 'other';

/** The prompts of a session note, in order; notes without `## n.` sections give []. */
export function sessionPrompts(sections: SectionRecord[]): SessionPromptView[] {
  const prompts: SessionPromptView[] = [];
  let current: SessionPromptView | null = null;
  let part: Part = 'other';
  let prev: SectionRecord | null = null;

  for (const s of [...sections].sort((a, b) => a.ord - b.ord)) {
    const continuation = prev !== null && prev.level === s.level && prev.headingPath === s.headingPath && prev.heading === s.heading;
    prev = s;
    if (!continuation) {
      const prompt = s.level === 2 ? PROMPT_HEADING.exec(s.heading) : null;
      if (prompt) {
        current = { n: Number(prompt[1]), sectionId: s.id, line: s.startLine, endLine: s.endLine, heading: prompt[2], text: '', actions: [], answer: '' };
        prompts.push(current);
        part = 'prompt';
      } else if (s.level <= 2) {
        current = null;
        part = 'other';
      } else if (current && s.level === 3) {
        part = /^actions$/i.test(s.heading.trim()) ? 'actions' : /^answer$/i.test(s.heading.trim()) ? 'answer' : 'other';
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

export type FileTouch = 'read' | 'edited';

/** How an action touched a file, if it is a file action. */
export function fileTouch(action: ActionLine): FileTouch | null {
  if (action.subject === '') return null;
  if (EDIT_TOOLS.has(action.tool)) return 'edited';
  if (READ_TOOLS.has(action.tool)) return 'read';
  return null;
}

/**
 * True when two spellings name the same file: equal, or one is the other with leading folders
 * (a session records paths relative to its cwd; a caller may give a longer or shorter form).
 */
export function samePath(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/').replace(/^\.\//, '');
  const y = b.replace(/\\/g, '/').replace(/^\.\//, '');
  if (x === '' || y === '') return false;
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * Files a prompt read and edited: the paths of its file actions, kept only when the session's
 * frontmatter lists them (those lists hold the reads and edits that succeeded). Without such a list
 * in the frontmatter, every file action counts.
 */
export function promptFiles(
  prompt: SessionPromptView,
  frontmatter: Record<string, unknown>,
): { read: string[]; edited: string[] } {
  const listed = (key: string): string[] | null => {
    const v = frontmatter[key];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  };
  const lists = { read: listed('files_read'), edited: listed('files_edited') };
  const out = { read: [] as string[], edited: [] as string[] };
  for (const action of prompt.actions) {
    const how = fileTouch(action);
    if (!how) continue;
    const list = lists[how];
    if (list !== null && !list.some((f) => samePath(f, action.subject))) continue;
    if (action.status === 'error') continue;
    if (!out[how].includes(action.subject)) out[how].push(action.subject);
  }
  return out;
}
