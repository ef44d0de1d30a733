// The head of a long text a session note keeps (a prompt, an approved plan), redacted: one rule for both.
import { charCount, keptHead } from './markdown.js';
import { redactForNote } from './redact.js';

/**
 * Of a longer text only a head is redacted, so redaction's work is bounded; it reaches this far past what is
 * kept, and ends at a space where it can, so that a secret cut in two there is not what the note keeps.
 */
const REDACT_MARGIN = 2000;

/** The head of `text` to redact: max + REDACT_MARGIN at most, back to the last whitespace of its last 1,000. */
function redactionHead(text: string, max: number): string {
  const limit = max + REDACT_MARGIN;
  if (text.length <= limit) return text;
  let end = limit;
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--; // never half a surrogate pair
  const head = text.slice(0, end);
  const space = head.search(/\s\S*$/);
  return space >= limit - 1000 ? head.slice(0, space) : head;
}

/**
 * What a note keeps of `text` (control characters already stripped): private spans and secrets removed
 * (redactForNote), at most `max` characters, cut at a sentence or word end and followed by a line like
 * `(3,998 of 5,432,100 characters kept)` (keptHead). '' when nothing is left.
 */
export function keptRedacted(text: string, max: number): string {
  return keptHead(redactForNote(redactionHead(text, max)).trim(), max, charCount(text));
}
