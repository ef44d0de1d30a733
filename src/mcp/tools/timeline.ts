// timeline: what surrounds a section — the sections before and after it in its note and, for a daily
// note, the days before and after.
import { z } from 'zod';
import type { NoteRecord, SectionRecord } from '../../core/types.js';
import type { NoteReader } from '../../index/note-reader.js';
import { ToolError } from '../errors.js';
import { clampInt, defineTool, fullSection, jsonChars, nearestWithinBudget, preview, RESULT_CHAR_BUDGET, sectionEntry, textWithin } from '../tool.js';
import { linkReadingOf } from '../../search/link-reading.js';
import { notesOfSession } from '../session-note.js';
import { searchExclusions } from '../../vault/obsidian-excluded.js';
import type { LinkReading } from '../../text/markdown-line.js';

export const MAX_NEIGHBOURS = 50;
/** Headings listed per neighbouring day: enough to choose from, few enough to stay cheap. */
const DAY_SECTIONS = 12;

export const timelineTool = defineTool({
  name: 'timeline',
  title: 'Sections around a section',
  description: [
    'Show the context of one section (anchor = a section id from search): the anchor in full, plus the sections',
    'just before and after it in the same note as short entries {id, section, line, end_line, preview} (a session of several notes',
    'is one sequence: an entry from another of its notes has its path). For a daily',
    'note, also the neighbouring daily notes (days_before/days_after: {path, title, date, preview, sections:[{id,',
    'section}]}), to follow what happened on the days around. Use get_sections with the ids to read neighbours in full.',
    `before/after: how many neighbours on each side (default 5, at most ${MAX_NEIGHBOURS}). An unknown anchor is an error.`,
    `The answer stays within about ${RESULT_CHAR_BUDGET / 1000}k characters: past that, the neighbours farthest from the anchor come`,
    'without their preview, and the farthest days as {path, date, sections: [], sections_omitted} (the count of their sections);',
    'an anchor too long for it comes with its text cut and truncated: true (read_note from its line to end_line has it whole).',
  ].join(' '),
  inputSchema: {
    anchor: z.number().int().describe('section id to centre on'),
    before: z.number().optional().default(5).describe('sections (and days) before the anchor'),
    after: z.number().optional().default(5).describe('sections (and days) after the anchor'),
  },
  run(args, ctx) {
    const before = clampInt(args.before, 0, MAX_NEIGHBOURS, 5);
    const after = clampInt(args.after, 0, MAX_NEIGHBOURS, 5);
    return ctx.withIndex((db, reader) => {
      const links = linkReadingOf(db);
      const [anchor] = reader.sectionsByIds([args.anchor]);
      const note = anchor && reader.notesByIds([anchor.noteId]).get(anchor.noteId);
      if (!anchor || !note) throw new ToolError(`anchor section not found: ${args.anchor} (use an id from search results)`);
      // A session of several notes (one closed at its size, a continuation) is one sequence: the neighbours of
      // a note's last prompt go on in the next note, and say which (`path`). They stopped at the note's end.
      const sections = notesOfSession(reader, note).flatMap((part) =>
        part.sections.map((section) => ({ section, path: part.note.id === note.id ? null : part.note.path })),
      );
      const at = sections.findIndex((s) => s.section.id === anchor.id);
      const entry = ({ section, path }: (typeof sections)[number]) => ({ ...(path === null ? {} : { path }), ...sectionEntry(section, links) });
      const neighbours = {
        before: sections.slice(Math.max(0, at - before), at).map(entry),
        after: sections.slice(at + 1, at + 1 + after).map(entry),
      };
      const nearDays = note.type === 'daily' && note.date ? reader.neighbourDays(note.date, before, after, searchExclusions(ctx.cfg)) : null;
      const days = nearDays && { before: nearDays.before.map((d) => daySummary(reader, d, links)), after: nearDays.after.map((d) => daySummary(reader, d, links)) };
      // The anchor first, whole when it fits beside the short forms of everything else, else its text cut
      // to fit (truncated: true; read_note has it whole). Then 50 neighbours and 50 days of a dozen headings
      // each on either side (the Obsidian Hub's roundups gave 146,000 characters): nearest first, what fits
      // stays whole.
      const shortest =
        jsonChars([...neighbours.before, ...neighbours.after].map(shortNeighbour)) + (days ? jsonChars([...days.before, ...days.after].map(shortDay)) : 0);
      const full = textWithin(fullSection(anchor, note), RESULT_CHAR_BUDGET - shortest);
      let left = RESULT_CHAR_BUDGET - JSON.stringify(full).length;
      const near = nearestWithinBudget(neighbours.before, neighbours.after, shortNeighbour, left);
      left -= near.used;
      const result: Record<string, unknown> = { anchor: full, before: near.before, after: near.after };
      if (days) {
        const summaries = nearestWithinBudget(days.before, days.after, shortDay, left);
        result.days_before = summaries.before;
        result.days_after = summaries.after;
      }
      return result;
    });
  },
});

function shortNeighbour({ preview: _, ...rest }: ReturnType<typeof sectionEntry> & { path?: string }) {
  return rest;
}

function shortDay(d: ReturnType<typeof daySummary>) {
  return { path: d.path, date: d.date, sections: [], sections_omitted: d.sections.length };
}

function daySummary(reader: NoteReader, note: NoteRecord, links: LinkReading) {
  const sections = reader.sectionsOfNote(note.id);
  const first = sections.find((s) => s.text.trim() !== '');
  return {
    path: note.path,
    title: note.title,
    date: note.date,
    preview: first ? preview(first.text, links) : '',
    sections: distinctSections(sections).slice(0, DAY_SECTIONS),
  };
}

/** One entry per heading path (a long section's later chunks share it), skipping sections without text. */
function distinctSections(sections: SectionRecord[]): { id: number; section: string }[] {
  const seen = new Set<string>();
  const out: { id: number; section: string }[] = [];
  for (const s of sections) {
    if (seen.has(s.headingPath) || s.text.trim() === '') continue;
    seen.add(s.headingPath);
    out.push({ id: s.id, section: s.headingPath });
  }
  return out;
}
