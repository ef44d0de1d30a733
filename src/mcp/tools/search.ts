// search: the entry point. Ranked index entries with short previews; details come from get_sections.
import { z } from 'zod';
import { NOTE_TYPES } from '../../core/types.js';
import { queryEcho, truncateText } from '../../text/chars.js';
import { NOTHING_TO_RANK, parseQuery, ranksBy, type ParsedQuery } from '../../search/query-syntax.js';
import { LONG_TEXT_CHARS } from '../../search/operator-text.js';
import { INCOMPLETE_INDEX_NOTE } from '../../index/build-state.js';
import { searchWithNotices } from '../../search/query-notices.js';
import { pathNoticeFor } from '../../search/path-notice.js';
import { ToolError } from '../errors.js';
import { clampInt, defineTool, oneOf, PREVIEW_CHARS, RESULT_CHAR_BUDGET, roundScore, withinBudget, type ToolContext } from '../tool.js';
import { typedVaultPath } from '../../vault/paths.js';
import { tuningOf } from '../../search/rank.js';
import { searchExclusions } from '../../vault/obsidian-excluded.js';

export const MAX_SEARCH_LIMIT = 100;
/** Longest query text searched; a longer one is cut (a pasted log must not cost seconds), and the result says so. */
export const MAX_QUERY_CHARS = 10_000;
const MAX_OFFSET = 10_000;

export const searchTool = defineTool({
  name: 'search',
  title: 'Search the notes',
  description: [
    "Full-text search over the user's markdown notes (daily notes, knowledge notes, and session notes of past",
    'Claude Code sessions). Use it first whenever earlier decisions, designs, findings or past work might help.',
    'Accepts keywords or a whole natural-language question, in any language (Japanese included); phrases such as',
    '"last week" or "先月" become date filters.',
    `Returns {query, total, offset, results:[{id, path, section, type, status, date, score, preview}]}: one best`,
    `section per note, ranked, each with a preview of at most ${PREVIEW_CHARS} characters. Next steps: get_sections`,
    'with the ids to read the sections in full; timeline to see what surrounds one; read_note for the whole file.',
    'Query language: "quoted phrase" must appear; -word or -"phrase" drops notes holding it; a OR b needs one of',
    'them; sync* matches words starting with sync; tag:x (also tag:x/y), path:x, type:x, status:x filter like the',
    `parameters (a value that is none, like type:module, is a word). A query with over ${LONG_TEXT_CHARS} characters of words besides operators is pasted text: plain text throughout. Other words rank: a result need not hold them all.`,
    'No matches gives an empty results list, with did_you_mean when a word of the query is unknown to the notes;',
    'a query of filters or exclusions only (tag:x alone) ranks nothing and says so in note, as does a path whose notes',
    ".gitignore, .tsmignore or Obsidian's Excluded files leave out (naming the rule). total counts every note",
    'holding a query word; of a common word\'s thousands only the best few hundred are ranked, and the last page says so in note.',
    `Results past about ${RESULT_CHAR_BUDGET / 1000}k characters come as {id, path, score} (get_sections reads them).`,
  ].join(' '),
  inputSchema: {
    query: z.string().describe('keywords or a question'),
    type: oneOf(NOTE_TYPES).optional().describe('only notes of this type'),
    status: z.string().optional().describe('only notes with this frontmatter status, e.g. current, draft, archived'),
    tag: z.string().optional().describe('only notes with this tag or a tag below it ("project" also matches "project/alpha")'),
    path: z.string().optional().describe('only notes whose vault path starts with this, e.g. "knowledge/" or "daily/2026-"'),
    after: z.string().optional().describe('only notes dated on or after YYYY, YYYY-MM or YYYY-MM-DD'),
    before: z.string().optional().describe('only notes dated before YYYY, YYYY-MM or YYYY-MM-DD'),
    limit: z.number().optional().default(10).describe(`results per page, 1–${MAX_SEARCH_LIMIT} (larger values are clamped)`),
    offset: z.number().optional().default(0).describe('results to skip, for the next page'),
  },
  async run(args, ctx) {
    const given = args.query.trim();
    if (given === '') throw new ToolError('query must not be empty');
    const query = given.slice(0, MAX_QUERY_CHARS);
    const limit = clampInt(args.limit, 1, MAX_SEARCH_LIMIT, 10);
    const offset = clampInt(args.offset, 0, MAX_OFFSET, 0);
    const syntax = parseToolQuery(query, ctx);
    const flags = {
      type: args.type ? [args.type] : undefined,
      status: args.status?.trim() ? [args.status.trim()] : undefined,
      tag: args.tag?.trim() ? [args.tag.trim()] : undefined,
      path: args.path?.trim() ? [typedVaultPath(ctx.cfg.vault, args.path)] : undefined,
      after: args.after?.trim() || undefined,
      before: args.before?.trim() || undefined,
    };
    // The server's own model, when the vault has one: the vector of the words that rank (operators left out).
    const queryVector = await ctx.queryVector?.(syntax.text);
    const { resp, notices: said } = ctx.withIndex((db) =>
      searchWithNotices(db, {
        query,
        syntax,
        ...(queryVector ? { queryVector } : {}),
        suggest: true,
        collapseCopies: true,
        excludedFiles: searchExclusions(ctx.cfg),
        redactSecrets: true,
        flags,
        limit,
        offset,
        snippetChars: PREVIEW_CHARS,
        now: ctx.now(),
        tuning: tuningOf(ctx.cfg),
      }, pathNoticeFor({ root: ctx.cfg.vault, extensions: ctx.cfg.extensions })),
      (r) => r.resp.total === 0,
    );
    const notes = [
      given.length > MAX_QUERY_CHARS ? `the query has ${given.length} characters; its first ${MAX_QUERY_CHARS} were searched` : '',
      ranksBy(syntax) ? '' : `the query ${NOTHING_TO_RANK}`,
      ...said,
      resp.indexIncomplete ? INCOMPLETE_INDEX_NOTE : '',
    ].filter(Boolean);
    return {
      query: queryEcho(given),
      ...(notes.length ? { note: notes.join('; ') } : {}),
      total: resp.total,
      offset,
      ...(resp.didYouMean ? { did_you_mean: queryEcho(resp.didYouMean) } : {}),
      ...(resp.datesIgnored ? { dates_ignored: resp.datesIgnored } : {}),
      ...(resp.datesFirst ? { dates_first: resp.datesFirst } : {}),
      ...(resp.datesListed ? { dates_listed: resp.datesListed } : {}),
      ...(resp.datesOnly ? { dates_only: resp.datesOnly } : {}),
      ...(resp.datesCrowded ? { dates_crowded: resp.datesCrowded } : {}),
      // 100 results of long CJK paths and headings came to over 40,000 characters, about a token each, past what
      // Claude Code accepts: past the budget a result is its id, path and score (get_sections reads it).
      results: withinBudget(
        resp.hits.map((h) => ({
          id: h.id,
          path: h.path,
          section: h.section,
          type: h.type,
          status: h.status,
          date: h.date,
          score: roundScore(h.score),
          // The snippet is already the section read as one line of text: read as markdown again, the code it
          // shows as written (`[[target|label]]`, `**bold**`) lost its marks (`label`, `bold`).
          preview: truncateText(h.snippet, PREVIEW_CHARS),
          // Notes holding the same section, left out below it (a sync's conflicted copy: search/copies.ts).
          ...(h.copies ? { copies: h.copies } : {}),
        })),
        ({ id, path, score }) => ({ id, path, score }),
      ),
    };
  },
});

/** A tool's query in the query language, its `path:` values confined to the vault (one outside it is text). */
export function parseToolQuery(query: string, ctx: ToolContext): ParsedQuery {
  return parseQuery(query, { vault: ctx.cfg.vault });
}
