// Code spans, both ways: writing one that holds its text as written (`_`, `*`, `[` and backticks of file names
// and commands included: session notes' action lines and `-f md`'s Source line), and finding where one ends
// in a line (the parser's inline scan, and where an Obsidian comment's `%%` is outside code).

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

/** Code spans of a text: a run of n backticks up to the next run of exactly n backticks. */
export class CodeSpans {
  /** Run lengths known to have no closing run after the point where they were looked for. */
  private readonly unmatched = new Map<number, number>();
  constructor(private readonly text: string) {}

  /** Position after the code span (or lone backtick run) that starts at `p`. */
  skip(p: number): number {
    const text = this.text;
    let end = p;
    while (text.charCodeAt(end) === 0x60) end++;
    const length = end - p;
    const knownFailure = this.unmatched.get(length);
    if (knownFailure !== undefined && knownFailure <= p) return end;
    let from = end;
    for (;;) {
      const q = text.indexOf('`', from);
      if (q === -1) {
        this.unmatched.set(length, p);
        return end;
      }
      let r = q;
      while (text.charCodeAt(r) === 0x60) r++;
      if (r - q === length) return r;
      from = r;
    }
  }
}

/**
 * The first `%%` (an Obsidian comment's mark) at or after `from` that is not inside an inline code span, or
 * -1 (an unclosed backtick run is literal text). The parser's rule for where a comment opens
 * (parse/parse-note.ts), and so the session notes' for what to escape (sessions/markdown.ts).
 */
export function commentMarkOutsideCode(line: string, from: number, spans: CodeSpans): number {
  let i = from;
  for (;;) {
    const mark = line.indexOf('%%', i);
    const tick = line.indexOf('`', i);
    if (mark === -1 || tick === -1 || mark < tick) return mark;
    i = spans.skip(tick);
  }
}
