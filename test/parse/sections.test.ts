import { describe, expect, it } from 'vitest';
import { md, outline, parse } from './helpers.js';

describe('sections and heading paths', () => {
  it('nests headings and skips the H1 that repeats the title', () => {
    const note = parse(
      md(
        '---',
        'tags: [iot]',
        '---',
        '# LoRa通信モジュール選定ガイド',
        '',
        '## 概要',
        'LoRa は長距離通信。',
        '',
        '### 周波数',
        '920MHz 帯。',
        '## 比較',
        'table here',
      ),
      'guides/lora.md',
    );
    expect(note.title).toBe('LoRa通信モジュール選定ガイド');
    expect(outline(note)).toEqual([
      '4-4 LoRa通信モジュール選定ガイド',
      '6-7 LoRa通信モジュール選定ガイド > 概要',
      '9-10 LoRa通信モジュール選定ガイド > 概要 > 周波数',
      '11-12 LoRa通信モジュール選定ガイド > 比較',
    ]);
    expect(note.sections.map((s) => [s.heading, s.level])).toEqual([
      ['LoRa通信モジュール選定ガイド', 1],
      ['概要', 2],
      ['周波数', 3],
      ['比較', 2],
    ]);
    expect(note.sections[1].text).toBe('LoRa は長距離通信。');
  });

  it('gives a skipped level the nearest shallower heading as parent', () => {
    const note = parse(md('# Top', '#### Deep', 'x', '## Mid', '##### Deeper', 'y'), 'a.md');
    expect(outline(note)).toEqual(['1-1 Top', '2-3 Top > Deep', '4-4 Top > Mid', '5-6 Top > Mid > Deeper']);
  });

  it('keeps the lead section before the first heading, trimmed of blank lines', () => {
    const note = parse(md('', 'Intro line one', 'line two', '', '', '# Heading', 'body'), 'dir/My Note.md');
    expect(note.title).toBe('Heading');
    expect(note.sections[0]).toEqual({
      heading: '',
      level: 0,
      headingPath: 'Heading',
      startLine: 2,
      endLine: 3,
      text: 'Intro line one\nline two',
      chunk: 0,
    });
  });

  it('omits an empty lead section', () => {
    const note = parse(md('', '   ', '## Only', 'text'), 'x.md');
    expect(outline(note)).toEqual(['3-4 x > Only']);
  });

  it('counts setext headings and their underline lines', () => {
    const note = parse(md('Title Here', '==========', '', 'Sub', '---', 'text', '', 'more'), 't.md');
    expect(outline(note)).toEqual(['1-2 Title Here', '4-8 Title Here > Sub']);
    expect(note.sections[1].text).toBe('text\n\nmore');
  });

  it('never takes headings from fenced code (``` or ~~~) or indented code', () => {
    const note = parse(
      md('# Real', '```bash', '# comment, not heading', '```', '~~~', '## nor this', '~~~', '', '    # indented code', '## Next'),
      'c.md',
    );
    expect(outline(note)).toEqual(['1-9 Real', '10-10 Real > Next']);
    expect(note.sections[0].text).toContain('# comment, not heading');
  });

  it('keeps a heading without body as a section of its own line', () => {
    const note = parse(md('# A', '## B', '## C', 'c'), 'n.md');
    expect(note.sections.map((s) => [s.headingPath, s.startLine, s.endLine, s.text])).toEqual([
      ['A', 1, 1, ''],
      ['A > B', 2, 2, ''],
      ['A > C', 3, 4, 'c'],
    ]);
  });

  it('uses the plain text of headings: no markers, emphasis or link syntax, ids removed', () => {
    const note = parse(
      md(
        '# Guide',
        '## **Bold** and _em_ ##',
        '## [Link text](https://example.com) and `code`',
        '## Setup {#setup-id}',
        '## C# &amp; ~~old~~ [[Wiki|shown]] [[Other#Part]]',
      ),
      'g.md',
    );
    expect(note.sections.map((s) => s.heading)).toEqual([
      'Guide',
      'Bold and em',
      'Link text and code',
      'Setup',
      'C# & old shown Other',
    ]);
  });

  // A heading's inline HTML reads as the body's does: a known element's tags go, a bare `<hostname>` is a
  // placeholder and stays. Every html node was dropped, so the word was missing from the heading and title.
  it('keeps a placeholder such as <hostname> in a heading and the title; drops known tags and comments', () => {
    const note = parse(md('# Configure <host>', '## Replace <hostname> before running', 'x', '## A <b>bold</b> word<br>here <!-- hidden --> end', 'y'), 'h.md');
    expect(note.title).toBe('Configure <host>');
    expect(note.sections.map((s) => s.heading)).toEqual(['Configure <host>', 'Replace <hostname> before running', 'A bold word here end']);
  });

  it('does not repeat a heading equal to its parent in the path', () => {
    const note = parse(md('# Same', '## Same', '### Child'), 'p.md');
    expect(outline(note)).toEqual(['1-1 Same', '2-2 Same', '3-3 Same > Child']);
  });

  it('puts headings inside block quotes and lists into the text of their section', () => {
    const note = parse(md('# Top', '> # Quoted', '- ## Listed', 'after'), 'q.md');
    expect(outline(note)).toEqual(['1-4 Top']);
  });

  it('takes the title from frontmatter, then the first H1, then the file name', () => {
    expect(parse(md('---', 'title: From FM', '---', '# From H1'), 'a/file-name.md').title).toBe('From FM');
    expect(parse(md('## h2 first', '# From H1'), 'a/file-name.md').title).toBe('From H1');
    expect(parse(md('## only h2'), 'a/file-name.md').title).toBe('file-name');
    expect(parse('', 'a/日本語のノート.md').title).toBe('日本語のノート');
    expect(parse(md('---', 'title: 42', '---'), 'n.md').title).toBe('42');
  });

  it('counts frontmatter lines in line numbers', () => {
    const note = parse(md('---', 'a: 1', 'b: 2', '---', 'lead', '# H', 'x'), 'f.md');
    expect(outline(note)).toEqual(['5-5 H', '6-7 H']);
  });

  it('handles CRLF line endings: right line numbers, no carriage returns', () => {
    const note = parse(['---', 'title: T', '---', '# Head', 'one', '', 'Sub', '---', 'two [[Link]]'].join('\r\n'), 'crlf.md');
    expect(outline(note)).toEqual(['4-5 T > Head', '7-9 T > Head > Sub']);
    for (const s of note.sections) {
      expect(s.text).not.toContain('\r');
      expect(s.heading).not.toContain('\r');
    }
    expect(note.sections[0].text).toBe('one');
    expect(note.links[0]).toMatchObject({ target: 'Link', line: 9, section: 1 });
  });

  it('handles lone CR line endings the way CommonMark does', () => {
    const note = parse(['# A', 'x', '## B', 'y'].join('\r'), 'cr.md');
    expect(outline(note)).toEqual(['1-2 A', '3-4 A > B']);
  });

  it('reads a heading of only control characters as an empty one, as `## ` is', () => {
    const note = parse(md('# Doc', '## \u001b[31m\u0007', 'a', '## \u0001\u0002', 'b', '## ', 'c', '## **\u0001**', 'd'), 'c.md');
    expect(outline(note)).toEqual(['1-1 Doc', '2-3 Doc', '4-5 Doc', '6-7 Doc', '8-9 Doc']);
    expect(note.sections.map((s) => s.heading)).toEqual(['Doc', '', '', '', '']);
  });

  it('strips a UTF-8 BOM before the frontmatter', () => {
    const note = parse('\uFEFF---\ntitle: BOM\n---\n# H\n', 'bom.md');
    expect(note.title).toBe('BOM');
    expect(note.frontmatter).toEqual({ title: 'BOM' });
    expect(note.warnings).toEqual([]);
  });
});
