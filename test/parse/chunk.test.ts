import { describe, expect, it } from 'vitest';
import { md, outline, parse } from './helpers.js';

const words = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('chunking long sections', () => {
  it('splits at paragraph boundaries into chunks within the limit, each with its own lines', () => {
    const p = (tag: string) => words(20, tag); // 69 characters
    const body = [p('a'), '', p('b'), p('c'), '', p('d'), '', p('e'), '', p('f')];
    const note = parse(md('# Title', '## Long', ...body), 'l.md', { chunkChars: 250 });
    // a + (b,c) = 210 characters; adding d would make 281. d + e + f = 211.
    expect(outline(note)).toEqual(['1-1 Title', '2-6 Title > Long', '8-12 Title > Long #1']);
    const long = note.sections.slice(1);
    expect(long.map((s) => [s.chunk, s.heading, s.level])).toEqual([
      [0, 'Long', 2],
      [1, 'Long', 2],
    ]);
    expect(long[0].text).toBe(md(p('a'), '', p('b'), p('c')));
    expect(long[1].text).toBe(md(p('d'), '', p('e'), '', p('f')));
    for (const s of long) expect(s.text.length).toBeLessThanOrEqual(250);
  });

  it('does not split inside a fenced code block with blank lines', () => {
    const code = ['```', words(30, 'c'), '', words(30, 'd'), '', words(30, 'e'), '```'];
    const note = parse(md('# Code', words(30, 'a'), '', ...code, '', words(30, 'z')), 'c.md', { chunkChars: 300 });
    const texts = note.sections.map((s) => s.text);
    expect(texts.some((t) => t.startsWith('```') && t.endsWith('```') && t.includes(words(30, 'e')))).toBe(true);
    expect(texts.join('\n\n')).toBe(md(words(30, 'a'), '', ...code, '', words(30, 'z')));
  });

  it('leaves a paragraph up to four times the limit whole', () => {
    const big = words(70); // ~3.5× of 100
    const note = parse(md('# P', big), 'p.md', { chunkChars: 100 });
    expect(note.sections).toHaveLength(1);
    expect(note.sections[0].text).toBe(big);
  });

  it('splits a paragraph over four times the limit at line boundaries', () => {
    const lines = Array.from({ length: 30 }, (_, i) => words(5, `l${i}_`));
    const note = parse(md('# Big', ...lines), 'b.md', { chunkChars: 100 });
    expect(note.sections.length).toBeGreaterThan(3);
    for (const s of note.sections) expect(s.text.length).toBeLessThanOrEqual(100);
    expect(note.sections.map((s) => s.text).join('\n')).toBe(lines.join('\n'));
    expect(note.sections[0].startLine).toBe(1);
    for (let i = 1; i < note.sections.length; i++) {
      expect(note.sections[i].startLine).toBe(note.sections[i - 1].endLine + 1);
    }
  });

  it('cuts a single huge line by characters, keeping its line number and surrogate pairs', () => {
    const line = '🙂'.repeat(300); // 600 UTF-16 units
    const note = parse(md('# Emoji', line), 'e.md', { chunkChars: 100 });
    expect(note.sections.length).toBeGreaterThanOrEqual(6);
    expect(note.sections.map((s) => s.text).join('')).toBe(line);
    for (const s of note.sections) {
      expect(s.startLine === 1 || s.startLine === 2).toBe(true);
      expect(s.endLine).toBe(2);
      expect(s.text.length).toBeLessThanOrEqual(100);
      expect(/^[\uDC00-\uDFFF]/.test(s.text)).toBe(false);
    }
  });

  it('chunks the lead section too and keeps the title as its path', () => {
    const note = parse(md(words(30, 'a'), '', words(30, 'b')), 'lead.md', { chunkChars: 200 });
    expect(outline(note)).toEqual(['1-1 lead', '3-3 lead #1']);
  });
});
