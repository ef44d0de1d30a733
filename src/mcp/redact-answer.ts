// Every MCP tool's answer goes to the model without the user asking, so its note text has its secrets
// redacted (text/redact.ts redactNoteSecrets: what looks made by a machine; docs/mcp.md). Tools redact note text
// where they take it from the index, before any cut (search's SearchRequest.redactSecrets, preview,
// fullSection); this walk over the answer as it is sent catches the rest (read_note's lines, a field a
// later tool adds). Redacting text twice leaves it as once did (the property test of redact-classes).
import { redactNoteSecrets } from '../text/redact.js';

/** `value` with every string in it (object keys aside) redacted; numbers, booleans and null as they are. */
export function redactAnswer(value: unknown): unknown {
  if (typeof value === 'string') return redactNoteSecrets(value);
  if (Array.isArray(value)) return value.map(redactAnswer);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAnswer(v)]));
  }
  return value;
}
