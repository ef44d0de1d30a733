import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/format/text.js';
import { HOSTILE, hit, memoryResponse, response } from './fixtures.js';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
const ANSI = /\u001b\[[0-9;]*m/g;

describe('formatText', () => {
  it('matches the golden output without colour', () => {
    expect(formatText(memoryResponse(), { color: false })).toBe(golden('memory.txt'));
  });

  it('matches the golden output with colour, which differs only by SGR codes', () => {
    const colored = formatText(memoryResponse(), { color: true });
    expect(colored).toBe(golden('memory.color.txt'));
    expect(colored).toMatch(ANSI);
    expect(colored.replace(ANSI, '')).toBe(golden('memory.txt'));
  });

  it('has no escape codes at all without colour', () => {
    expect(formatText(memoryResponse(), { color: false })).not.toContain('\u001b');
  });

  it('shows rank, type, path:line, heading path, score, status, snippet and related', () => {
    const out = formatText(
      response('q', [hit({ type: 'daily', path: 'd/x.md', line: 42, section: 'X > Y', score: 0.0123, status: 'draft', snippet: 'the snip', related: ['a.md', 'b.md'] })]),
      { color: false },
    );
    expect(out).toBe('1. [daily] d/x.md:42 score 0.012 (draft)\n   X > Y\n      the snip\n   related: a.md, b.md');
  });

  it('zero hits prints nothing (the count goes to stderr)', () => {
    expect(formatText(response('lora "module"', []), { color: true })).toBe('');
  });

  it('indents every line of a multi-line snippet and omits an empty one', () => {
    const out = formatText(response('q', [hit({ snippet: 'one\r\ntwo', section: 'S' }), hit({ snippet: '', section: 'T' })]), { color: false });
    expect(out).toContain('   S\n      one\n      two');
    expect(out.split('\n\n')[1].split('\n')).toHaveLength(2);
  });

  it('never passes escape sequences or control characters from a note to the terminal', () => {
    const evil = `${HOSTILE}\u001b]0;title\u0007\u009b2J`;
    const resp = response(evil, [hit({ path: evil, section: evil, snippet: evil, status: evil, related: [evil] })]);
    for (const color of [false, true]) {
      const out = formatText(resp, { color }).replace(ANSI, '');
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    expect(formatText(response(evil, []), { color: false })).not.toContain('\u001b');
  });

  it('keeps each header field on one line even when a path or heading has newlines', () => {
    const out = formatText(response('q', [hit({ path: 'a\nb.md', section: 'H\n> I' })]), { color: false });
    expect(out.split('\n')[0]).toContain('a b.md:');
    expect(out.split('\n')[1]).toBe('   H > I');
  });
});
