// `tsm related`'s text: one row per note (or file) a note links to, and per note linking to it, with the
// lines of its links. One row per link repeated a target once per link (`[[B]] [[B]] [[B]]` gave three
// identical `b.md  wikilink:5` rows) and `-n` counted those rows, so `-n 1` could show one note of several.
import type { LinkRecord } from '../core/types.js';
import { oneLine } from '../text/controls.js';

/** The links of one row: to one note or file (outgoing), or from one note (backlinks); in the order given. */
export type LinkGroup = LinkRecord[];

/**
 * What an outgoing link leads to, as its row names it: the note, else the attachment, the skipped file, the
 * file the ignore rules leave out, the name written.
 */
function destinationKey(l: LinkRecord): string {
  if (l.targetPath !== null) return `n:${l.targetPath}`;
  if (l.attachmentPath !== null) return `a:${l.attachmentPath}`;
  if (l.skipped !== null) return `s:${l.skipped.path}`;
  if (l.ignored !== null) return `i:${l.ignored.path}`;
  return `u:${l.target}`;
}

function groupBy(links: LinkRecord[], keyOf: (l: LinkRecord) => string): LinkGroup[] {
  const groups = new Map<string, LinkGroup>();
  for (const l of links) {
    const key = keyOf(l);
    const group = groups.get(key);
    if (group) group.push(l);
    else groups.set(key, [l]);
  }
  return [...groups.values()];
}

/** Outgoing links by what they lead to, first linked first. */
export function outgoingGroups(links: LinkRecord[]): LinkGroup[] {
  return groupBy(links, destinationKey);
}

/** Backlinks by the note they come from. */
export function backlinkGroups(links: LinkRecord[]): LinkGroup[] {
  return groupBy(links, (l) => l.sourcePath);
}

/** Lines as `5,9` (each once), '' when none. */
function linesOf(links: LinkRecord[]): string {
  return [...new Set(links.flatMap((l) => (l.line === null ? [] : [l.line])))].join(',');
}

/**
 * `wikilink:5,9`, `related (frontmatter)`: the links of one kind (and, when `withHeading`, one heading) with
 * their lines; several such parts are joined by two spaces, as the row's columns are.
 */
function parts(group: LinkGroup, withHeading: boolean): string {
  const byKind = groupBy(group, (l) => `${l.kind}\0${withHeading ? (l.heading ?? '') : ''}`);
  return byKind
    .map((links) => {
      const { kind, heading } = links[0];
      const lines = linesOf(links);
      const frontmatter = links.some((l) => l.line === null);
      const named = withHeading && heading ? `${kind}#${oneLine(heading)}` : kind;
      return `${named}${lines ? `:${lines}` : ''}${frontmatter ? ' (frontmatter)' : ''}`;
    })
    .join('  ');
}

/**
 * `b.md  wikilink:5,9`, `pic.png  [attachment]  embed:3`, `b.md#Setup  markdown:6`, `drafts/x.md  [ignored by
 * .gitignore: drafts/]  wikilink:4` (the note is there, left out of the index: no broken link): a heading all the links
 * share follows the path, as a single link's always did; headings that differ follow each part (`wikilink:5#Setup`).
 */
export function outgoingRow(group: LinkGroup): string {
  const l = group[0];
  const shared = group.every((x) => x.heading === l.heading);
  const heading = shared && l.heading ? `#${oneLine(l.heading)}` : '';
  const to =
    l.targetPath !== null
      ? `${oneLine(l.targetPath)}${heading}`
      : l.attachmentPath !== null
        ? `${oneLine(l.attachmentPath)}${heading}  [attachment]`
        : l.skipped !== null
          ? `${oneLine(l.skipped.path)}${heading}  [skipped: ${oneLine(l.skipped.reason)}]`
          : l.ignored !== null
            ? `${oneLine(l.ignored.path)}${heading}  [ignored by ${l.ignored.by}: ${oneLine(l.ignored.rule)}]`
            : `${oneLine(l.target)}${heading}  [unresolved]`;
  return `${to}  ${parts(group, !shared)}`;
}

/** `b.md:3,7  wikilink`, `b.md  related`; links of several kinds: `b.md  wikilink:3  embed:7`. */
export function backlinkRow(group: LinkGroup): string {
  const source = oneLine(group[0].sourcePath);
  const kinds = new Set(group.map((l) => l.kind));
  if (kinds.size > 1) return `${source}  ${parts(group, false)}`;
  const lines = linesOf(group);
  return `${source}${lines ? `:${lines}` : ''}  ${group[0].kind}`;
}
