// Links as written: the target, `#heading` and display text of wikilinks, markdown links to local files,
// frontmatter `related:` entries and properties whose value is a wikilink. Resolving them is the index's job.
import type { LinkKind, ParsedLink } from '../core/types.js';
import { labelledWikilink } from '../text/wikilink-label.js';

export interface LinkParts {
  target: string;
  heading: string | null;
  text: string | null;
}

/**
 * `target#heading|alias` (the inside of `[[…]]`); null when it names nothing. `labelFirst`: Dendron's
 * `alias|target#heading` (ParseOptions.dendron), where the first pipe ends the label.
 */
export function parseWikilinkContent(content: string, labelFirst = false): LinkParts | null {
  // Inside tables the pipe is escaped as `\|`.
  const inner = content.replace(/\\\|/g, '|');
  const pipe = inner.indexOf('|');
  const parts = pipe === -1 ? { target: inner, label: null } : labelledWikilink(inner.slice(0, pipe), inner.slice(pipe + 1), labelFirst);
  const named = parts.target;
  const text = parts.label === null ? null : parts.label.trim() || null;
  const hash = named.indexOf('#');
  const target = (hash === -1 ? named : named.slice(0, hash)).trim();
  const heading = hash === -1 ? null : named.slice(hash + 1).trim() || null;
  if (target === '' && heading === null) return null;
  return { target, heading, text };
}

/**
 * The note a typed wikilink names, as an Obsidian user (or a model reading a note) copies it (`[[Note]]`,
 * `![[Note]]`, `Note#Heading`, `[[Note#^block|shown text]]`): its target, read as the index reads a link. For
 * the commands and tools that take a note (`tsm related`, MCP read_note), tried only when the name as typed
 * matches no note, so a file whose name holds `#` is still found by it. Null when the text is no link or
 * names only a heading.
 */
export function typedLinkTarget(typed: string): string | null {
  const bracketed = /^!?\[\[([^]*)\]\]$/.exec(typed.trim());
  const inner = bracketed ? bracketed[1] : typed;
  if (!bracketed && !/[#|]/.test(inner)) return null;
  const target = parseWikilinkContent(inner)?.target ?? '';
  return target === '' ? null : target;
}

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;

/**
 * The local target of a markdown link destination, or null for URLs with a scheme (http:, mailto:, …),
 * protocol-relative URLs and pure `#anchor` (or `?query`) links. The target is percent-decoded, without its
 * anchor and query.
 */
export function markdownLinkTarget(destination: string, label: string): LinkParts | null {
  const dest = destination.replace(BACKSLASH_ESCAPE, '$1').trim();
  if (dest === '' || dest.startsWith('#') || dest.startsWith('//') || URL_SCHEME.test(dest)) return null;
  const hash = dest.indexOf('#');
  // A `?query` is no part of the file: Hugo sites link /handbook/company/team/?department=x (the GitLab
  // handbook, 18 times), and Obsidian allows no `?` in a name. A `?` in a file name is written %3F.
  const path = hash === -1 ? dest : dest.slice(0, hash);
  const query = path.indexOf('?');
  const target = percentDecode(query === -1 ? path : path.slice(0, query));
  if (target === '') return null;
  const heading = hash === -1 ? null : percentDecode(dest.slice(hash + 1)) || null;
  const text = label.replace(/\s+/g, ' ').trim() || null;
  return { target, heading, text };
}

function percentDecode(text: string): string {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const WIKILINK_WHOLE = /^!?\[\[([\s\S]*)\]\]$/;

/**
 * Frontmatter `related:` entries: a string or a list of strings, each a path or a `[[wikilink]]`.
 * Unquoted `[[note]]` in YAML is a nested list, so nested lists are flattened.
 */
export function relatedLinks(value: unknown, labelFirst = false): ParsedLink[] {
  const out: ParsedLink[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    if (typeof v !== 'string' && typeof v !== 'number') return;
    const entry = String(v).trim();
    const wiki = WIKILINK_WHOLE.exec(entry);
    const parts = parseWikilinkContent(wiki ? wiki[1] : entry, labelFirst);
    if (parts && parts.target !== '') out.push(link('related', parts, null, null));
  };
  visit(value, 0);
  return out;
}

/**
 * Links in the other properties, as Obsidian (1.4+) reads them: a string that is one whole `[[wikilink]]`
 * (`up: "[[Parent]]"`), or such an item of a list (`sources: ["[[A]]", "[[B]]"]`), shows in the target's
 * backlinks. Any other text is not a link (`author: Jane`, `summary: "see [[X]]"`), nor is a nested mapping.
 */
export function propertyLinks(frontmatter: Record<string, unknown>, labelFirst = false): ParsedLink[] {
  const out: ParsedLink[] = [];
  const visit = (v: unknown): void => {
    if (typeof v !== 'string') return;
    const wiki = WIKILINK_WHOLE.exec(v.trim());
    // One link, not "[[A]] and [[B]]" (which the pattern takes whole).
    const parts = wiki && !/\[\[|\]\]/.test(wiki[1]) ? parseWikilinkContent(wiki[1], labelFirst) : null;
    if (parts && parts.target !== '') out.push(link('related', parts, null, null));
  };
  for (const [key, value] of Object.entries(frontmatter)) {
    if (key.toLowerCase() === 'related') continue; // relatedLinks: paths as well (metadata.ts propertyValues: any case)
    if (Array.isArray(value)) value.forEach(visit);
    else visit(value);
  }
  return out;
}

export function link(kind: LinkKind, parts: LinkParts, section: number | null, line: number | null): ParsedLink {
  return { kind, target: parts.target, heading: parts.heading, text: parts.text, section, line };
}
