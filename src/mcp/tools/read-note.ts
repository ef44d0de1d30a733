// read_note: a note's current file text with line numbers, or a window of it. Only indexed notes, only
// inside the vault (symlinks out of it refused).
import { z } from 'zod';
import { stripControls } from '../../text/controls.js';
import { readRegularFile } from '../../vault/file-kind.js';
import { ToolError } from '../errors.js';
import { clampInt, defineTool, RESULT_CHAR_BUDGET } from '../tool.js';
import { realPathInVault } from '../vault-path.js';
import { typedVaultPath } from '../../vault/paths.js';
import { findIndexedNote } from './note-lookup.js';

export const DEFAULT_LINES = 400;
export const MAX_LINES = 2000;

export const readNoteTool = defineTool({
  name: 'read_note',
  title: 'Read a note',
  description: [
    'Read an indexed note as it is on disk now, with line numbers ("12\\ttext"). Use it after search/get_sections',
    'when the whole note or the exact source lines around a section matter. path is the vault-relative path from',
    'search results (a path without .md or a unique note name also works). from_line (1-based) and lines pick a',
    `window: by default ${DEFAULT_LINES} lines from the start, at most ${MAX_LINES} (and about ${RESULT_CHAR_BUDGET / 1000}k characters).`,
    'Returns {path, title, type, status, date, from_line, to_line, total_lines, text} plus next_from_line when more',
    'follows: call again from there to continue. Paths outside the vault',
    'or not in the index are errors.',
  ].join(' '),
  inputSchema: {
    path: z.string().describe('vault-relative note path, e.g. "knowledge/lora.md"'),
    from_line: z.number().optional().describe('first line to return, 1-based (default 1)'),
    lines: z.number().optional().describe(`how many lines (default ${DEFAULT_LINES}, at most ${MAX_LINES})`),
  },
  run(args, ctx) {
    const vault = ctx.cfg.vault;
    const rel = typedVaultPath(vault, args.path);
    if (rel === '' || rel.endsWith('/')) throw new ToolError(`path names a folder, not a note: ${args.path}`);
    const note = ctx.withIndex((_db, reader) => findIndexedNote(reader, rel));
    if (!note) throw new ToolError(`note not indexed: ${rel} (use a path from search results; run \`tsm index\` if the note is new)`);
    const real = realPathInVault(vault, note.path);
    let content: string;
    try {
      content = stripControls(readRegularFile(real));
    } catch (err) {
      throw new ToolError(`cannot read ${note.path}: ${(err as Error).message}`);
    }
    const all = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
    const total = content === '' ? 0 : all.length;
    const from = clampInt(args.from_line, 1, Math.max(1, total + 1), 1);
    const count = clampInt(args.lines, 1, MAX_LINES, DEFAULT_LINES);
    const out: string[] = [];
    let chars = 0;
    let line = from;
    for (; line <= total && line < from + count; line++) {
      const numbered = `${line}\t${all[line - 1]}`;
      if (out.length > 0 && chars + numbered.length > RESULT_CHAR_BUDGET) break;
      out.push(numbered);
      chars += numbered.length + 1;
    }
    return {
      path: note.path,
      title: note.title,
      type: note.type,
      status: note.status,
      date: note.date || null,
      from_line: from,
      to_line: line - 1,
      total_lines: total,
      ...(line <= total ? { next_from_line: line } : {}),
      text: out.join('\n'),
    };
  },
});
