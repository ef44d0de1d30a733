import fc from 'fast-check';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { VaultFile } from '../../src/core/types.js';
import { hashBytes, loadNote, type LoadResult } from '../../src/parse/load-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';
import { md, outline, parse } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tsm-parse-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(name: string, bytes: Uint8Array | string): VaultFile {
  const absPath = join(dir, name);
  writeFileSync(absPath, bytes);
  return { path: name, absPath, size: Buffer.byteLength(bytes as string), mtimeMs: Date.now() };
}

function noteOf(result: LoadResult) {
  if (result.kind !== 'note') throw new Error(`expected a note, got ${JSON.stringify(result)}`);
  return result.note;
}

describe('bad input never throws and loses nothing', () => {
  it('malformed YAML: no frontmatter, raw text kept in the lead section, a warning', () => {
    const text = md('---', 'title: [unclosed', 'tags: x', '---', '# Body', 'text');
    const note = parse(text, 'bad.md');
    expect(note.frontmatter).toEqual({});
    expect(note.warnings).toHaveLength(1);
    expect(note.warnings[0]).toMatch(/malformed YAML frontmatter/);
    expect(outline(note)).toEqual(['1-4 Body', '5-6 Body']);
    expect(note.sections[0].text).toBe(md('---', 'title: [unclosed', 'tags: x', '---'));
    // The closing fence is not read as a setext underline, and nothing in the block becomes a tag.
    expect(note.tags).toEqual([]);
  });

  it('frontmatter that is not a mapping is treated like malformed YAML', () => {
    const note = parse(md('---', '- just', '- a list', '---', 'body'), 'list.md');
    expect(note.frontmatter).toEqual({});
    expect(note.warnings[0]).toMatch(/not a mapping/);
    expect(note.sections[0].text).toBe(md('---', '- just', '- a list', '---', 'body'));
  });

  it('frontmatter only: one note with one empty section, so its title finds it', () => {
    const note = parse(md('---', 'title: Only FM', 'tags: [a]', '---', ''), 'fm.md');
    expect(note.title).toBe('Only FM');
    expect(note.tags).toEqual(['a']);
    expect(note.sections).toEqual([{ heading: '', level: 0, headingPath: 'Only FM', startLine: 1, endLine: 1, text: '', chunk: 0 }]);
    expect(note.warnings).toEqual([]);
  });

  it('empty and whitespace-only files: a note with one empty section under its title', () => {
    for (const text of ['', '\n\n', '   \t\n  ']) {
      const note = parse(text, 'empty.md');
      expect(note.sections).toEqual([{ heading: '', level: 0, headingPath: 'empty', startLine: 1, endLine: 1, text: '', chunk: 0 }]);
      expect(note.links).toEqual([]);
      expect(note.title).toBe('empty');
    }
  });

  it('a note with text or a heading gets no extra empty section', () => {
    expect(parse(md('---', 'title: T', '---', '', 'words'), 'a.md').sections.map((x) => x.text)).toEqual(['words']);
    expect(parse(md('---', 'title: T', '---', '## Empty heading'), 'b.md').sections.map((x) => x.heading)).toEqual(['Empty heading']);
  });

  it('invalid UTF-8: decoded with replacement characters and a warning', () => {
    const bytes = Buffer.concat([Buffer.from('# Head\nok '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' end\n')]);
    const result = loadNote(fileOf('latin.md', bytes), DEFAULT_PARSE_OPTIONS);
    const note = noteOf(result);
    expect(note.sections[0].text).toBe('ok \uFFFD\uFFFD\uFFFD end');
    expect(note.warnings).toEqual([expect.stringMatching(/invalid UTF-8/)]);
    expect(result.kind === 'note' && result.hash).toBe(hashBytes(bytes));
  });

  it('UTF-8 BOM: stripped before parsing', () => {
    const note = noteOf(loadNote(fileOf('bom.md', '\uFEFF---\ntitle: T\n---\n# H\nx\n'), DEFAULT_PARSE_OPTIONS));
    expect(note.title).toBe('T');
    expect(outline(note)).toEqual(['4-5 T > H']);
    expect(note.warnings).toEqual([]);
  });

  it('UTF-16 with a byte order mark (little and big endian): decoded, not skipped as binary', () => {
    const text = '\uFEFF---\ntitle: Wide\n---\n# H\nutf16 body 日本語\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const [name, bytes] of [['le.md', le], ['be.md', be]] as const) {
      const result = loadNote(fileOf(name, bytes), DEFAULT_PARSE_OPTIONS);
      const note = noteOf(result);
      expect(note.title).toBe('Wide');
      expect(note.sections.map((s) => s.text)).toEqual(['utf16 body 日本語']);
      expect(note.warnings).toEqual([]);
      expect(result.kind === 'note' && result.hash).toBe(hashBytes(bytes));
    }
    // a lone surrogate is replaced, with a warning naming the encoding
    const bad = Buffer.concat([Buffer.from('\uFEFFok ', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from(' end', 'utf16le')]);
    const note = noteOf(loadNote(fileOf('bad16.md', bad), DEFAULT_PARSE_OPTIONS));
    expect(note.sections[0].text).toBe('ok \uFFFD end');
    expect(note.warnings).toEqual([expect.stringMatching(/invalid UTF-16LE/)]);
    // NUL bytes without a UTF-16 BOM are still a binary file
    expect(loadNote(fileOf('nobom.md', Buffer.from('no bom', 'utf16le')), DEFAULT_PARSE_OPTIONS).kind).toBe('skipped');
  });

  it('CRLF file: right line numbers, no carriage returns', () => {
    const note = noteOf(loadNote(fileOf('crlf.md', '# A\r\none\r\n\r\n## B\r\ntwo #tag\r\n'), DEFAULT_PARSE_OPTIONS));
    expect(outline(note)).toEqual(['1-2 A', '4-5 A > B']);
    expect(note.sections.map((s) => s.text)).toEqual(['one', 'two #tag']);
    expect(note.tags).toEqual(['tag']);
  });

  it('binary file named .md: skipped with a reason', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const result = loadNote(fileOf('image.md', bytes), DEFAULT_PARSE_OPTIONS);
    expect(result).toEqual({ kind: 'skipped', reason: expect.stringMatching(/binary/), hash: hashBytes(bytes) });
  });

  it('file over maxFileBytes: skipped with a reason and no hash', () => {
    const result = loadNote(fileOf('big.md', 'x'.repeat(2048)), { ...DEFAULT_PARSE_OPTIONS, maxFileBytes: 1024 });
    expect(result).toEqual({ kind: 'skipped', reason: expect.stringMatching(/too large.*2048/), hash: null });
  });

  it('file that vanished before reading: gone', () => {
    const file: VaultFile = { path: 'gone.md', absPath: join(dir, 'gone.md'), size: 10, mtimeMs: 0 };
    expect(loadNote(file, DEFAULT_PARSE_OPTIONS)).toEqual({ kind: 'gone' });
    const underFile: VaultFile = { path: 'x', absPath: join(dir, 'bom.md', 'child.md'), size: 1, mtimeMs: 0 };
    expect(loadNote(underFile, DEFAULT_PARSE_OPTIONS)).toEqual({ kind: 'gone' });
  });

  it('a directory named .md: skipped with a reason', () => {
    const absPath = join(dir, 'folder.md');
    mkdirSync(absPath);
    expect(loadNote({ path: 'folder.md', absPath, size: 0, mtimeMs: 0 }, DEFAULT_PARSE_OPTIONS)).toEqual({
      kind: 'skipped',
      reason: 'is a directory',
      hash: null,
    });
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file: skipped with a reason (skipped as root: root reads anything)', () => {
    const file = fileOf('secret.md', '# secret');
    chmodSync(file.absPath, 0o000);
    expect(loadNote(file, DEFAULT_PARSE_OPTIONS)).toEqual({ kind: 'skipped', reason: 'permission denied', hash: null });
  });

  it('skips parsing bytes the index already holds (knownHash), and parses any others', () => {
    const text = '# Same\n\nunchanged body\n';
    const file = fileOf('known.md', text);
    const hash = hashBytes(Buffer.from(text));
    expect(loadNote({ ...file, knownHash: hash }, DEFAULT_PARSE_OPTIONS)).toEqual({ kind: 'unchanged', hash });
    expect(noteOf(loadNote({ ...file, knownHash: 'f'.repeat(40) }, DEFAULT_PARSE_OPTIONS)).title).toBe('Same');
  });

  it('10,000 headings in one file parse quickly into 10,000 sections', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `${'#'.repeat((i % 6) + 1)} Heading ${i}\nbody ${i}\n`).join('');
    const started = performance.now();
    const note = parse(text, 'many.md');
    const ms = performance.now() - started;
    expect(note.sections).toHaveLength(10_000);
    expect(note.sections[9_999]).toMatchObject({ heading: 'Heading 9999', startLine: 19_999, endLine: 20_000 });
    expect(note.sections[5].headingPath).toBe('Heading 0 > Heading 1 > Heading 2 > Heading 3 > Heading 4 > Heading 5');
    // Generous: linear work takes well under a second here, quadratic work minutes.
    expect(ms).toBeLessThan(15_000);
  });

  it('pathological inline text stays linear', () => {
    const texts = [
      '['.repeat(200_000),
      '[['.repeat(100_000),
      Array.from({ length: 2_000 }, (_, i) => '`'.repeat((i % 60) + 1)).join(' x '),
      '[a]('.repeat(50_000),
      '#'.repeat(100_000) + ' ' + '#a '.repeat(50_000),
      '[a](b "'.repeat(50_000),
      '[[a]] '.repeat(100_000),
      '[['.repeat(50_000) + ']]',
      '<!-- '.repeat(100_000),
      'x'.repeat(1_000_000),
    ];
    for (const text of texts) {
      const started = performance.now();
      const note = parse(text, 'p.md');
      expect(note.warnings).toEqual([]);
      expect(performance.now() - started).toBeLessThan(15_000);
    }
  });

  it('containers nested deeper than the parser follows are approximated, with a warning, text kept', () => {
    const texts = [
      '> '.repeat(5_000) + 'deep quote #q',
      '- '.repeat(3_000) + 'deep list #q',
      Array.from({ length: 2_000 }, () => '- > 1. '.repeat(60) + 'x #q').join('\n'),
      // Nesting by indentation alone: each line one container deeper (1,000 deep took 83 s).
      Array.from({ length: 1_000 }, (_, i) => '  '.repeat(i) + '- item #q').join('\n'),
      Array.from({ length: 1_000 }, (_, i) => '   '.repeat(i) + '1. item #q').join('\n'),
      Array.from({ length: 1_000 }, (_, i) => '>'.repeat(i + 1) + ' q #q').join('\n'),
    ];
    for (const text of texts) {
      const note = parse(text, 'p.md');
      expect(note.warnings).toEqual([expect.stringMatching(/nested too deep on \d+ lines?: their structure is approximated/)]);
      expect(note.tags).toEqual(['q']);
      expect(note.sections.map((s) => s.text).join('\n')).toContain('#q');
    }
  });

  it('segments too costly to parse exactly are read as plain text, with a warning; # headings still found', () => {
    const zigzag: string[] = [];
    for (let r = 0; r < 1_000; r++) for (let d = 0; d < 16; d++) zigzag.push('  '.repeat(d) + `- it ${r} #z`);
    const texts = [
      // One list 16 levels deep, up and down: 1 ms a line in micromark (28 s for 1 MB before the budget).
      zigzag.join('\n'),
      // Unfinished link definitions: 20,000 lines took 5.4 s, 200,000 lines 340 s.
      '[a]: <b #z\n'.repeat(50_000) + '# Last\ntext',
      '```\n'.repeat(50_000) + '# Last\ntext #z',
    ];
    for (const text of texts) {
      const note = parse(text, 'p.md');
      expect(note.warnings).toEqual([expect.stringMatching(/too costly to parse exactly: \d+ lines read as plain text/)]);
      expect(note.tags).toContain('z');
    }
    expect(parse(texts[1], 'p.md').sections.map((s) => s.heading)).toContain('Last');
  });

  it('arbitrary text: parseNote never throws and every section line is a line of the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.string({ maxLength: 200 }), (a, b) => {
        // Obsidian `%%` comments are blanked out of their lines by design (test/parse/obsidian-comments.test.ts):
        // no `%%` here, so every section line must be a line of the text as it is.
        const text = (a + '\n' + b.replace(/x/g, '\n')).replace(/%(?=%)/g, '% ');
        const note = parse(text, 'fuzz.md', { chunkChars: 50 });
        const lines = text.split(/\r\n|\r|\n/);
        for (const s of note.sections) {
          expect(s.startLine).toBeGreaterThanOrEqual(1);
          expect(s.endLine).toBeGreaterThanOrEqual(s.startLine);
          expect(s.endLine).toBeLessThanOrEqual(lines.length);
          if (s.text !== '' && s.text.indexOf('\n') !== -1) {
            expect(s.text.split('\n')).toEqual(lines.slice(s.endLine - s.text.split('\n').length, s.endLine));
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
