// get_sections: the full text of sections picked from search (or timeline, session_trace…) by id.
import { z } from 'zod';
import { ToolError } from '../errors.js';
import { defineTool, fullSection, RESULT_CHAR_BUDGET, textWithin, WithNotice } from '../tool.js';

export const MAX_IDS = 50;

export const getSectionsTool = defineTool({
  name: 'get_sections',
  title: 'Read sections by id',
  description: [
    `Fetch the full markdown text of up to ${MAX_IDS} sections by id (ids come from search, timeline, recent_context,`,
    'session_trace or file_history). Returns a JSON array, in the order of the ids given, of',
    '{id, path, title, type, status, date, tags, section, line, end_line, text}. Ids that no longer exist (their note',
    'was re-indexed since) are left out of it, and a second item {not_found: [ids], note} names them: search again for',
    'their current ids.',
    `Texts beyond about ${RESULT_CHAR_BUDGET / 1000}k characters in all are cut and marked truncated: true (ask for those ids again).`,
    'line/end_line are the lines of the section in its file: pass them to read_note to see the exact source with',
    'line numbers.',
  ].join(' '),
  inputSchema: {
    ids: z
      .array(z.number().int())
      .describe(`section ids, 1–${MAX_IDS}`),
  },
  run(args, ctx) {
    if (args.ids.length === 0) throw new ToolError('ids array must not be empty');
    if (args.ids.length > MAX_IDS) {
      throw new ToolError(`at most ${MAX_IDS} ids per call (got ${args.ids.length}): split them over several calls`);
    }
    const ids = [...new Set(args.ids)];
    return ctx.withIndex((_db, reader) => {
      const sections = new Map(reader.sectionsByIds(ids).map((s) => [s.id, s]));
      const notes = reader.notesByIds([...new Set([...sections.values()].map((s) => s.noteId))]);
      const notFound: number[] = [];
      const entries = ids.flatMap((id) => {
        const s = sections.get(id);
        const n = s && notes.get(s.noteId);
        if (!s || !n) {
          notFound.push(id);
          return [];
        }
        return [fullSection(s, n)];
      });
      // Past the budget, texts are cut (marked truncated) so the whole answer still reaches the model. The
      // budget counts the answer's JSON, every entry's fields and escapes included: counting the texts'
      // characters alone, 50 short sections of long paths passed it by a few thousand.
      const bare = entries.map((e) => JSON.stringify({ ...e, text: '', truncated: true }).length);
      let left = RESULT_CHAR_BUDGET - bare.reduce((n, b) => n + b + 1, 1);
      const found = entries.map((entry, i) => {
        const fitted = textWithin(entry, bare[i] + Math.max(0, left));
        left -= JSON.stringify(fitted).length - bare[i];
        return fitted;
      });
      // Left out of the array, which clients read as sections, and named beside it: an empty array alone
      // could not tell "these ids are gone" from "there was nothing".
      return notFound.length === 0 ? found : new WithNotice(found, { not_found: notFound, note: notFoundNote(notFound.length, ids.length) });
    });
  },
});

function notFoundNote(missing: number, asked: number): string {
  const which = missing === asked ? (asked === 1 ? 'this id is' : 'these ids are') : `${missing} of the ${asked} ids ${missing === 1 ? 'is' : 'are'}`;
  return `${which} not in the index: their notes were re-indexed since (edited, removed, or rebuilt by \`tsm index --full\`), or the ids never existed; search again for their current ids`;
}
