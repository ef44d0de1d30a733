// YAML frontmatter: where it is (the rules of micromark-extension-frontmatter, which remark-frontmatter
// uses) and what it holds (js-yaml through gray-matter's engine), made JSON-safe for the index.
import matter from 'gray-matter';
import { wellFormed } from '../text/controls.js';

export interface FrontmatterBlock {
  /** 0-based line of the closing fence; the body starts on the next line. */
  closeLine: number;
  /** The YAML between the fences. */
  yaml: string;
}

const FENCE = /^---[ \t]*$/;

/**
 * The frontmatter block at the top of a note, or null. Like remark-frontmatter: `---` on the very first
 * line (trailing spaces allowed, and a line ending after it) and a closing `---` line; unclosed is none.
 */
export function findFrontmatter(lines: string[]): FrontmatterBlock | null {
  if (lines.length < 2 || !FENCE.test(lines[0])) return null;
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(lines[i])) return { closeLine: i, yaml: lines.slice(1, i).join('\n') };
  }
  return null;
}

/**
 * True when the first line is `---` and the next one reads as a YAML key (`title: …`), but no `---` line closes
 * the block: properties whose closing line was forgotten (or lost to a template), read as text, as Obsidian
 * reads them. A note that opens with a rule (`---`) over prose is not one.
 */
export function unclosedFrontmatter(lines: string[]): boolean {
  return lines.length >= 2 && FENCE.test(lines[0]) && /^[A-Za-z_][\w-]*[ \t]*:(?:[ \t]|$)/.test(lines[1]) && findFrontmatter(lines) === null;
}

/** The warning of a note for which unclosedFrontmatter is true. */
export const UNCLOSED_FRONTMATTER = 'frontmatter not closed: no `---` line ends the block line 1 opens, so its properties are read as text';

export type YamlResult =
  | { ok: true; data: Record<string, unknown>; warnings: string[] }
  | { ok: false; error: string };

type YamlParse = (text: string, options?: { json?: boolean }) => unknown;

// gray-matter exposes its engines (js-yaml's safeLoad for YAML) but does not declare them in its types.
const yamlParse: YamlParse = (matter as unknown as { engines: { yaml: { parse: YamlParse } } }).engines.yaml.parse;

/** Parses frontmatter YAML; anything but a mapping (or an empty block) is an error. */
export function parseYaml(text: string): YamlResult {
  const warnings: string[] = [];
  let value: unknown;
  try {
    value = yamlParse(text);
  } catch (err) {
    // js-yaml reads nested collections by recursion: some thousands of levels (`a: [[[[…`) end the stack, and
    // the message said only "Maximum call stack size exceeded".
    if (err instanceof RangeError) return { ok: false, error: TOO_DEEP };
    const message = errorMessage(err);
    if (!/duplicated mapping key/i.test(message)) return { ok: false, error: yamlProblem(message) };
    // A repeated key is a slip, not a reason to drop the whole block: the last value wins, as in JSON.
    try {
      value = yamlParse(text, { json: true });
      warnings.push(`frontmatter: ${yamlProblem(message)} (the last value is kept)`);
    } catch (again) {
      return { ok: false, error: yamlProblem(errorMessage(again)) };
    }
  }
  if (value === undefined || value === null) return { ok: true, data: {}, warnings };
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
    return { ok: false, error: 'frontmatter is not a mapping of keys to values' };
  }
  const budget = { nodes: MAX_NODES, deep: false };
  const data = toJsonSafe(value, 0, budget) as Record<string, unknown>;
  // A title, status, type, tag or alias is text a person reads: YAML reads `title: 2024-01-02` as a timestamp,
  // whose ISO form (2024-01-02T00:00:00.000Z) is not what was written, and a tag `[2026-01-01]` was indexed as
  // `2026-01-01t00:00:00.000z`. Other keys keep the ISO form, which dates are read from. (`Title:` too:
  // metadata.ts propertyValues reads the key in any case.)
  for (const [key, written] of Object.entries(value as Record<string, unknown>)) {
    if (!TEXT_KEYS.has(key.toLowerCase()) || !(key in data)) continue;
    if (isDay(written)) data[key] = yamlDateText(written);
    else if (Array.isArray(written) && Array.isArray(data[key])) {
      const items = data[key] as unknown[];
      written.forEach((item, i) => {
        if (i < items.length && isDay(item)) items[i] = yamlDateText(item);
      });
    }
  }
  // Rolled-over dates first: a timestamp with an offset may fall on another day in UTC, and is then kept whole.
  keepRolledDates(text, value as Record<string, unknown>, data);
  keepOffsetTimestamps(text, value as Record<string, unknown>, data);
  keepWrittenNumbers(text, value as Record<string, unknown>, data);
  if (budget.nodes < 0) warnings.push(`frontmatter: too large or too deeply nested, cut at ${MAX_NODES} values`);
  else if (budget.deep) warnings.push(`frontmatter: values nested deeper than ${MAX_DEPTH} levels left out`);
  return { ok: true, data, warnings };
}

/** The keys whose values are names and words, never dates (metadata.ts reads them as text). */
const TEXT_KEYS = new Set(['title', 'status', 'type', 'tags', 'tag', 'aliases', 'alias']);

function isDay(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/** A YAML timestamp as written: a date alone (midnight UTC, as YAML reads one) as YYYY-MM-DD, else ISO. */
function yamlDateText(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

// A YAML timestamp with a UTC offset, as a top-level value is written (`created: 2024-03-05T08:30:00+09:00`).
const OFFSET_TIMESTAMP = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+(\d{4}-\d\d?-\d\d?(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?[ \t]*[+-]\d\d?(?::\d\d)?)[ \t]*(?:#.*)?$/gm;

/**
 * A top-level timestamp with a UTC offset keeps the text written: its ISO form is in UTC, whose day is
 * not the writer's (Templater's `2024-03-05T08:30:00+09:00`, a morning in Tokyo, is the 4th in UTC), and
 * the note's date is read from that day. (Without an offset js-yaml reads the time as UTC: the day stays.)
 */
function keepOffsetTimestamps(yaml: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
  for (const m of yaml.matchAll(OFFSET_TIMESTAMP)) {
    const key = m[1];
    if (value[key] instanceof Date && key in data) data[key] = m[2];
  }
}

// A top-level YAML timestamp's date part, as written (`date: 0000-00-00`, `updated: 2024-02-30T10:00:00`).
const DAY_TIMESTAMP = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+((\d{4})-(\d\d?)-(\d\d?))(?![\d-])/gm;

/**
 * A top-level timestamp whose date is no day keeps the text written, which dates nothing: js-yaml rolls it
 * over (`0000-00-00`, an empty date as templates and database exports write it, is 1899-11-30; `2024-02-30`
 * is 2024-03-01), and the note was dated by a day nobody wrote.
 */
function keepRolledDates(yaml: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
  for (const m of yaml.matchAll(DAY_TIMESTAMP)) {
    const date = value[m[1]];
    if (!(date instanceof Date) || !(m[1] in data)) continue;
    const same = date.getUTCFullYear() === +m[3] && date.getUTCMonth() + 1 === +m[4] && date.getUTCDate() === +m[5];
    if (!same) data[m[1]] = m[2];
  }
}

// A top-level plain scalar, as written (no quotes, no flow collection).
const PLAIN_SCALAR = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]+([^\s"'#[{|>&*!%@`][^#\n]*?)[ \t]*(?:#.*)?$/gm;
// YAML 1.1's base 60 (`12:30` is 750, `1:02:03` is 3723), which js-yaml reads and YAML 1.2 and Obsidian do not.
const SEXAGESIMAL = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/**
 * A top-level value js-yaml read as a number keeps the text written when that number is not what a reader of
 * the note sees: a time written `start: 12:30` (YAML 1.1's base 60, which Obsidian's properties and YAML 1.2
 * read as text) was 750, and a title is text a person reads in any form (`title: 12:30` was "750", `title:
 * 007` "7", `title: 1e3` "1000"), as a title written as a date keeps its text.
 */
function keepWrittenNumbers(yaml: string, value: Record<string, unknown>, data: Record<string, unknown>): void {
  for (const m of yaml.matchAll(PLAIN_SCALAR)) {
    const [, key, written] = m;
    if (typeof value[key] !== 'number' || !(key in data)) continue;
    if (SEXAGESIMAL.test(written) || (key.toLowerCase() === 'title' && written !== String(value[key]))) data[key] = written;
  }
}

/** YAML aliases can expand exponentially when copied; the JSON copy stops here. */
const MAX_NODES = 20_000;
const MAX_DEPTH = 64;

const TOO_DEEP = 'lists or mappings nested too deep to read (thousands of levels)';

/**
 * A plain JSON value: Dates become ISO strings, binary becomes base64, non-finite numbers null. Past the
 * budget's nodes or MAX_DEPTH levels a value is null; `deep` says the depth was reached.
 */
export function toJsonSafe(value: unknown, depth: number, budget: { nodes: number; deep: boolean }): unknown {
  if (depth > MAX_DEPTH) budget.deep = true;
  if (--budget.nodes < 0 || depth > MAX_DEPTH) return null;
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      // A double-quoted YAML string may escape half a surrogate pair (`"\ud800"`), which no decoded file holds:
      // stored, a title read back as three U+FFFD and a tag printed a lone surrogate in `-f json`, which strict
      // JSON readers (serde_json) reject.
      return wellFormed(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return null;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (budget.nodes < 0) break;
      out.push(toJsonSafe(item, depth + 1, budget));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (budget.nodes < 0) break;
    // defineProperty: a '__proto__' key must stay data, not replace the prototype.
    Object.defineProperty(out, wellFormed(key), {
      value: toJsonSafe(item, depth + 1, budget),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * js-yaml's message as one clean line: its first line ends in ":" before the lines that quote the YAML and
 * point at the column ("… at line 2, column 3:\n    b: [\n    ^"), which a one-line warning drops. Its line
 * counts from the YAML's first line, the file's second (after `---`): the warning gives the file's line,
 * the one an editor shows.
 */
function yamlProblem(message: string): string {
  return firstLine(message)
    .replace(/:\s*$/, '')
    .replace(/\bat line (\d+)/, (_, n: string) => `at line ${Number(n) + 1}`);
}

export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl === -1 ? text : text.slice(0, nl);
}
