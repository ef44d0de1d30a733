// Line handling shared by the parser: every position the parser reports is a 1-based file line, and
// CommonMark counts '\r\n', '\r' and '\n' as line endings, so all three split lines here too.

const LINE_ENDING = /\r\n|\r|\n/;

/** The lines of a text without their endings (a trailing newline yields a final empty line). */
export function splitLines(text: string): string[] {
  return text.split(LINE_ENDING);
}

/** True for a line that CommonMark treats as blank: nothing but spaces and tabs. */
export function isBlankLine(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}
