// Making note text safe for each output: XML must stay well-formed, a terminal must not receive
// escape sequences from a note, and no output may carry half a surrogate pair.

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

/** Escapes text for an XML attribute value or text node; drops characters XML 1.0 cannot carry. */
export function escapeXml(s: string): string {
  return s.replace(XML_ILLEGAL, '').replace(/[&<>"']/g, (ch) => XML_ENTITY[ch]);
}


/** Every control character (newline and tab included), Unicode line/paragraph separators, lone surrogates. */
const LINE_UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

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
