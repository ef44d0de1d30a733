// A generated note of a million one-line headings (`# a` × 1,250,000: 5 MB, under maxFileBytes) took 16 s
// and 1.97 GB to index, `#` × 2,500,000 30 s and 2.95 GB, where a 5 MB list takes 1 s and 290 MB: every
// heading was a section object, a row, an FTS row. Past MAX_HEADING_SECTIONS headings, the rest are the
// text of the section before (cut into chunks by size, as any long section is), and the note says so.
import { describe, expect, it } from 'vitest';
import { MAX_HEADING_SECTIONS } from '../../src/parse/sections.js';
import { parse } from './helpers.js';

describe('a note of very many headings', () => {
  it('keeps the first MAX_HEADING_SECTIONS as sections, the rest as text in chunks, and warns', () => {
    const n = MAX_HEADING_SECTIONS + 20_000;
    const text = Array.from({ length: n }, (_, i) => `## step ${i}\nran ${i}`).join('\n');
    const note = parse(text, 'log.md');
    const byHeading = note.sections.filter((s) => s.chunk === 0);
    expect(byHeading).toHaveLength(MAX_HEADING_SECTIONS);
    expect(byHeading.at(-1)?.heading).toBe(`step ${MAX_HEADING_SECTIONS - 1}`);
    // Nothing is lost: the last heading and its text are in the last chunk, each chunk within the size.
    const rest = note.sections.filter((s) => s.heading === `step ${MAX_HEADING_SECTIONS - 1}`);
    const restText = rest.map((s) => s.text).join('\n');
    expect(restText).toContain(`## step ${MAX_HEADING_SECTIONS}\nran ${MAX_HEADING_SECTIONS}\n`);
    expect(restText.endsWith(`## step ${n - 1}\nran ${n - 1}`)).toBe(true);
    expect(rest.at(-1)?.endLine).toBe(2 * n);
    expect(Math.max(...rest.map((s) => s.text.length))).toBeLessThanOrEqual(2400);
    expect(note.sections.length).toBeLessThan(MAX_HEADING_SECTIONS + text.length / 1000);
    expect(note.warnings).toEqual([
      `${n} headings: the last 20000 are read as the text of the section before them (at most ${MAX_HEADING_SECTIONS} sections by heading)`,
    ]);
  });

  it('reads a note at the bound as before', () => {
    const text = Array.from({ length: MAX_HEADING_SECTIONS }, (_, i) => `# h${i}`).join('\n');
    const note = parse(text, 'at.md');
    expect(note.sections).toHaveLength(MAX_HEADING_SECTIONS);
    expect(note.warnings).toEqual([]);
  });
});
