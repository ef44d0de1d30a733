// Text safe to print to a terminal, write into a note or hand to an LLM. One rule for the formats and for
// session notes: line endings (and Unicode line/paragraph separators) become `\n`, terminal escape
// sequences (colours in command output), other control characters and bidirectional overrides are removed,
// and a lone UTF-16 surrogate (possible in JSON input) becomes U+FFFD.

import { collapseWhitespace } from './markdown-line.js';

/**
 * A terminal escape sequence: a CSI one (`ESC [ 31 m`, colours and cursor moves), a string one (OSC, DCS, APC,
 * PM, SOS: `ESC ] 8 ; ; url BEL`, a hyperlink or a window title) up to its BEL or ST when it has one within
 * 4 KiB (else only its ESC and letter go, never the rest of the note), or ESC and one letter. OSC was taken as
 * ESC and `]`, which left `8;;http://…` in the text.
 */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[\]PX^_][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/**
 * Unicode's bidirectional embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069), as a
 * character class's inside: they reorder what is shown up to their end, so that a line reads otherwise than
 * it is ("Trojan Source", CVE-2021-42574: `if isAdmin\u202e } \u2066if (isAdmin)\u2069` shows a different
 * test). The one list for every output: dropped where controls are (stripControls), escaped where text
 * stays exact (format/escape.ts). The marks U+200E, U+200F and U+061C stay, as rustc's lint on these leaves
 * them: right-to-left text uses them as punctuation, and they open no run that reorders what follows.
 */
export const BIDI_OVERRIDES = '\\u202a-\\u202e\\u2066-\\u2069';
/** C0 controls except tab and newline, DEL and C1 controls: what a terminal would interpret; and bidirectional overrides. */
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI_OVERRIDES}]`, 'g');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` without terminal escape sequences, whole (`\u001b[2J`, `\u001b]8;;url` up to its terminator's
 * start): for the XML outputs, which keep every other character, so that dropping only the ESC XML 1.0
 * forbids no longer left `[2J` or `]8;;http://…` in what the prompt hook hands the model.
 */
export function stripEscapeSequences(text: string): string {
  return text.replace(ANSI, '');
}

export function stripControls(text: string): string {
  return wellFormed(
    text
      .replace(/\r\n?|[\u2028\u2029]/g, '\n')
      .replace(ANSI, '')
      .replace(CONTROL, ''),
  );
}

/**
 * `text` with each lone UTF-16 surrogate replaced by U+FFFD, as decoding a file's bytes replaces what is not
 * UTF-8: text of the index and of every output is well-formed Unicode. (String.prototype.toWellFormed is
 * Node 20's too, but not in the ES2023 types this project compiles against.)
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
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
