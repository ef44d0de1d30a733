// Properties other tools write as lines of the note rather than as frontmatter, read into the keys
// frontmatter gives them; the lines stay text, as those tools show them, so nothing once searchable is lost.
//
// Logseq: the `key:: value` lines that open a page file with no frontmatter (Logseq writes a page's
// properties there, unbulleted: `title:: Project/Apollo`, `alias:: Apollo, [[Moonshot]]`, `tags:: planning,
// q4`). Only the three that name the note, which frontmatter `title`, `aliases` and `tags` mean too, are read
// (as Obsidian shows a Dataview field written `key:: value`, the lines stay text).
//
// Notion: a page exported to markdown is its `# Title`, a blank line, then one `Key: value` line a property
// (`Created: November 3, 2023 4:12 PM`, `Last edited time: …`, `作成日時: 2023年11月7日 16:12` in Japanese),
// then a blank line and the body. The dates are read, under frontmatter's date keys, and the tags: `Tags: Work,
// Product Launch` (`タグ: 会議, 週次` in Japanese), a multi-select's values as Notion writes them, comma-separated; a
// value is one tag, spaces and all, as a multi-select option is (not split at spaces as frontmatter's are).

const LOGSEQ_PROPERTY = /^([A-Za-z][\w-]*)::(?:[ \t]+(.*))?$/;
const LISTS: Record<string, string> = { alias: 'aliases', aliases: 'aliases', tags: 'tags' };
// A property's name as Notion writes it: words (no markdown: `#`, `*`, `[`, `>`, `|`, a backtick), 40
// characters at most, then `: ` and a value. `TODO: call Bob` is one too, and names no date.
const NOTION_PROPERTY = /^(\p{L}[\p{L}\p{N}\p{M} _()'.&/-]{0,39}):[ \t]+(\S.*)$/u;
// Notion's names of its date properties (English and Japanese), and the usual ones, under frontmatter's
// date keys (metadata.ts noteDate reads them in that order: date, updated, created).
const NOTION_DATES: Record<string, string> = {
  date: 'date',
  日付: 'date',
  'last edited time': 'updated',
  'last edited': 'updated',
  'last updated': 'updated',
  updated: 'updated',
  最終更新日時: 'updated',
  created: 'created',
  'created time': 'created',
  'created at': 'created',
  'date created': 'created',
  作成日時: 'created',
  作成日: 'created',
};
// Notion's name of its tags property (a multi-select), English and Japanese.
const NOTION_TAGS = new Set(['tags', 'tag', 'タグ']);

export interface NotionProperties {
  /** `date`, `updated`, `created`: the values as written. */
  dates: Record<string, string>;
  /** The tags, trimmed, as written. */
  tags: string[];
}

/** `title`, `aliases` and `tags` from the Logseq property lines that open `lines` at `from` (none: {}). */
export function pageProperties(lines: string[], from: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of propertyLines(lines, from, LOGSEQ_PROPERTY).properties) {
    if (key === 'title') out.title = value;
    else if (LISTS[key]) out[LISTS[key]] = value.split(',').map(linkedName).filter(Boolean);
  }
  return out;
}

/**
 * The date properties and the tags of a Notion page whose `# Title` is the first line at or after `from` that
 * is not blank: the `Key: value` lines after it and blank lines, when every line up to the next blank one (or the
 * end) is one. A paragraph that only begins so is text (none: no dates, no tags).
 */
export function notionProperties(lines: string[], from: number): NotionProperties {
  let i = skipBlank(lines, from);
  if (i >= lines.length || !/^# +\S/.test(lines[i])) return { dates: {}, tags: [] };
  i = skipBlank(lines, i + 1);
  const { properties, end } = propertyLines(lines, i, NOTION_PROPERTY);
  if (properties.length === 0 || (end < lines.length && lines[end].trim() !== '')) return { dates: {}, tags: [] };
  const out: NotionProperties = { dates: {}, tags: [] };
  for (const [name, value] of properties) {
    const spaced = name.replace(/\s+/g, ' ');
    const key = NOTION_DATES[spaced];
    if (key && !(key in out.dates)) out.dates[key] = value.replace(/^@/, '');
    else if (NOTION_TAGS.has(spaced)) out.tags.push(...value.split(',').map((t) => t.trim()).filter(Boolean));
  }
  return out;
}

/** The `[lower-case name, value]` of each line matching `re` from `from` on, and the first line that does not. */
function propertyLines(lines: string[], from: number, re: RegExp): { properties: [string, string][]; end: number } {
  const properties: [string, string][] = [];
  let i = from;
  for (; i < lines.length; i++) {
    const m = re.exec(lines[i].trimEnd());
    if (!m) break;
    properties.push([m[1].toLowerCase(), (m[2] ?? '').trim()]);
  }
  return { properties, end: i };
}

function skipBlank(lines: string[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i].trim() === '') i++;
  return i;
}

/** A value as the page it names: `[[Moonshot]]` and `#sync` are `Moonshot` and `sync`. */
function linkedName(item: string): string {
  const t = item.trim().replace(/^#/, '');
  const m = /^\[\[(.*)\]\]$/.exec(t);
  return (m ? m[1] : t).trim();
}
