// Test helpers: parse inline markdown with the default options and look at the parts a test pins.
import type { ParsedNote } from '../../src/core/types.js';
import { DEFAULT_PARSE_OPTIONS, type ParseOptions } from '../../src/parse/options.js';
import { parseNote } from '../../src/parse/parse-note.js';

/** 2024-03-05 12:00 local time. */
export const MTIME = new Date(2024, 2, 5, 12, 0, 0).getTime();

export function parse(content: string, path = 'notes/note.md', opts: Partial<ParseOptions> = {}): ParsedNote {
  return parseNote({ path, content, mtimeMs: MTIME }, { ...DEFAULT_PARSE_OPTIONS, ...opts });
}

/** `startLine-endLine headingPath` of every section (with `#chunk` for chunks after the first). */
export function outline(note: ParsedNote): string[] {
  return note.sections.map((s) => `${s.startLine}-${s.endLine} ${s.headingPath}${s.chunk > 0 ? ` #${s.chunk}` : ''}`);
}

export function md(...lines: string[]): string {
  return lines.join('\n');
}
