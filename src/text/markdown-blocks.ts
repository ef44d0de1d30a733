// CommonMark's rules for the root-level blocks that run on until a later line closes them, read line by line
// without a parser: text that is put inside a larger document (the md format's details) must close what it
// leaves open, and must not "close" what CommonMark never opened.

/** A fenced code block's opening: its character and how many of it. */
export interface Fence {
  char: '`' | '~';
  length: number;
}

/** Up to 3 spaces, a run of 3 or more backticks or tildes, then the info string (group 2). */
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The fence a root-level line opens, or null. A backtick fence's info string holds no backtick: a line
 * such as ```` ```npm install``` ```` (inline code, as chat apps write it) opens nothing.
 */
export function fenceOpening(line: string): Fence | null {
  const m = FENCE_LINE.exec(line);
  if (m === null) return null;
  const run = m[1];
  if (run[0] === '`' && m[2].includes('`')) return null;
  return { char: run[0] as Fence['char'], length: run.length };
}

/** True when the line closes `fence`: the same character, at least as many, nothing after but spaces. */
export function closesFence(line: string, fence: Fence): boolean {
  const m = FENCE_LINE.exec(line);
  return m !== null && m[1][0] === fence.char && m[1].length >= fence.length && m[2].trim() === '';
}

/** The line that closes `fence` (its own run again). */
export function fenceCloser(fence: Fence): string {
  return fence.char.repeat(fence.length);
}
