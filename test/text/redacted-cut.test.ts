// A cut (truncateText, a snippet's window) never splits the `[REDACTED]` a secret left: an MCP preview cut at
// 120 characters showed `…token […` (the marker's `[`), a window opening inside it `…ACTED] …`. The marker is
// kept whole or dropped whole, wherever the cut falls.
import { describe, expect, it } from 'vitest';
import { bestSnippet } from '../../src/search/snippet.js';
import { ELLIPSIS, truncateText } from '../../src/text/chars.js';
import { REDACTED } from '../../src/text/redact.js';

/** What a cut shows of markers: none split (no bracket left once the whole ones are taken out). */
function expectWholeMarkers(out: string): void {
  expect(out.replaceAll(REDACTED, '').replaceAll(ELLIPSIS, ''), out).not.toMatch(/[[\]]|REDAC|ACTED/);
}

const before = 'The lora gateway config for the barn uses spreading factor nine and the token';
const after = 'and more words after it about the barn and the gateway antenna mast';

describe('a cut keeps [REDACTED] whole or drops it whole', () => {
  it('truncateText, at every length', () => {
    const text = `${before} ${REDACTED} ${after}`;
    for (let max = 1; max <= text.length; max++) expectWholeMarkers(truncateText(text, max));
    // Glued to words on both sides, as a redacted `key=value` or a URL's password is.
    const glued = `${before} api_key=${REDACTED}&user=${after}`;
    for (let max = 1; max <= glued.length; max++) expectWholeMarkers(truncateText(glued, max));
  });

  it('the MCP preview’s case: the cut at 120 characters falls inside the marker', () => {
    const text = `${before} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx ${REDACTED} ${after}`;
    expect(text.indexOf(REDACTED)).toBeLessThan(119);
    expect(text.indexOf(REDACTED) + REDACTED.length).toBeGreaterThan(119);
    expect(truncateText(text, 120)).toBe(`${before} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx${ELLIPSIS}`);
  });

  it('a snippet’s window, opening and closing anywhere around it', () => {
    const words = after.split(' ');
    for (let pad = 0; pad < 40; pad++) {
      const text = `${'filler words here '.repeat(4)}${'x'.repeat(pad)} ${before} ${REDACTED} ${after} ${REDACTED} tail words`;
      for (const term of ['barn', 'token', 'antenna', 'mast', 'tail', words[3]]) {
        for (const max of [20, 30, 45, 60, 80]) expectWholeMarkers(bestSnippet(text, [term], max));
      }
    }
  });
});
