// What the MCP session tools ask of a session note read back from the index: which files a prompt read
// or edited. The note's layout (headings, sections, action lines) is sessions/note-format.ts's.
import type { NoteRecord, SectionRecord } from '../core/types.js';
import type { NoteReader } from '../index/note-reader.js';
import type { ActionLine } from '../sessions/action-line.js';
import { oncePerSession, sessionIdOfRecord, sessionPrompts, type SessionPromptView } from '../sessions/note-format.js';
import { EDIT_TOOLS, READ_TOOLS } from '../sessions/tools.js';

export { oncePerSession, sessionIdOfRecord, sessionPrompts, type SessionPromptView };

/**
 * A session's notes with their sections, in the session's order: by date, a day's by their first prompt. A
 * session is several notes after its user edited one, once a note is closed at its size (`…-2.md`), or when
 * its project folder was renamed; by the date alone a day's notes came in the index's order, `…-2.md` before
 * `….md`. `notes` are the session's (one session id), as NoteReader.sessionNotes gives them.
 */
export function inSessionOrder(reader: NoteReader, notes: NoteRecord[]): SessionPart[] {
  const first = (prompts: SessionPromptView[]) => prompts.reduce((min, p) => Math.min(min, p.n), Infinity);
  return notes
    .map((note) => {
      const sections = reader.sectionsOfNote(note.id);
      return { note, sections, prompts: sessionPrompts(sections) };
    })
    .sort((a, b) => (a.note.date ?? '').localeCompare(b.note.date ?? '') || first(a.prompts) - first(b.prompts));
}

/** One note of a session, its sections and its prompts (sessionPrompts). */
export interface SessionPart {
  note: NoteRecord;
  sections: SectionRecord[];
  prompts: SessionPromptView[];
}

/** The notes of the session `note` belongs to, in order (inSessionOrder); just `note` for any other note. */
export function notesOfSession(reader: NoteReader, note: NoteRecord): Pick<SessionPart, 'note' | 'sections'>[] {
  const id = sessionIdOfRecord(note);
  if (id === null) return [{ note, sections: reader.sectionsOfNote(note.id) }];
  return inSessionOrder(reader, reader.sessionNotes(id).filter((n) => sessionIdOfRecord(n) === id));
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

/** A character that continues a file name (ASCII only: Japanese prose writes `geo.cを直す`, no space). */
const NAME_CHAR = /[A-Za-z0-9_-]/;

/**
 * True when `text` names the file `name`: the name standing as a whole path or a path's tail, not inside
 * a longer name. A substring test had every session that says "a" mention a file `a`, and every one that
 * says `geo.cpp` mention `geo.c`. Before the name, a name character or a dot continues it (`.c` in
 * `geo.c`); after it, a name character does, and so does a dot or slash followed by one (`geo.c.orig`,
 * `geo.c/x`), while a sentence's full stop does not (`see geo.c.`).
 */
export function mentionsPath(text: string, name: string): boolean {
  if (name === '') return false;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text[at + name.length] ?? '';
    const next = text[at + name.length + 1] ?? '';
    const joinedBefore = NAME_CHAR.test(before) || before === '.';
    const joinedAfter = NAME_CHAR.test(after) || ((after === '.' || after === '/' || after === '\\') && NAME_CHAR.test(next));
    if (!joinedBefore && !joinedAfter) return true;
  }
  return false;
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
    if (action.status === 'error' || action.status === 'refused') continue;
    if (!out[how].includes(action.subject)) out[how].push(action.subject);
  }
  return out;
}
