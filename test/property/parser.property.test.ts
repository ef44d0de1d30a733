// Property tests for markdown → note (README "The vault", docs/reliability.md): random markdown never throws (nor falls back to
// "parser failed"), nothing is lost, and every heading path is the one the heading structure implies —
// the same however the note is saved (LF or CRLF, with more text appended, parsed twice).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedNote } from '../../src/core/types.js';
import { parseNote } from '../../src/parse/parse-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';

const RUNS = { numRuns: Number(process.env.TSM_PROPERTY_RUNS ?? 300) };
const opts = DEFAULT_PARSE_OPTIONS;

function parse(content: string, path = 'notes/random-note.md'): ParsedNote {
  return parseNote({ path, content, mtimeMs: Date.parse('2026-03-01T12:00:00Z') }, opts);
}

// ---- arbitrary text: anything at all, biased towards markdown that opens and closes blocks ----

const MARKDOWN_BITS = [
  '# ', '## ', '###### ', '####### ', '#', '\n', '\r\n', '\r', '\n\n', '---', '===', '```', '~~~', '    ', '\t', '> ',
  '- ', '1. ', '* ', '| a | b |', '|---|---|', '[[', ']]', '[[a|b]]', '![[img.png]]', '[t](u.md)', '](', '<div>', '</div>',
  '<!--', '-->', '#tag', '**', '_', '`', '\\', '&amp;', '&#0;', '\u0000', '\ufeff', '\u2028', '😀', 'e\u0301', '\ud800',
  '日本語の見出し', 'ﾓｼﾞｭｰﾙ', 'title: x', 'tags: [a, b', ': :', 'aliases:\n  - x', '---\ntitle: t\n---\n',
];

const anyMarkdown = fc
  .array(fc.oneof(fc.constantFrom(...MARKDOWN_BITS), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 })), {
    maxLength: 60,
  })
  // Obsidian `%% comments %%` are blanked out of their lines by design (test/parse/obsidian-comments.test.ts):
  // no `%%` here, so "loses no line" holds for every line as written. (A CI run drew "%%" alone.)
  .map((parts) => parts.join('').replace(/%(?=%)/g, '% '));

describe('parsing any text', () => {
  it('never throws, never falls back to plain text, and loses no line', () => {
    fc.assert(
      fc.property(anyMarkdown, (content) => {
        const note = parse(content);
        expect(note.warnings.filter((w) => w.startsWith('parser failed'))).toEqual([]);
        expect(note.title.length).toBeGreaterThan(0);
        const lineCount = content.replace(/^\ufeff/, '').split(/\r\n|\r|\n/).length;
        let last = 0;
        for (const s of note.sections) {
          expect(s.headingPath.startsWith(note.title)).toBe(true);
          expect(s.startLine).toBeGreaterThanOrEqual(1);
          expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
          expect(s.endLine).toBeLessThanOrEqual(lineCount);
          expect(s.startLine).toBeGreaterThan(last === 0 ? 0 : last - 1); // in file order, never overlapping
          last = s.endLine;
        }
        // Every non-blank line after the frontmatter belongs to a section: nothing a note says is dropped.
        const lines = content.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
        const covered = new Set<number>();
        for (const s of note.sections) for (let l = s.startLine; l <= s.endLine; l++) covered.add(l);
        const firstBodyLine = frontmatterEnd(lines, note) + 1;
        lines.forEach((line, i) => {
          if (i + 1 >= firstBodyLine && line.trim() !== '') expect(covered.has(i + 1), `line ${i + 1}: ${JSON.stringify(line)}`).toBe(true);
        });
        for (const l of note.links) expect(l.line === null || (l.line >= 1 && l.line <= lineCount)).toBe(true);
      }),
      RUNS,
    );
  });

  it('is deterministic: the same text gives the same note', () => {
    fc.assert(
      fc.property(anyMarkdown, (content) => {
        expect(parse(content)).toEqual(parse(content));
      }),
      RUNS,
    );
  });
});

/** Last line (1-based) of a frontmatter block the parser accepted, else 0. */
function frontmatterEnd(lines: string[], note: ParsedNote): number {
  if (lines[0] !== '---' || note.warnings.some((w) => w.startsWith('malformed YAML'))) return 0;
  const close = lines.findIndex((l, i) => i > 0 && (l === '---' || l === '...'));
  return close === -1 ? 0 : close + 1;
}

// ---- structured notes: headings we know, so we know every heading path ----

const word = fc.oneof(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/),
  fc.constantFrom('概要', '選定', 'アンテナ', '電池寿命', '設計', 'LoRa', 'GPS', '測定結果', 'v2.1', '920MHz'),
);
const headingText = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

/** Body blocks that never start a heading of their own (headings inside code stay code). */
const bodyBlock = fc.oneof(
  fc.array(fc.oneof(word, fc.constantFrom('[[link]]', '[t](x.md)', '#tag', '**bold**', '`code`', '—', 'a > b', '1.5')), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ')),
  fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.map((x) => `- ${x}`).join('\n')),
  headingText.map((h) => `\`\`\`md\n# ${h}\n## not a heading either\n\`\`\``),
  fc.constant('| a | b |\n|---|---|\n| 1 | 2 |'),
  word.map((w) => `> ${w}`),
);

interface Heading {
  depth: number;
  text: string;
  setext: boolean;
  body: string[];
}

const heading: fc.Arbitrary<Heading> = fc.record({
  depth: fc.integer({ min: 1, max: 6 }),
  text: headingText,
  setext: fc.boolean(),
  body: fc.array(bodyBlock, { maxLength: 3 }),
});

const structured = fc.record({
  fmTitle: fc.option(headingText, { nil: null }),
  lead: fc.array(bodyBlock, { maxLength: 2 }),
  headings: fc.array(heading, { maxLength: 10 }),
});

type Structured = { fmTitle: string | null; lead: string[]; headings: Heading[] };

function render(doc: Structured, eol = '\n'): string {
  const out: string[] = [];
  if (doc.fmTitle !== null) out.push('---', `title: "${doc.fmTitle}"`, '---');
  for (const b of doc.lead) out.push(b, '');
  for (const h of doc.headings) {
    if (h.setext && h.depth <= 2) out.push('', h.text, h.depth === 1 ? '===' : '---', '');
    else out.push('', `${'#'.repeat(h.depth)} ${h.text}`, '');
    for (const b of h.body) out.push(b, '');
  }
  return out.join('\n').split('\n').join(eol);
}

/** The heading path: the title, then the chain of ancestor headings (a repeat of the element before is left out). */
function expectedPaths(doc: Structured, path: string): string[] {
  const firstH1 = doc.headings.find((h) => h.depth === 1)?.text ?? null;
  const title = doc.fmTitle ?? firstH1 ?? path.split('/').pop()!.replace(/\.md$/, '');
  const chain: Heading[] = [];
  return doc.headings.map((h) => {
    while (chain.length > 0 && chain[chain.length - 1].depth >= h.depth) chain.pop();
    chain.push(h);
    const parts = [title];
    for (const c of chain) if (c.text !== parts[parts.length - 1]) parts.push(c.text);
    return parts.join(' > ');
  });
}

function headedPaths(note: ParsedNote): string[] {
  // One entry per heading (a long section's chunks repeat its path).
  return note.sections.filter((s) => s.level > 0 && s.chunk === 0).map((s) => s.headingPath);
}

describe('heading paths', () => {
  it('are the title plus the chain of ancestor headings, for every heading', () => {
    fc.assert(
      fc.property(structured, (doc) => {
        expect(headedPaths(parse(render(doc)))).toEqual(expectedPaths(doc, 'notes/random-note.md'));
      }),
      RUNS,
    );
  });

  it('do not depend on line endings, on text appended at the end, or on body edits', () => {
    fc.assert(
      fc.property(structured, bodyBlock, fc.nat(), (doc, extra, at) => {
        const paths = headedPaths(parse(render(doc)));
        expect(headedPaths(parse(render(doc, '\r\n')))).toEqual(paths);
        expect(headedPaths(parse(`${render(doc)}\n\n${extra}\n`))).toEqual(paths);
        if (doc.headings.length > 0) {
          // More text in one section's body changes no heading path, its own or another's.
          const edited = structuredClone(doc);
          edited.headings[at % edited.headings.length].body.push(extra);
          expect(headedPaths(parse(render(edited)))).toEqual(paths);
        }
      }),
      RUNS,
    );
  });

  it('line numbers point at the heading lines', () => {
    fc.assert(
      fc.property(structured, (doc) => {
        const content = render(doc);
        const lines = content.split('\n');
        const headed = parse(content).sections.filter((s) => s.level > 0 && s.chunk === 0);
        headed.forEach((s, i) => {
          const h = doc.headings[i];
          expect(lines[s.startLine - 1]).toBe(h.setext && h.depth <= 2 ? h.text : `${'#'.repeat(h.depth)} ${h.text}`);
        });
      }),
      RUNS,
    );
  });
});
