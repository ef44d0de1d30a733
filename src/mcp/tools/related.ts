// related: a note's place in the link graph — what it links to and what links to it.
import { z } from 'zod';
import { countWithin, defineTool, RESULT_CHAR_BUDGET } from '../tool.js';
import { realPathInVault } from '../vault-path.js';
import { withIgnored } from '../../index/ignored-links.js';
import { findNamedNote, namedNote, noNoteError } from './note-lookup.js';

export const relatedTool = defineTool({
  name: 'related',
  title: 'Links of a note',
  description: [
    "A note's links: outgoing (wikilinks, embeds, markdown links and frontmatter related entries to other notes, each with the",
    'resolved note path, or null when no note is the target: then attachment is the path of the image, PDF or canvas it',
    'names, if any, or skipped is {path, reason} of the file of that name tsm skipped (too large, binary, a pipe), which',
    'exists but is not indexed, or ignored is {path, by, rule} of the note or attachment of that name the .gitignore or',
    '.tsmignore (by) leaves out of the index, rule being what it ignores, the file or a folder above it, e.g. "drafts/":',
    'the file is there, the link is right) and backlinks (notes linking to it). Use it to',
    'widen from one relevant note to its neighbours, then read them with read_note. path is a vault-relative note',
    'path (or a unique note name, or a wikilink copied from a note). Returns {path, title, outgoing:[{path, attachment?, skipped?, ignored?, target, kind, heading, line}],',
    'backlinks:[{path, kind, line}]}; a note that is not indexed is an error. A note of thousands of links (a map of',
    `content) gives the first ones, by line and by path, within about ${RESULT_CHAR_BUDGET / 1000}k characters, and counts the rest in`,
    'outgoing_omitted / backlinks_omitted (read_note shows the note\'s own links in its text).',
  ].join(' '),
  inputSchema: {
    path: z.string().describe('vault-relative note path, e.g. "knowledge/lora.md"'),
  },
  run(args, ctx) {
    // Named as read_note takes a note (a path, a unique name, a copied wikilink), and refused in the same words.
    const named = namedNote(ctx.cfg.vault, args.path);
    return ctx.withIndex((_db, reader) => {
      const note = findNamedNote(reader, named, ctx.cfg.extensions);
      if (!note) throw noNoteError(ctx.cfg.vault, named, ctx.cfg.extensions);
      realPathInVault(ctx.cfg.vault, note.path);
      // withIgnored walks the vault only when a link names no note, attachment nor skipped file.
      const outgoing = distinct(withIgnored(reader.outgoingLinks(note.id, ctx.cfg.extensions), ctx.cfg.vault, ctx.cfg.extensions).map((l) => ({
        path: l.targetPath,
        ...(l.attachmentPath !== null ? { attachment: l.attachmentPath } : {}),
        ...(l.skipped !== null ? { skipped: l.skipped } : {}),
        ...(l.ignored !== null ? { ignored: l.ignored } : {}),
        target: l.target,
        kind: l.kind,
        heading: l.heading,
        line: l.line,
      })));
      const backlinks = distinct(reader.backlinks(note.id).map((l) => ({ path: l.sourcePath, kind: l.kind, line: l.line })));
      // A map of content links to thousands of notes (the Obsidian Hub's plugin list: 2,920 links, 682,000
      // characters). Each list may take half the budget, and what one leaves the other.
      const half = RESULT_CHAR_BUDGET / 2;
      const outSize = JSON.stringify(outgoing).length;
      const backSize = JSON.stringify(backlinks).length;
      const keepOut = countWithin(outgoing, Math.max(half, RESULT_CHAR_BUDGET - backSize));
      const keepBack = countWithin(backlinks, Math.max(half, RESULT_CHAR_BUDGET - Math.min(outSize, half)));
      return {
        path: note.path,
        title: note.title,
        outgoing: outgoing.slice(0, keepOut),
        ...(keepOut < outgoing.length ? { outgoing_omitted: outgoing.length - keepOut } : {}),
        backlinks: backlinks.slice(0, keepBack),
        ...(keepBack < backlinks.length ? { backlinks_omitted: backlinks.length - keepBack } : {}),
      };
    });
  },
});

/**
 * Each entry once: `[[B]] [[B]] [[B]]` on one line were three equal entries, and a table that links a note in
 * every row as many — tokens that tell the model nothing (`tsm related` groups its rows the same way).
 */
function distinct<T>(entries: T[]): T[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = JSON.stringify(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
