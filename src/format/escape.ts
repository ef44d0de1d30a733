// Making note text safe for each output: XML must stay well-formed, a terminal must not receive
// escape sequences from a note, and no output may carry half a surrogate pair.
import { BIDI_OVERRIDES, stripEscapeSequences } from '../text/controls.js';

/**
 * Characters XML 1.0 forbids everywhere (even escaped): C0 controls other than tab/newline/return,
 * U+FFFE/U+FFFF and unpaired surrogates. Matched on UTF-16 code units (no `u` flag) so a lone
 * surrogate is seen as one.
 */
const XML_ILLEGAL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const XML_ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * DEL and the C1 controls: legal in XML 1.0 and in a JSON string, and a terminal's controls (U+009B is CSI,
 * `\u009b2J` clears a Linux console as `\u001b[2J` does); and the bidirectional overrides, which reorder
 * what a terminal shows and hide text from whoever reads a prompt. The JSON and XML outputs, printed to a
 * terminal as often as read by a program, write them as escapes that read back as the same character.
 */
const TERMINAL_CONTROL = new RegExp(`[\\u007F-\\u009F${BIDI_OVERRIDES}]`, 'g');

const hex = (ch: string): string => ch.charCodeAt(0).toString(16).padStart(4, '0');

/**
 * Escapes text for an XML attribute value or text node; drops terminal escape sequences whole (as the text
 * and md formats do) and characters XML 1.0 cannot carry, and writes DEL and C1 controls as character
 * references.
 */
export function escapeXml(s: string): string {
  return stripEscapeSequences(s)
    .replace(XML_ILLEGAL, '')
    .replace(/[&<>"']/g, (ch) => XML_ENTITY[ch])
    .replace(TERMINAL_CONTROL, (ch) => `&#x${hex(ch)};`);
}

/**
 * escapeXml for an attribute value, with tab, newline and carriage return as character references: written
 * raw, a parser reads each as a space (XML 1.0, attribute-value normalization), so a status written over two
 * lines in YAML read back as another value than `-f json`'s, and broke its element over two lines.
 */
export function escapeXmlAttribute(s: string): string {
  return escapeXml(s).replace(/[\t\n\r]/g, (ch) => `&#x${hex(ch)};`);
}

/**
 * A value as the JSON every `--json` and `-f json` prints: pretty-printed, and with DEL and C1 controls
 * written as `\u` escapes, as JSON.stringify writes C0 ones, so a note's text can drive no terminal and
 * parses back exactly. (They can only occur inside strings.)
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(TERMINAL_CONTROL, (ch) => `\\u${hex(ch)}`);
}


/** Every control character (newline and tab included), bidirectional overrides, Unicode line/paragraph separators, lone surrogates. */
const LINE_UNSAFE = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_OVERRIDES}]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`, 'g');

/**
 * Text that stays on one line of a line-oriented log (hook.log): every control character, line
 * separator and lone surrogate becomes a visible escape (`\n`, `\u001b`), so a value from a payload
 * (an event name, a session id, a path) can never start a new line or forge one.
 */
export function oneLineEscape(s: string): string {
  return s.replace(LINE_UNSAFE, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
