// Keeps private text and credentials out of session notes (and out of the ingest state files): the
// transcript's hidden spans are dropped here, and secrets are redacted by the one redactor every
// model-facing text passes through (text/redact.ts).
import { redactSecrets } from '../text/redact.js';

export { isSecretKey, REDACTED, redactSecrets } from '../text/redact.js';

/** Tags whose content is never written: the user's explicit opt-out and Claude Code's injected reminders. */
const HIDDEN_TAGS = ['private', 'system-reminder'];

const tagToken = (tag: string) => new RegExp(`<(/?)${tag}(?:\\s[^>]*)?>`, 'gi');

/**
 * The hidden tags still open at the end of `text`, as opening tags to put before the text that follows
 * (the next content block of the same message): a span opened in one block and closed in a later one
 * hides everything in between, whatever the blocks.
 */
export function openHiddenTags(text: string): string {
  let carry = '';
  for (const tag of HIDDEN_TAGS) {
    let depth = 0;
    const token = tagToken(tag);
    for (let m = token.exec(text); m; m = token.exec(text)) depth = m[1] === '/' ? Math.max(0, depth - 1) : depth + 1;
    carry += `<${tag}>`.repeat(depth);
  }
  return carry;
}

/**
 * Removes `<private>…</private>` and `<system-reminder>…</system-reminder>` spans, nested ones included.
 * An opening tag that is never closed hides everything after it: when in doubt, write less.
 */
export function stripPrivate(text: string): string {
  let out = text;
  for (const tag of HIDDEN_TAGS) out = stripTag(out, tag);
  return out;
}

function stripTag(text: string, tag: string): string {
  // Opening tags may carry attributes; matching is case-insensitive like HTML.
  const token = tagToken(tag);
  let out = '';
  let depth = 0;
  let keptFrom = 0;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const closing = m[1] === '/';
    if (!closing) {
      if (depth === 0) out += text.slice(keptFrom, m.index);
      depth++;
    } else if (depth > 0) {
      depth--;
      if (depth === 0) keptFrom = m.index + m[0].length;
    } else {
      // A stray closing tag: drop the tag, keep the text around it.
      out += text.slice(keptFrom, m.index);
      keptFrom = m.index + m[0].length;
    }
  }
  return depth > 0 ? out : out + text.slice(keptFrom);
}

/** Everything that goes from a transcript into a note passes through here. */
export function redactForNote(text: string): string {
  return redactSecrets(stripPrivate(text));
}
