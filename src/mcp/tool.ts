// What every MCP tool is: a name, a description written for the model, a zod input shape, and a
// function from validated arguments to a JSON-able result (or markdown text).
import { z } from 'zod';
import type { NoteRecord, SectionRecord } from '../core/types.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import type { HookRequest } from '../hooks/dispatch.js';
import type { Database } from '../index/db.js';
import type { NoteReader } from '../index/note-reader.js';
import { truncateText } from '../text/chars.js';
import { markdownLine, type LinkReading } from '../text/markdown-line.js';
import { redactNoteHeadingPath, redactNoteSecrets } from '../text/redact.js';
import type { TsmConfig } from '../vault/config.js';

export interface ToolContext {
  cfg: TsmConfig;
  /** The reference time for recency and relative dates (tests pin it). */
  now(): Date;
  /**
   * Runs `fn` with a read-only index connection that lives for this call only. `foundNothing`: a search's
   * test of its result, which, when it found nothing, has the index checked for a -wal of another index
   * (index/wal-check.ts), as `tsm search` and the prompt hook have it.
   */
  withIndex<T>(fn: (db: Database, reader: NoteReader) => T, foundNothing?: (result: T) => boolean): T;
  /**
   * The query's vector from the server's own embedding model (issue 17), for SearchRequest.queryVector:
   * undefined when the vault has no model (or it failed to load, or to embed this query). Await it before
   * withIndex, whose callback is synchronous.
   */
  queryVector?(text: string): Promise<QueryVector | undefined>;
  /**
   * How hook_context starts `tsm hook`'s detached background sync (detachFromHere): given by `tsm serve`
   * only, whose process runs the tsm script; absent, no sync is started (in-process tests).
   */
  detachHook?: HookRequest['detach'];
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  /** A string is sent as is (markdown); anything else as compact JSON. */
  run(args: Record<string, unknown>, ctx: ToolContext): unknown;
  /**
   * For a tool that must never answer with an error (hook_context: Claude Code's prompt hook fails open):
   * its answer in place of any error, bad arguments included, given the error's message. It reports the
   * problem itself. Its parameters must all be optional (argumentSchema).
   */
  failOpen?(problem: string, args: Record<string, unknown>, ctx: ToolContext): unknown;
  /**
   * The answer's secrets are redacted where it is made, and callTool sends it as it is (redact-answer.ts):
   * hook_context answers the prompt hook's own output, JSON around XML, which a redaction of the whole
   * could break (a key block cut before its END line is redacted to the end of the text, closing tags and all).
   */
  redactsOwnAnswer?: true;
}

/**
 * An answer of two text items: `result`, what the tool always answers, then `notice` beside it. A client that
 * reads the first item gets what it always got (get_sections' array stays an array); the model reads both.
 */
export class WithNotice {
  constructor(
    readonly result: unknown,
    readonly notice: unknown,
  ) {}
}

/** Keeps the argument types of `run` tied to the schema while the server sees one plain Tool type. */
export function defineTool<S extends z.ZodRawShape>(spec: {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  run(args: z.objectOutputType<S, z.ZodTypeAny>, ctx: ToolContext): unknown;
  failOpen?(problem: string, args: Record<string, unknown>, ctx: ToolContext): unknown;
  redactsOwnAnswer?: true;
}): Tool {
  return spec as unknown as Tool;
}

/**
 * The schema the SDK checks a tool's arguments with and lists (tools/list) as its JSON Schema. Fields a
 * tool does not declare are accepted, since clients add their own (and hook_context must never fail), so
 * the object passes them through, which the SDK lists as `additionalProperties: true`. A plain z.object
 * strips them silently yet is listed as `additionalProperties: false`: a schema refusing what is accepted.
 * callTool hands the tool only its declared fields (declaredArguments).
 *
 * The SDK answers arguments that fail this schema with an error result before callTool runs. A fail-open
 * tool must answer those too, so each of its fields catches a bad value as an InvalidArgument, which
 * callTool turns into the error its failOpen answers. The listed schema is the field's own (a caught
 * field is listed as its inner type), except that it counts as optional: hence failOpen tools take
 * optional fields only.
 */
export function argumentSchema(tool: Tool): z.ZodTypeAny {
  const shape = tool.failOpen
    ? Object.fromEntries(Object.entries(tool.inputSchema).map(([name, field]) => [name, field.catch(({ error }: { error: z.ZodError }) => new InvalidArgument(error))]))
    : tool.inputSchema;
  return z.object(shape).passthrough();
}

/** A fail-open tool's argument that did not fit its schema, in place of the value (argumentSchema). */
export class InvalidArgument {
  readonly message: string;
  constructor(error: z.ZodError) {
    this.message = error.issues.map((i) => i.message).join('; ');
  }
}

/** The arguments `tool` declares; anything else a client sent is ignored, never refused. */
export function declaredArguments(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name]) => Object.hasOwn(tool.inputSchema, name)));
}

/** Most characters of a refused value that an enum parameter's error quotes. */
const QUOTED_VALUE_CHARS = 40;

/**
 * A parameter that takes one of `values` (`type`, `detail`). zod's own message quoted the value given whole
 * ("Invalid enum value. Expected 'daily' | …, received 'xxx…'"), and the SDK sent it back as the tool's error:
 * 1,000,166 characters for a `type` of a million. The same message, the value cut to its first 40 characters.
 */
export function oneOf<T extends string>(values: readonly [T, ...T[]]) {
  return z.enum(values as [T, ...T[]], {
    errorMap: (issue, ctx) =>
      issue.code === 'invalid_enum_value'
        ? { message: `Invalid enum value. Expected ${values.map((v) => `'${v}'`).join(' | ')}, received '${truncateText(String(issue.received), QUOTED_VALUE_CHARS)}'` }
        : { message: ctx.defaultError },
  });
}

/** Limits are clamped, never errors (docs/mcp.md). Non-numbers and NaN take the default. */
export function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/**
 * Characters of note text one result may carry. Claude Code accepts MCP results up to 25,000 tokens by
 * default (MAX_MCP_OUTPUT_TOKENS), and CJK text costs up to one token per character.
 */
export const RESULT_CHAR_BUDGET = 24_000;

/**
 * Keeps items whole while the list's JSON — the short forms of the items after them included — fits in
 * `budget` characters; from the first that does not, items are replaced by their short form (which should
 * still carry the ids to fetch them by). Counting only the whole items, 100 search results of long CJK
 * paths came to 28,000 characters past a 24,000 budget.
 */
export function withinBudget<T, S>(items: T[], short: (item: T) => S, budget = RESULT_CHAR_BUDGET): (T | S)[] {
  const shorts = items.map(short);
  let used = 1 + jsonChars(shorts);
  let whole = 0;
  for (; whole < items.length; whole++) {
    const extra = JSON.stringify(items[whole]).length - JSON.stringify(shorts[whole]).length;
    if (used + extra > budget) break;
    used += extra;
  }
  return items.map((item, i) => (i < whole ? item : shorts[i]));
}

/** Characters of the items' JSON in a list: each item and its comma (the brackets are the caller's). */
export function jsonChars(items: unknown[]): number {
  return items.reduce((n: number, x) => n + JSON.stringify(x).length + 1, 0);
}

/**
 * withinBudget for the two sides of an anchor (`before` ends next to it, `after` starts next to it): every
 * item takes its short form, then the nearest, alternating sides, take their full form while the whole
 * (short forms included) fits in `budget`. Returns the characters the lists take too.
 */
export function nearestWithinBudget<T, S>(
  before: T[],
  after: T[],
  short: (item: T) => S,
  budget: number,
): { before: (T | S)[]; after: (T | S)[]; used: number } {
  const b: (T | S)[] = before.map(short);
  const a: (T | S)[] = after.map(short);
  let used = jsonChars([...b, ...a]);
  for (let d = 0; d < Math.max(before.length, after.length); d++) {
    for (const [list, items, i] of [[b, before, before.length - 1 - d], [a, after, d]] as const) {
      if (i < 0 || i >= items.length) continue;
      const extra = JSON.stringify(items[i]).length - JSON.stringify(list[i]).length;
      if (used + extra > budget) return { before: b, after: a, used };
      list[i] = items[i];
      used += extra;
    }
  }
  return { before: b, after: a, used };
}

/**
 * `entry` whole when its JSON fits in `budget` characters, else with its text cut (at a word or character
 * boundary, `…` at the end, as truncateText cuts) to the longest that fits and marked `truncated: true`,
 * counted in JSON as withinBudget counts (escapes and all). A text of 50,000 characters made a timeline of
 * 50,307 past the 24,000 budget (a vault with `chunkChars` raised: sections are not split below it).
 */
export function textWithin<T extends { text: string }>(entry: T, budget: number): T | (T & { truncated: true }) {
  if (JSON.stringify(entry).length <= budget) return entry;
  const cut = (chars: number) => ({ ...entry, text: truncateText(entry.text, chars), truncated: true as const });
  // The longest cut that fits: a binary search over the text's characters (about 20 steps for a million).
  let lo = 0;
  let hi = Array.from(entry.text).length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (JSON.stringify(cut(mid)).length <= budget) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}

/** How many of `items`, from the first, fit in `budget` characters of JSON. */
export function countWithin(items: unknown[], budget: number): number {
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + 1;
    if (used > budget) return i;
  }
  return items.length;
}

/** Seed 002: previews are enough to judge relevance and cheap on tokens. */
export const PREVIEW_CHARS = 120;

/**
 * Markdown → one line of plain text, at most `max` characters. `links`: how the vault's notes read their links
 * (linkReadingOf, from the index), for Dendron's `[[label|note.id]]` to show its label as the snippets do.
 */
export function preview(markdown: string, links: LinkReading, max = PREVIEW_CHARS): string {
  // Redacted whole, before it is cut: a section that starts inside a key block (a long note's second
  // chunk) shows no key text, and a cut never leaves a token's head (redact-answer.ts).
  return truncateText(markdownLine(redactNoteSecrets(markdown), links), max);
}

/** Scores are small fused values; three significant digits are all a reader can use. */
export function roundScore(score: number): number {
  return Number.isFinite(score) ? Number(score.toPrecision(3)) : 0;
}

/** A section in full, with the metadata of its note (get_sections, timeline anchor). */
export function fullSection(s: SectionRecord, n: NoteRecord) {
  return {
    id: s.id,
    path: n.path,
    title: redactNoteSecrets(n.title),
    type: n.type,
    status: n.status,
    date: n.date || null,
    tags: n.tags,
    section: redactNoteHeadingPath(s.headingPath),
    line: s.startLine,
    end_line: s.endLine,
    // Redacted before get_sections and timeline cut it to their budget (redact-answer.ts).
    text: redactNoteSecrets(s.text),
  };
}

/** A section as a short index entry (timeline neighbours, file history). */
export function sectionEntry(s: SectionRecord, links: LinkReading) {
  return { id: s.id, section: s.headingPath, line: s.startLine, end_line: s.endLine, preview: preview(s.text || s.heading, links) };
}
