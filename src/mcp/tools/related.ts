// related: a note's place in the link graph — what it links to and what links to it.
import { z } from 'zod';
import { ToolError } from '../errors.js';
import { defineTool } from '../tool.js';
import { realPathInVault } from '../vault-path.js';
import { typedVaultPath } from '../../vault/paths.js';
import { findIndexedNote } from './note-lookup.js';

export const relatedTool = defineTool({
  name: 'related',
  title: 'Links of a note',
  description: [
    "A note's links: outgoing (wikilinks, embeds, markdown links and frontmatter related entries, each with the",
    'resolved vault path or null when the target is not in the vault) and backlinks (notes linking to it). Use it to',
    'widen from one relevant note to its neighbours, then read them with read_note. path is a vault-relative note',
    'path (or a unique note name). Returns {path, title, outgoing:[{path, target, kind, heading, line}],',
    'backlinks:[{path, kind, line}]}; a note that is not indexed is an error.',
  ].join(' '),
  inputSchema: {
    path: z.string().describe('vault-relative note path, e.g. "knowledge/lora.md"'),
  },
  run(args, ctx) {
    const rel = typedVaultPath(ctx.cfg.vault, args.path);
    if (rel === '' || rel.endsWith('/')) throw new ToolError(`path names a folder, not a note: ${args.path}`);
    return ctx.withIndex((_db, reader) => {
      const note = findIndexedNote(reader, rel);
      if (!note) throw new ToolError(`note not indexed: ${rel} (use a path from search results)`);
      realPathInVault(ctx.cfg.vault, note.path);
      return {
        path: note.path,
        title: note.title,
        outgoing: reader.outgoingLinks(note.id).map((l) => ({
          path: l.targetPath,
          target: l.target,
          kind: l.kind,
          heading: l.heading,
          line: l.line,
        })),
        backlinks: reader.backlinks(note.id).map((l) => ({ path: l.sourcePath, kind: l.kind, line: l.line })),
      };
    });
  },
});
