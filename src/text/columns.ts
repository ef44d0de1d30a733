// Indentation in columns, as CommonMark counts it: a tab goes to the next multiple of 4. One rule for the
// parser's indentation cap (parse/skeleton.ts), the fenced-code reader (markdown-line.ts) and the md format's
// list items (markdown-blocks.ts, format/md.ts).

/** The column after a character at column `col`: a tab to the next multiple of 4, anything else one on. */
function nextColumn(col: number, code: number): number {
  return code === 0x09 ? col + 4 - (col % 4) : col + 1;
}

/** The column after a run of spaces and tabs that starts at column `from`. */
export function columns(space: string, from = 0): number {
  let col = from;
  for (let i = 0; i < space.length; i++) col = nextColumn(col, space.charCodeAt(i));
  return col;
}

/** The column after a line's leading spaces and tabs. */
export function indentColumns(line: string): number {
  return columns(/^[ \t]*/.exec(line)![0]);
}

/** The line without its first `cols` columns of indentation (as far as it has them). */
export function dedent(line: string, cols: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < cols && (line[i] === ' ' || line[i] === '\t')) col = nextColumn(col, line.charCodeAt(i++));
  return line.slice(i);
}
