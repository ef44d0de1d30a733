import { describe, expect, it } from 'vitest';
import { escapeXml, escapeXmlAttribute, jsonText } from '../../src/format/escape.js';
import { stripControls } from '../../src/text/controls.js';

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
  });

  it('escapes an existing entity again, so text round-trips', () => {
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
  });

  it('keeps tab, newline, carriage return and all legal Unicode', () => {
    const legal = 'tab\there\nnew\rret 日本語 😀 \u00e9 \ud7ff \ue000 \ufffd';
    expect(escapeXml(legal)).toBe(legal);
  });

  it('drops C0 controls, U+FFFE/U+FFFF and lone surrogates', () => {
    expect(escapeXml('a\u0000b\u0001c\u0008d\u000be\u000cf\u001bg\u001fh')).toBe('abcdefgh');
    expect(escapeXml('x\ufffey\uffffz')).toBe('xyz');
    expect(escapeXml('high\ud800 low\udc00 end\ud83d')).toBe('high low end');
    expect(escapeXml('\udc00\ud800')).toBe('');
  });

  it('writes DEL and C1 controls (a terminal reads U+009B as CSI) as character references', () => {
    expect(escapeXml('a\u007fb\u0080c\u009b2J\u009fd\u00a0e')).toBe('a&#x007f;b&#x0080;c&#x009b;2J&#x009f;d\u00a0e');
  });

  it('writes the bidirectional overrides and isolates as character references, and keeps the marks', () => {
    expect(escapeXml('if a\u202e } \u2066if (b)\u2069 \u202a\u202d\u2067\u2068 ok\u200f\u200e\u061c')).toBe(
      'if a&#x202e; } &#x2066;if (b)&#x2069; &#x202a;&#x202d;&#x2067;&#x2068; ok\u200f\u200e\u061c',
    );
  });

  it('in an attribute, writes tab, newline and carriage return as character references (a parser reads them raw as spaces)', () => {
    expect(escapeXmlAttribute('a\tb\nc\rd & "e"')).toBe('a&#x0009;b&#x000a;c&#x000d;d &amp; &quot;e&quot;');
  });

  it('keeps valid surrogate pairs', () => {
    expect(escapeXml('😀\ud83d\ude00')).toBe('😀😀');
  });
});

describe('jsonText', () => {
  it('is JSON.stringify pretty-printed, with DEL and C1 controls as \\u escapes that parse back exactly', () => {
    const value = { a: 'x\u007fy\u009b2J\u0085z\u00a0', n: [1, null], 'k\u0090': true };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u007f-\u009f]/);
    expect(text).toContain('x\\u007fy\\u009b2J\\u0085z\u00a0');
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText({ plain: 'text' })).toBe(JSON.stringify({ plain: 'text' }, null, 2));
  });

  it('writes the bidirectional overrides as \\u escapes too, so the value parses back exactly', () => {
    const value = { path: 'x\u202edm.txt.md', snippet: 'a\u2066b\u2069 c\u200f' };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('"x\\u202edm.txt.md"');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('stripControls', () => {
  it('drops terminal escape sequences and other controls but keeps tab and newline', () => {
    // Whole escape sequences go (a colour code leaves no `[31m` behind), as in session notes.
    expect(stripControls('\u001b[31mred\u001b[0m\ttab\nline\u0007\u009b')).toBe('red\ttab\nline');
  });

  it('drops string sequences (OSC, DCS) up to their terminator, and only ESC and its letter of an unterminated one', () => {
    // An OSC 8 hyperlink left `8;;http://…` behind when only ESC and `]` were taken as the sequence.
    expect(stripControls('a \u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007 b')).toBe('a link b');
    expect(stripControls('t\u001b]0;title\u001b\\x \u001bPq#data\u001b\\y')).toBe('tx y');
    expect(stripControls('keep \u001b]the rest of the note')).toBe('keep the rest of the note');
  });

  it('drops the bidirectional overrides and isolates (Trojan Source), and keeps the marks right-to-left text uses', () => {
    expect(stripControls('if isAdmin\u202e } \u2066if (isAdmin)\u2069 \u202a\u202b\u202c\u202d\u2067\u2068 x')).toBe('if isAdmin } if (isAdmin)  x');
    expect(stripControls('שלום.\u200f a\u200eb \u061c')).toBe('שלום.\u200f a\u200eb \u061c');
  });

  it('turns CRLF and CR into LF', () => {
    expect(stripControls('a\r\nb\rc')).toBe('a\nb\nc');
  });

  it('replaces a lone surrogate with U+FFFD', () => {
    expect(stripControls('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
  });
});
