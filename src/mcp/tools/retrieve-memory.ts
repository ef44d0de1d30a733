// retrieve_memory: the markdown tool result of `tsm search -f md` (docs/mcp.md) — summaries first, section text only where the
// detail level says it is worth the tokens.
import { z } from 'zod';
import { DETAIL_LEVELS, formatMarkdown, KEY_MOMENT_SURPRISE, type DetailLevel } from '../../format/md.js';
import { linkReadingOf } from '../../search/link-reading.js';
import { NOTHING_TO_RANK, ranksBy } from '../../search/query-syntax.js';
import { search } from '../../search/search.js';
import { ToolError } from '../errors.js';
import { clampInt, defineTool, oneOf, RESULT_CHAR_BUDGET } from '../tool.js';
import { MAX_QUERY_CHARS, parseToolQuery } from './search.js';
import { queryEcho } from '../../text/chars.js';
import { tuningOf } from '../../search/rank.js';
import { searchExclusions } from '../../vault/obsidian-excluded.js';

export const MAX_MEMORIES = 20;

export const retrieveMemoryTool = defineTool({
  name: 'retrieve_memory',
  title: 'Recall as markdown',
  description: [
    'Recall what the notes say about a topic as compact markdown, ready to reason with: per result a heading',
    '"## Result N [rank, score 0–1, key moment]", **When:** (relative time) and **Summary:** (section path and first',
    `sentence); **Details:** (the section text) only where detail allows. detail: "auto" (default: the top 2 results`,
    `when they are key moments, surprise ≥ ${KEY_MOMENT_SURPRISE}), "none", "low" (only the first, if a key moment),`,
    '"high" (all). The query takes search\'s query language ("phrase", -word, a OR b, prefix*, tag:/path:/type:/status:).',
    'Prefer search + get_sections when you need ids, paths or filters.',
    `limit: default 5, at most ${MAX_MEMORIES}. Details past about ${RESULT_CHAR_BUDGET / 1000}k characters in all are cut or left out, and say so.`,
  ].join(' '),
  inputSchema: {
    query: z.string().describe('what to recall: keywords or a question'),
    limit: z.number().optional().default(5).describe(`results, 1–${MAX_MEMORIES}`),
    detail: oneOf(DETAIL_LEVELS as [DetailLevel, ...DetailLevel[]]).optional().default('auto').describe('which results carry details'),
  },
  async run(args, ctx) {
    const query = args.query.trim().slice(0, MAX_QUERY_CHARS);
    if (query === '') throw new ToolError('query must not be empty');
    const limit = clampInt(args.limit, 1, MAX_MEMORIES, 5);
    const now = ctx.now();
    const syntax = parseToolQuery(query, ctx);
    const queryVector = await ctx.queryVector?.(syntax.text);
    // A search that finds nothing has the index checked for a -wal of another index, as `search`'s does.
    const { resp, links } = ctx.withIndex(
      (db) => ({
        resp: search(db, { query, syntax, ...(queryVector ? { queryVector } : {}), suggest: true, collapseCopies: true, excludedFiles: searchExclusions(ctx.cfg), redactSecrets: true, limit, snippetChars: ctx.cfg.snippetChars, now, tuning: tuningOf(ctx.cfg) }),
        links: linkReadingOf(db),
      }),
      (r) => r.resp.total === 0,
    );
    const text = formatMarkdown({ ...resp, query: queryEcho(query) }, { detail: args.detail ?? 'auto', now, detailBudget: RESULT_CHAR_BUDGET, links });
    // What `search` says in its note and `tsm search` on stderr: `tag:lora` alone said only "No results found".
    const unranked = ranksBy(syntax) ? '' : ` The query ${NOTHING_TO_RANK}.`;
    return `${resp.didYouMean ? `${text} Did you mean: ${queryEcho(resp.didYouMean)}?` : text}${unranked}`;
  },
});
