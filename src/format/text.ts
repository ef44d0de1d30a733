// Human-readable output for a shell (`tsm search`, the default format). Colours are the caller's
// decision (TTY, NO_COLOR); note text is cleaned so a note cannot send escape sequences to a terminal.
import { STALE_STATUSES, type SearchHit, type SearchResponse } from '../core/types.js';
import { oneLine, stripControls } from '../text/controls.js';

type Paint = (code: string, s: string) => string;

const SGR = {
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  magenta: '35',
  cyan: '36',
} as const;

const INDENT = '   ';

function painter(color: boolean): Paint {
  return color ? (code, s) => `\u001b[${code}m${s}\u001b[0m` : (_code, s) => s;
}

function isStale(status: string): boolean {
  return (STALE_STATUSES as readonly string[]).includes(status.toLowerCase());
}

function formatHit(hit: SearchHit, paint: Paint): string {
  const head = [
    paint(SGR.bold, `${hit.rank}.`),
    paint(SGR.cyan, `[${oneLine(hit.type)}]`),
    paint(SGR.magenta, oneLine(hit.path)) + paint(SGR.green, `:${hit.line}`),
    paint(SGR.dim, `score ${hit.score.toFixed(3)}`),
  ];
  if (hit.status !== null) head.push(paint(isStale(hit.status) ? SGR.red : SGR.yellow, `(${oneLine(hit.status)})`));
  const lines = [head.join(' '), INDENT + paint(SGR.bold, oneLine(hit.section))];
  const snippet = stripControls(hit.snippet).trim();
  if (snippet !== '') {
    for (const line of snippet.split('\n')) lines.push(INDENT + INDENT + line.trimEnd());
  }
  if (hit.related.length > 0) {
    lines.push(INDENT + paint(SGR.dim, 'related: ') + hit.related.map(oneLine).join(', '));
  }
  return lines.join('\n');
}

/**
 * One block per hit, separated by blank lines; nothing when there are none: stdout carries only results, and
 * `tsm search` says "0 results" (and any did-you-mean) on stderr, so `tsm search … | wc -l` counts no line.
 */
export function formatText(resp: SearchResponse, opts: { color: boolean }): string {
  if (resp.hits.length === 0) return '';
  const paint = painter(opts.color);
  return resp.hits.map((hit) => formatHit(hit, paint)).join('\n\n');
}
