// file_history: a source file's story across sessions — which sessions read or edited it and which
// prompt asked for it — plus the notes that mention it.
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { NoteRecord, SectionRecord } from '../../core/types.js';
import { bestSnippet } from '../../search/snippet.js';
import type { NoteReader } from '../../index/note-reader.js';
import { ToolError } from '../errors.js';
import { fileTouch, mentionsPath, samePath, sessionIdOfRecord, sessionPrompts } from '../session-note.js';
import { clampInt, defineTool, PREVIEW_CHARS, preview, RESULT_CHAR_BUDGET, withinBudget } from '../tool.js';
import { linkReadingOf } from '../../search/link-reading.js';
import { searchExclusions } from '../../vault/obsidian-excluded.js';
import type { LinkReading } from '../../text/markdown-line.js';
import { redactNoteSecrets } from '../../text/redact.js';

export const MAX_FILE_HISTORY = 50;
/** Touches listed per session; the rest are counted. */
const MAX_TOUCHES = 20;

type How = 'edited' | 'read' | 'mentioned';
const STRENGTH: Record<How, number> = { edited: 2, read: 1, mentioned: 0 };

export const fileHistoryTool = defineTool({
  name: 'file_history',
  title: 'History of a file',
  description: [
    'Trace a source file across past Claude Code sessions and notes: which sessions read or edited it, and the',
    'user prompt behind each touch (the "why"). file_path is a project file path as the session saw it — relative to',
    'the project ("src/auth/token.ts"), absolute, or just a file name. Returns {file_path, sessions:[{session_id,',
    'project, started, path, title, how, other_paths?, touches:[{n, id, how, prompt, actions}]}], notes:[{path, title, type, date,',
    'sections:[{id, section, line, preview}]}]}, newest first; how is edited, read or mentioned. A file never seen',
    `gives empty lists. limit: notes and sessions together, default 10, at most ${MAX_FILE_HISTORY}. When the answer`,
    'grows large, later entries come without touches/sections (touches_omitted/sections_omitted count them).',
  ].join(' '),
  inputSchema: {
    file_path: z.string().describe('the file, e.g. "src/geo/geo.c"'),
    limit: z.number().optional().default(10).describe(`sessions and notes, 1–${MAX_FILE_HISTORY}`),
  },
  run(args, ctx) {
    const file = args.file_path.trim().replace(/^\.\//, '');
    if (file === '') throw new ToolError('file_path must not be empty');
    const limit = clampInt(args.limit, 1, MAX_FILE_HISTORY, 10);
    return ctx.withIndex((db, reader) => {
      const links = linkReadingOf(db);
      const keys = lookupKeys(file, reader);
      // Obsidian's Excluded files (a Templates folder, an archive) are no note or session of a file's story, as they are no search result.
      const excluded = searchExclusions(ctx.cfg);
      const found = new Map<number, NoteRecord>();
      for (const key of keys) {
        // Fetch spare rows: a note that only mentions the name in its text may fail the checks below.
        for (const r of reader.notesTouchingFile(key, Math.min(limit * 2, 100), excluded)) found.set(r.note.id, r.note);
      }
      const notes = [...found.values()].sort((a, b) => b.date.localeCompare(a.date) || b.mtimeMs - a.mtimeMs);
      const bySession: SessionFound[] = [];
      const others: NonNullable<ReturnType<typeof noteEntry>>[] = [];
      for (const note of notes) {
        const sections = reader.sectionsOfNote(note.id);
        if (sessionIdOfRecord(note) !== null) {
          const s = sessionEntry(note, sections, keys, links);
          // A session of several notes (one closed at its size, a continuation) is one entry.
          const same = s && bySession.find((f) => f.session_id === s.session_id);
          if (same) mergeInto(same, s);
          else if (s && bySession.length + others.length < limit) bySession.push(s);
        } else if (bySession.length + others.length < limit) {
          const n = noteEntry(note, sections, keys, links);
          if (n) others.push(n);
        }
      }
      const sessions = bySession.map(shownSession);
      // One budget for both lists: the notes get what the sessions leave (each had its own, twice the size).
      const listed = withinBudget(sessions, (x) => ({ ...x, touches: [], touches_omitted: x.touches.length }));
      const left = Math.max(0, RESULT_CHAR_BUDGET - JSON.stringify(listed).length);
      return {
        file_path: file,
        sessions: listed,
        notes: withinBudget(others, (x) => ({ ...x, sections: [], sections_omitted: x.sections.length }), left),
      };
    });
  },
});

/**
 * The spellings to look for: the path as given, and for an absolute path inside a session's working
 * directory, the cwd-relative path session notes record; each in both Unicode forms. Session notes keep a
 * path as the transcript had it, and macOS names a file in either form (NFD from HFS+ and from tab
 * completion, NFC as typed): given as `src/ガイド.c` in NFD, the session that edited it in NFC was not found.
 */
function lookupKeys(file: string, reader: NoteReader): string[] {
  const keys = [file];
  if (isAbsolute(file)) {
    const nfc = file.normalize('NFC');
    for (const cwd of reader.sessionCwds()) {
      const root = (cwd.endsWith('/') ? cwd : `${cwd}/`).normalize('NFC');
      if (nfc.startsWith(root) && nfc.length > root.length) keys.push(nfc.slice(root.length));
    }
  }
  return [...new Set(keys.flatMap((k) => [k.normalize('NFC'), k.normalize('NFD')]))];
}

function mentions(text: string, keys: string[]): string | undefined {
  return keys.find((k) => mentionsPath(text, k));
}

function listed(list: unknown, keys: string[]): boolean {
  return Array.isArray(list) && list.some((f) => typeof f === 'string' && keys.some((k) => samePath(k, f)));
}

function sessionEntry(note: NoteRecord, sections: SectionRecord[], keys: string[], links: LinkReading) {
  const touches: { n: number; id: number; how: How; prompt: string; actions: string[] }[] = [];
  for (const p of sessionPrompts(sections)) {
    const matching = p.actions.filter((a) => fileTouch(a) !== null && keys.some((k) => samePath(k, a.subject)));
    let how: How | null = null;
    for (const a of matching) {
      const t = fileTouch(a) as How;
      if (how === null || STRENGTH[t] > STRENGTH[how]) how = t;
    }
    // An action that names the file without touching it (``Bash `python scripts/migrate.py` ``, a log tailed):
    // the prompt behind it is the why. Only the session as a whole was marked, with no touch to say which.
    const naming = p.actions.filter((a) => !matching.includes(a) && mentions(a.text, keys));
    // Any section under the prompt counts, as any section counts for the session below: text its user added
    // (a heading of their own, a line among the actions) is no part of the request, answer or plan.
    const under = sections.filter((s) => s.startLine >= p.line && s.startLine <= p.endLine);
    if (how === null && (naming.length > 0 || under.some((s) => mentions(s.text, keys)))) how = 'mentioned';
    if (how === null) continue;
    const shown = p.actions.filter((a) => matching.includes(a) || naming.includes(a));
    touches.push({ n: p.n, id: p.sectionId, how, prompt: preview(p.text || p.heading, links), actions: shown.map((a) => a.text) });
  }
  const fm = note.frontmatter;
  // The session as a whole: the frontmatter lists (successful reads and edits) and every touch.
  let how: How | null = listed(fm.files_edited, keys) ? 'edited' : listed(fm.files_read, keys) ? 'read' : null;
  for (const t of touches) if (how === null || STRENGTH[t.how] > STRENGTH[how]) how = t.how;
  if (how === null && sections.some((s) => mentions(s.text, keys))) how = 'mentioned';
  if (how === null) return null;
  return {
    session_id: sessionIdOfRecord(note) ?? '',
    project: typeof fm.project === 'string' ? fm.project : null,
    started: typeof fm.started === 'string' ? fm.started : note.date || null,
    path: note.path,
    title: note.title,
    how,
    touches,
    otherPaths: [] as string[],
  };
}

type SessionFound = NonNullable<ReturnType<typeof sessionEntry>>;

/**
 * Another note of the same session into its entry: the touches of both in prompt order, the stronger `how`,
 * and the note of the earliest prompt as `path` (its title), the other in `other_paths`.
 */
function mergeInto(into: SessionFound, other: SessionFound): void {
  const first = (e: SessionFound) => e.touches[0]?.n ?? Infinity;
  const [early, late] = first(other) < first(into) ? [other, into] : [into, other];
  into.otherPaths = [...into.otherPaths, ...other.otherPaths, late.path].filter((p) => p !== early.path);
  into.path = early.path;
  into.title = early.title;
  into.touches = [...into.touches, ...other.touches].sort((a, b) => a.n - b.n);
  if (STRENGTH[other.how] > STRENGTH[into.how]) into.how = other.how;
}

function shownSession({ touches, otherPaths, ...entry }: SessionFound) {
  return {
    ...entry,
    ...(otherPaths.length > 0 ? { other_paths: otherPaths } : {}),
    touches: touches.slice(0, MAX_TOUCHES),
    ...(touches.length > MAX_TOUCHES ? { more_touches: touches.length - MAX_TOUCHES } : {}),
  };
}

function noteEntry(note: NoteRecord, sections: SectionRecord[], keys: string[], links: LinkReading) {
  const hits = sections.flatMap((s) => {
    // The passage is cut from the redacted text, so that its window shows no part of a secret (redact-answer.ts).
    const key = mentions(s.text, keys);
    return key ? [{ id: s.id, section: s.headingPath, line: s.startLine, preview: bestSnippet(redactNoteSecrets(s.text), [key], PREVIEW_CHARS, undefined, links) }] : [];
  });
  if (hits.length === 0) return null;
  return { path: note.path, title: note.title, type: note.type, date: note.date || null, sections: hits.slice(0, MAX_TOUCHES) };
}
