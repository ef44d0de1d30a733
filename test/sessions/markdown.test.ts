import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { firstLine, headingText, inlineCode, oneLine, safeBlock, trimAtBoundary } from '../../src/sessions/markdown.js';
import { stripControls } from '../../src/text/controls.js';
import { headingsOf } from './helpers.js';

/** Embeds a block between two of our headings and returns what a parser sees as headings. */
function headingsAround(block: string) {
  return headingsOf(`## Before\n\n${safeBlock(block)}\n\n## After\n`);
}

describe('safeBlock', () => {
  it('escapes ATX headings, also inside quotes and list items', () => {
    const out = safeBlock('# one\n  ## two\n> ### three\n- #### four\n1. ##### five\n    ###### six');
    expect(out).toBe('\\# one\n  \\## two\n> \\### three\n- \\#### four\n1. \\##### five\n    \\###### six');
    expect(headingsAround('# one\n  ## two\n> ### three\n- #### four\n1. ##### five')).toEqual([
      { depth: 2, text: 'Before' },
      { depth: 2, text: 'After' },
    ]);
  });

  it('escapes setext underlines so a paragraph never becomes a heading', () => {
    expect(safeBlock('Title\n=====\nSub\n---')).toBe('Title\n\\=====\nSub\n\\---');
    expect(headingsAround('Title\n=====\n\nSub\n---\n- item\n  ---')).toHaveLength(2);
  });

  it('leaves headings inside code fences untouched and closes an open fence', () => {
    expect(safeBlock('```sh\n# comment\n```\n# real')).toBe('```sh\n# comment\n```\n\\# real');
    expect(safeBlock('text\n~~~\n# comment')).toBe('text\n~~~\n# comment\n~~~');
    expect(safeBlock('````md\n```\n# inner\n````')).toBe('````md\n```\n# inner\n````');
    expect(headingsAround('```js\nconst a = 1;\n')).toHaveLength(2);
  });

  it('moves fences out of list items and block quotes, keeping the code as it was', () => {
    expect(safeBlock('1. Install:\n   ```bash\n   # deps\n   npm ci\n   ```\n2. Run')).toBe(
      '1. Install:\n```bash\n# deps\nnpm ci\n```\n2. Run',
    );
    expect(safeBlock('> ```\n> # code')).toBe('```\n# code\n```');
    expect(safeBlock('- ```\n  # code')).toBe('```\n# code\n```');
    expect(headingsAround('> ```\n> # code')).toHaveLength(2);
    expect(headingsAround('# h\n2) ```\n   ```\n# x')).toHaveLength(2);
  });

  it('does not take an inline code span with backticks for a fence', () => {
    expect(safeBlock('``` not a fence ```\n# heading')).toBe('``` not a fence ```\n\\# heading');
  });

  it('defuses HTML blocks: some would swallow the rest of the note, others hide fences', () => {
    expect(safeBlock('<!-- never closed\n<pre>\n<?php\n<script src=x>\n</div>\ntext <b>inline</b>')).toBe(
      '\\<!-- never closed\n\\<pre>\n\\<?php\n\\<script src=x>\n\\</div>\ntext <b>inline</b>',
    );
    expect(headingsAround('<div>\n```\n')).toHaveLength(2);
    expect(headingsAround('<!-- open\n\n<pre>\n\n<style>')).toHaveLength(2);
  });

  it('normalises line endings and removes terminal colours and control characters', () => {
    expect(safeBlock('a\r\nb\rc \u001b[2mdim\u001b[22m \u0007bell')).toBe('a\nb\nc dim bell');
  });

  it('keeps ordinary markdown as it is', () => {
    const text = 'Some **bold** text, a [link](x.md), #tag and a list:\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    expect(safeBlock(text)).toBe(text);
  });

  // Fragments that, in some combination, could open a heading, an endless block or a fence.
  const fragment = fc.constantFrom(
    '# h', '## h', '#', '###### h', 'text', 'more text', '', ' ', '  ', '    ', '\t', '> ', '>', '- ', '* ', '+ ',
    '1. ', '2) ', '```', '````', '~~~', '```ts', '---', '===', '***', '-', '=', '<!--', '-->', '<pre>', '</pre>',
    '<script>', '<?', '<![CDATA[', '<div>', '`', '\\', '[x]: y', '| a |', '|---|',
  );
  const block = fc.array(fc.array(fragment, { maxLength: 4 }).map((parts) => parts.join('')), { maxLength: 12 }).map((ls) => ls.join('\n'));

  it('never lets embedded text add, remove or reorder the surrounding headings (property)', () => {
    fc.assert(
      fc.property(block, block, (first, second) => {
        const doc = `# Title\n\n## 1. One\n\n${safeBlock(first)}\n\n### Answer\n\n${safeBlock(second)}\n\n## 2. Two\n`;
        expect(headingsOf(doc)).toEqual([
          { depth: 1, text: 'Title' },
          { depth: 2, text: '1. One' },
          { depth: 3, text: 'Answer' },
          { depth: 2, text: '2. Two' },
        ]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('trimAtBoundary', () => {
  it('returns short text unchanged', () => {
    expect(trimAtBoundary('short text.', 100)).toBe('short text.');
  });

  it('cuts at a sentence end when one is near the limit', () => {
    const text = 'The first sentence is quite long. Then another one follows here.';
    expect(trimAtBoundary(text, 45)).toBe('The first sentence is quite long. …');
  });

  it('falls back to a word boundary', () => {
    expect(trimAtBoundary('alpha beta gamma delta epsilon zeta', 20)).toBe('alpha beta gamma …');
  });

  it('cuts CJK text at 。 and never splits a surrogate pair', () => {
    expect(trimAtBoundary('これは一文目です。これは二文目でとても長い文章です', 15)).toBe('これは一文目です。 …');
    const emoji = '😀'.repeat(30);
    const cut = trimAtBoundary(emoji, 10);
    expect(Array.from(cut)).toHaveLength(10);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('never exceeds the limit (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (text, max) => {
        expect(Array.from(trimAtBoundary(text, max)).length).toBeLessThanOrEqual(Math.max(max, 2) + 1);
      }),
    );
  });
});

describe('one-line helpers', () => {
  it('firstLine takes the first non-blank line and collapses whitespace', () => {
    expect(firstLine('\n\n  hello   world \nsecond', 80)).toBe('hello world');
  });

  it('oneLine joins lines', () => {
    expect(oneLine('a\nb\tc', 80)).toBe('a b c');
  });

  it('headingText escapes a trailing closing sequence only', () => {
    expect(headingText('C# and F# ##')).toBe('C# and F# \\##');
    expect(headingText('issue #12')).toBe('issue #12');
    expect(headingsOf(`## ${headingText('fix ##')}`)).toEqual([{ depth: 2, text: 'fix ##' }]);
  });

  it('inlineCode fences content that contains backticks', () => {
    expect(inlineCode('ls')).toBe('`ls`');
    expect(inlineCode('a `b` c')).toBe('``a `b` c``');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
  });

  it('stripControls replaces lone surrogates', () => {
    expect(stripControls('a\ud800b')).toBe('a\ufffdb');
  });
});
