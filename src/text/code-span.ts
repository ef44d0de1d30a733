// A CommonMark code span that holds its text as written (`_`, `*`, `[` and backticks of file names and
// commands included). Session notes' action lines and `-f md`'s Source line both write one.

/**
 * `text` as a code span: fenced by one more backtick than its longest run of them, and padded with a space
 * when it starts or ends with one, or is blank (CommonMark strips one space from each side of a span that
 * has text besides spaces). `text` must be on one line.
 */
export function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text.trim() === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
