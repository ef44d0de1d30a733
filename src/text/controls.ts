// Text safe to print to a terminal, write into a note or hand to an LLM. One rule for the formats and for
// session notes: line endings (and Unicode line/paragraph separators) become `\n`, terminal escape
// sequences (colours in command output) and other control characters are removed, and a lone UTF-16
// surrogate (possible in JSON input) becomes U+FFFD.

import { collapseWhitespace } from './markdown-line.js';

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
/** C0 controls except tab and newline, DEL and C1 controls: what a terminal would interpret. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function stripControls(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(ANSI, '')
    .replace(CONTROL, '')
    .replace(LONE_SURROGATE, '\ufffd');
}

/**
 * A value shown on one line of terminal output (a path, a title, a link target, a typed name): cleaned by
 * stripControls, and every run of whitespace (a newline in a file name included) one space, so no value
 * can move the cursor, colour the screen or forge a line of its own. Search's text and md formats and
 * the text output of status, doctor and related all show values this way; their JSON stays exact.
 */
export function oneLine(text: string): string {
  return collapseWhitespace(stripControls(text));
}
