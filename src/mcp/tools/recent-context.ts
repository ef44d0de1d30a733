// recent_context: what the user has been working on lately, without a query (the on-demand
// version of the SessionStart injection): one section per note, by recency and note type.
import { z } from 'zod';
import { NOTE_TYPES, type NoteRecord, type NoteType, type SectionRecord } from '../../core/types.js';
import { compositeScore } from '../recency.js';
import { oncePerSession, sessionIdOfRecord, sessionPrompts } from '../session-note.js';
import { clampInt, defineTool, oneOf, preview, RESULT_CHAR_BUDGET, withinBudget } from '../tool.js';
import { recentBefore } from '../../search/dates.js';
import { linkReadingOf } from '../../search/link-reading.js';
import { mtimeCrowd } from '../../search/mtime-crowd.js';
import { searchExclusions } from '../../vault/obsidian-excluded.js';

export const MAX_RECENT = 100;

export const recentContextTool = defineTool({
  name: 'recent_context',
  title: 'Recent notes',
  description: [
    "What the user worked on recently, without a query: use it at the start of a task or when asked what happened",
    'lately. Returns a JSON array (best first) of {id, path, title, type, status, date, section, score, preview}, one',
    'entry per note (a session of several notes: its newest), scored 0.6 × recency (7-day half-life) + 0.4 × type weight (session 1.0, daily 0.67, knowledge',
    '0.5). For a session note the entry is its latest prompt. Follow up with get_sections (ids), session_trace or',
    `read_note. limit: default 30, at most ${MAX_RECENT}. Entries past about ${RESULT_CHAR_BUDGET / 1000}k characters come as {id, path, date, score}.`,
  ].join(' '),
  inputSchema: {
    type: oneOf(NOTE_TYPES).optional().describe('only notes of this type'),
    limit: z.number().optional().default(30).describe(`entries, 1–${MAX_RECENT}`),
  },
  run(args, ctx) {
    const limit = clampInt(args.limit, 1, MAX_RECENT, 30);
    const now = ctx.now();
    return ctx.withIndex((db, reader) => {
      const links = linkReadingOf(db);
      // Within one type the score only falls with age, so each type's newest `limit` notes hold the answer.
      const types: readonly NoteType[] = args.type ? [args.type] : NOTE_TYPES;
      // Notes a clone or a copy dated all at once were not written lately (search/mtime-crowd.ts).
      const crowd = mtimeCrowd(reader) ?? undefined;
      // Obsidian's Excluded files are no recent work, as they are no search result.
      const excluded = searchExclusions(ctx.cfg);
      // Twice as many session notes: a session's older notes are left out below.
      const before = recentBefore(now);
      const candidates = types.flatMap((t) => reader.recentNotes(t === 'session' ? 2 * limit : limit, before, t, crowd, excluded));
      // A session of several notes (one closed at its size, a continuation) is one entry: its newest note,
      // the first of its notes recentNotes gives.
      const scored = oncePerSession(candidates, sessionIdOfRecord)
        .map((note) => ({ note, score: compositeScore(note.type, note.date, now, note.status) }))
        .sort((a, b) => b.score - a.score || b.note.date.localeCompare(a.note.date) || b.note.mtimeMs - a.note.mtimeMs)
        .slice(0, limit);
      // As search's: 100 entries of long CJK paths and headings pass what Claude Code accepts; past the
      // budget an entry is its id, path, date and score.
      const entries = scored.map(({ note, score }) => {
        const s = representative(note, reader.sectionsOfNote(note.id));
        return {
          id: s?.id ?? null,
          path: note.path,
          title: note.title,
          type: note.type,
          status: note.status,
          date: note.date || null,
          section: s?.headingPath ?? note.title,
          score: Number(score.toFixed(3)),
          preview: s ? preview(s.text || s.heading, links) : '',
        };
      });
      return withinBudget(entries, ({ id, path, date, score }) => ({ id, path, date, score }));
    });
  },
});

/** The section that stands for a note: a session's latest prompt, else the first section with text. */
function representative(note: NoteRecord, sections: SectionRecord[]): SectionRecord | undefined {
  if (note.type === 'session') {
    const last = sessionPrompts(sections).at(-1);
    const s = last && sections.find((x) => x.id === last.sectionId);
    if (s) return s;
  }
  return sections.find((s) => s.text.trim() !== '') ?? sections[0];
}
