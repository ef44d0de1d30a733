import { readFileSync } from 'node:fs';
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { containedMarkdown, formatMarkdown, includesDetails, type DetailLevel } from '../../src/format/md.js';
import { DEFAULT_LINK_READING } from '../../src/text/markdown-line.js';
import { htmlOpenAtResults } from '../helpers/html-nesting.js';
import { HOSTILE, hit, memoryResponse, response } from './fixtures.js';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
const NOW = new Date(2026, 2, 15, 12);

const commonmark = unified().use(remarkParse).freeze();

/** The root-level headings a CommonMark reader sees in the output, as `depth text` (inline text only). */
function renderedHeadings(md: string): string[] {
  const tree = commonmark.parse(md) as Root;
  const text = (n: { value?: string; children?: unknown[] }): string => n.value ?? (n.children ?? []).map((c) => text(c as never)).join('');
  return tree.children.filter((n) => n.type === 'heading').map((n) => `${(n as { depth: number }).depth} ${text(n as never)}`);
}

/** Which results (1-based positions) carry a Details block. */
function detailed(md: string): number[] {
  return md
    .split(/^(?=## Result )/m)
    .map((block, i) => (block.includes('\n**Details:**\n') ? i + 1 : 0))
    .filter(Boolean);
}

describe('formatMarkdown', () => {
  it('matches the golden output (the documented markdown result, with the vault words), detail auto', () => {
    expect(formatMarkdown(memoryResponse(), { detail: 'auto', now: NOW, links: DEFAULT_LINK_READING })).toBe(golden('memory.auto.md'));
  });

  it('normalises scores to the top hit and flags key moments (surprise ≥ 0.7)', () => {
    const md = formatMarkdown(
      response('q', [hit({ score: 0.04, surprise: 0.7 }), hit({ score: 0.03, surprise: 0.69 }), hit({ score: 0.001, surprise: 1 })]),
      { detail: 'none', now: NOW, links: DEFAULT_LINK_READING },
    );
    const headers = md.split('\n').filter((l) => l.startsWith('## '));
    expect(headers).toEqual([
      '## Result 1 [rank: 1, score: 1.00, key moment]',
      '## Result 2 [rank: 2, score: 0.75]',
      '## Result 3 [rank: 3, score: 0.03, key moment]',
    ]);
  });

  // Seed 003's detail table, position by position: [surprise of results 1..5] → detailed positions.
  const SURPRISES = [0.9, 0.8, 0.95, 0.1, 0.7];
  it.each<[DetailLevel, number[], number[]]>([
    ['auto', SURPRISES, [1, 2]],
    ['auto', [0.2, 0.9, 0.9, 0.9, 0.9], [2]],
    ['auto', [0.69, 0.5, 0.9, 0.9, 0.9], []],
    ['none', SURPRISES, []],
    ['low', SURPRISES, [1]],
    ['low', [0.5, 0.9, 0.9, 0.9, 0.9], []],
    ['high', SURPRISES, [1, 2, 3, 4, 5]],
    ['high', [0, 0, 0, 0, 0], [1, 2, 3, 4, 5]],
  ])('detail %s with surprises %j → details for %j', (detail, surprises, expected) => {
    const resp = response('q', surprises.map((surprise) => hit({ surprise, content: 'Body text. More.' })));
    expect(detailed(formatMarkdown(resp, { detail, now: NOW, links: DEFAULT_LINK_READING }))).toEqual(expected);
    surprises.forEach((s, i) => expect(includesDetails(detail, i + 1, s)).toBe(expected.includes(i + 1)));
  });

  it("names each result's note and line, as a code span markdown leaves as written", () => {
    const md = formatMarkdown(
      response('q', [hit({ path: 'knowledge/my_notes/*draft*.md', line: 7 }), hit({ path: 'a `tick`.md', line: 1 }), hit({ path: '`x`.md', line: 2 })]),
      { detail: 'none', now: NOW, links: DEFAULT_LINK_READING },
    );
    expect(md.split('\n').filter((l) => l.startsWith('**Source:**'))).toEqual([
      '**Source:** `knowledge/my_notes/*draft*.md` line 7',
      '**Source:** ``a `tick`.md`` line 1',
      '**Source:** `` `x`.md `` line 2',
    ]);
  });

  it('writes When as a relative time, or unknown without a date', () => {
    const md = formatMarkdown(response('q', [hit({ date: '2026-03-13' }), hit({ date: null }), hit({ date: 'someday' })]), { detail: 'none', now: NOW, links: DEFAULT_LINK_READING });
    expect(md.split('\n').filter((l) => l.startsWith('**When:**'))).toEqual(['**When:** 2 days ago', '**When:** unknown', '**When:** someday']);
  });

  it('summarises with the heading path and the first sentence, falling back to the snippet', () => {
    const md = formatMarkdown(
      response('q', [hit({ section: 'A > B', content: 'First one. Second one.' }), hit({ section: 'C', content: '', snippet: 'snip text' }), hit({ section: 'D', content: '', snippet: '' })]),
      { detail: 'none', now: NOW, links: DEFAULT_LINK_READING },
    );
    expect(md.split('\n').filter((l) => l.startsWith('**Summary:**'))).toEqual([
      '**Summary:** A > B — First one.',
      '**Summary:** C — snip text',
      '**Summary:** D',
    ]);
  });

  it("reads the summary's links as the vault's notes were read (Dendron: label first)", () => {
    const resp = response('q', [hit({ section: 'P', content: 'See [[Setup guide|project.setup]] first. Then more.' })]);
    const summary = (links: typeof DEFAULT_LINK_READING) => formatMarkdown(resp, { detail: 'none', now: NOW, links }).split('\n').find((l) => l.startsWith('**Summary:**'));
    expect(summary({ ...DEFAULT_LINK_READING, labelFirst: true })).toBe('**Summary:** P — See Setup guide first.');
    expect(summary(DEFAULT_LINK_READING)).toBe('**Summary:** P — See project.setup first.');
  });

  it('keeps a very long first sentence short', () => {
    const md = formatMarkdown(response('q', [hit({ content: 'word '.repeat(200) })]), { detail: 'none', now: NOW, links: DEFAULT_LINK_READING });
    const summary = md.split('\n').find((l) => l.startsWith('**Summary:**'))!;
    expect(summary.length).toBeLessThan(300);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('zero hits is one line', () => {
    expect(formatMarkdown(response('dark mode', []), { detail: 'auto', now: NOW, links: DEFAULT_LINK_READING })).toBe('No results found for "dark mode".');
  });

  it('zero hits quotes the query as text: its tags and backticks open no HTML element or code span', () => {
    const md = formatMarkdown(response('qqzx <kbd>x</kbd> `tick', []), { detail: 'auto', now: NOW, links: DEFAULT_LINK_READING });
    const paragraph = (commonmark.parse(md) as Root).children[0] as { children: { type: string; value?: string }[] };
    expect(paragraph.children.map((c) => c.type)).toEqual(['text']);
    expect(paragraph.children[0].value).toBe('No results found for "qqzx <kbd>x</kbd> `tick".');
  });

  it('rejects an unknown detail level', () => {
    expect(() => formatMarkdown(memoryResponse(), { detail: 'max' as DetailLevel, now: NOW, links: DEFAULT_LINK_READING })).toThrow(/detail/);
  });

  it('a note cannot add results or swallow the rest of the output', () => {
    const evil = '```\n## Result 99 [rank: 99, score: 1.00]\nunclosed fence';
    const resp = response('q', [hit({ section: 'evil\n## Result 98', content: `# Result 97\n${evil}`, surprise: 1 }), hit({ section: 'next' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md.match(/^## Result /gm)).toHaveLength(3); // two real ones + one inside a closed fence
    expect(md).toContain('\\# Result 97');
    expect(md).toContain('unclosed fence\n```\n\n## Result 2 [rank: 2');
  });

  it('a line CommonMark reads as inline code, not a fence, opens none: the results after it stay results', () => {
    // ```npm i``` is inline code (a backtick fence's info string holds no backtick); "closing" it added a ```
    // that opened a real fence, and every later result was code.
    const content = 'Run ```npm install wombat``` first.\n\n```npm test``` checks it.';
    const resp = response('wombat', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).toContain('```npm test``` checks it.\n\n## Result 2 [rank: 2');
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it.each([
    ['<pre>\nunclosed pre', '</pre>'],
    ['text\n\n<!-- a draft comment that never closes\n\nmore text', '-->'],
    ['<script type="x">\nlet a;', '</script>'],
    ['<![CDATA[\nraw', ']]>'],
    ['<?php\necho 1;', '?>'],
    ['<!DOCTYPE\nhtml', '>'],
  ])('an unclosed HTML block (%j) is closed, so it cannot swallow the results after it', (content, closer) => {
    const resp = response('q', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).toContain(`\n${closer}\n\n## Result 2 [rank: 2`);
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it.each([
    '<details>\n<summary>Output</summary>\n```\nnpm ERR! zebu\n</details>\n\nThat was the log.', // the fence line is the block's HTML
    '<details>\n~~~\nlog\n\n# Result 97\nmore', // the heading after the blank line is one: escaped
    '<DIV class="log">\n```sh\n\ntext', // a block tag in any case
    '</summary>\n````\n\ntext',
    'text\n\n<span data-x=1>\n```\n\ntext', // kind 7: a lone complete tag
    '<span>\n```\ncode', // right below **Details:**, a paragraph's line
    'text\n<div>\n```\nx\n\nafter', // a block tag interrupts a paragraph
    'text\n<span>\n```\ncode', // a lone tag after text only continues it: the fence is one, and is closed
    '- item text\n<span>\n```\ncode', // likewise lazily in a list item
    '    indented code\n<span>\n```\n\ntext',
  ])('an HTML block that a blank line ends (%j) holds its fence lines: no fence is "closed" that would swallow the results after it', (content) => {
    const resp = response('q', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it('a heading that would end a list item continues its paragraph once escaped: the item\'s fence after it is the item\'s', () => {
    const content = '- item\n# Result 97\n  ```\n> quote\ntext';
    const resp = response('q', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).toContain('- item\n\\# Result 97\n  ```\n> quote\ntext\n\n## Result 2 [rank: 2');
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it.each(['---\n\ntext after a rule', '===\ntext', '-'])('details opening on a setext underline (%j) leave **Details:** a label, not a heading', (content) => {
    const resp = response('q', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).toContain(`**Details:**\n\n${content}\n\n## Result 2`);
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it.each([
    '1. Install:\n   ```sh\n   npm i\n   ```\n2. Run:\n   ```sh\n   npm test\n   ```', // balanced either way
    '- ```sh\n  npm install\n  ```\n- done', // the fence opens on the marker line: only its closing line is at root indentation
    '1. ```bash\n   make\n   ```',
    '- step\n  - ```sh\n    x\n    ```\nafter',
  ])('a fence of a list item (%j) ends with the item: tsm adds no fence that would swallow the results after it', (content) => {
    const resp = response('q', [hit({ content, surprise: 1 }), hit({ section: 'Next note' })]);
    const md = formatMarkdown(resp, { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).toContain(`${content}\n\n## Result 2 [rank: 2`);
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00, key moment]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it('drops control characters and repairs lone surrogates', () => {
    const md = formatMarkdown(response(HOSTILE, [hit({ section: HOSTILE, content: HOSTILE, surprise: 1 })]), { detail: 'high', now: NOW, links: DEFAULT_LINK_READING });
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(md).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('containedMarkdown', () => {
  it('closes an unclosed fence with the same marker', () => {
    expect(containedMarkdown('text\n~~~~py\ncode')).toBe('text\n~~~~py\ncode\n~~~~');
  });

  it('leaves balanced fences and headings inside them alone', () => {
    const md = '```\n# comment\n```\nafter';
    expect(containedMarkdown(md)).toBe(md);
  });

  it('escapes heading lines outside fences', () => {
    expect(containedMarkdown('## Result 5\n#tag stays\n   ### three')).toBe('\\## Result 5\n#tag stays\n   \\### three');
  });

  it('is not fooled by a shorter or different closing fence', () => {
    expect(containedMarkdown('````\n```\n~~~\nx')).toBe('````\n```\n~~~\nx\n````');
  });

  it('closes only the HTML blocks CommonMark runs on past a blank line, and those only when unclosed', () => {
    expect(containedMarkdown('<!-- closed -->\n# heading')).toBe('<!-- closed -->\n\\# heading');
    expect(containedMarkdown('<PRE>\n# not a heading in it\n</pre>\nafter')).toBe('<PRE>\n# not a heading in it\n</pre>\nafter');
    expect(containedMarkdown('<Pre class=x>\ncode')).toBe('<Pre class=x>\ncode\n</pre>');
    expect(containedMarkdown('<div>\nends at a blank line')).toBe('<div>\nends at a blank line\n</div>'); // the element, not the block
    expect(containedMarkdown('<prelude>\ntext')).toBe('<prelude>\ntext');
    // Inside a fence an HTML start is code, and inside an HTML block a fence is HTML.
    expect(containedMarkdown('```\n<!--\n```\nafter')).toBe('```\n<!--\n```\nafter');
    expect(containedMarkdown('<!--\n```\nx')).toBe('<!--\n```\nx\n-->');
  });

  it('reads an HTML block that a blank line ends as HTML to that line, and only where CommonMark opens one', () => {
    expect(containedMarkdown('<details>\n```\n# x\n\n# y')).toBe('<details>\n```\n# x\n\n\\# y\n</details>');
    expect(containedMarkdown('a\n\n<span class="x">\n~~~\n\nb')).toBe('a\n\n<span class="x">\n~~~\n\nb\n</span>');
    // Right after a paragraph's line (at first, **Details:**) a lone tag is text, and a fence after it is one.
    expect(containedMarkdown('<span>\n~~~\ncode')).toBe('<span>\n~~~\ncode\n~~~');
    expect(containedMarkdown('a\n<div>\n~~~\ncode')).toBe('a\n<div>\n~~~\ncode\n</div>');
  });

  it('reads a list item\'s lines as the item\'s: a fence in it, a lazy line, a line that ends it', () => {
    // The item's fence is closed by its indented line; a root fence after the item is still closed.
    expect(containedMarkdown('- ```\n  code\n  ```\n```\nroot code')).toBe('- ```\n  code\n  ```\n```\nroot code\n```');
    // A lazy line continues the item's paragraph, and the item's indented fence after it stays the item's.
    expect(containedMarkdown('- para\nlazy\n  ```')).toBe('- para\nlazy\n  ```');
    // A thematic break or a heading ends the item; the heading is escaped.
    expect(containedMarkdown('- a\n***\n  ```\nx')).toBe('- a\n***\n  ```\nx\n```');
    expect(containedMarkdown('- a\n# h')).toBe('- a\n\\# h');
  });

  it('a backtick run with a backtick in its info string opens no fence (inline code), a tilde one does', () => {
    const inline = '```a``` and\n# heading';
    expect(containedMarkdown(inline)).toBe('```a``` and\n\\# heading');
    expect(containedMarkdown('~~~ a`b\ncode')).toBe('~~~ a`b\ncode\n~~~');
    // A closing fence has nothing after its run.
    expect(containedMarkdown('```\n``` x\ncode')).toBe('```\n``` x\ncode\n```');
  });
});

describe('formatMarkdown: details cut for the budget', () => {
  const NOTE = '*(details cut: the answer reached its size limit; read the section with search and get_sections)*';
  const filler = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}step ${i}: the walrus config line`).join('\n');

  // The cut note was the line right below the cut text: inside a `<details>` block CommonMark read it as that
  // block's raw HTML; after a paragraph, a list item or a quote, as a lazy line of it.
  for (const [what, content] of [
    ['a <details> block', `Intro.\n\n<details>\n<summary>log</summary>\n${filler('')}\n</details>\n\nAfter.`],
    ['a paragraph', filler('')],
    ['a list item', filler('- ')],
    ['a quote', filler('> ')],
  ] as const) {
    it(`is a paragraph of its own after ${what} cut short`, () => {
      const md = formatMarkdown(response('walrus', [hit({ content })]), { detail: 'high', now: NOW, links: DEFAULT_LINK_READING, detailBudget: 300 });
      expect(md).toContain(NOTE);
      const tree = commonmark.parse(md) as Root;
      const last = tree.children.at(-1)!;
      expect(last.type).toBe('paragraph');
      expect(md.slice(last.position!.start.offset, last.position!.end.offset)).toBe(NOTE);
    });
  }
});

describe('formatMarkdown: HTML the details leave open', () => {
  const steps = Array.from({ length: 40 }, (_, i) => `step ${i}: the walrus config line`).join('\n');
  const next = hit({ section: 'Next note' });
  const opts = { detail: 'high', now: NOW, links: DEFAULT_LINK_READING } as const;

  it('a <details> the budget cuts inside is closed before the cut note: the next result is not nested in it', () => {
    const content = `Intro.\n\n<details>\n<summary>log</summary>\n\n${steps}\n\n</details>\n\nAfter.`;
    const md = formatMarkdown(response('walrus', [hit({ content }), next]), { ...opts, detailBudget: 300 });
    expect(md).toMatch(/…\n<\/details>\n\n\*\(details cut/);
    expect(htmlOpenAtResults(md)).toEqual([[], []]);
    // Still markdown that reads right: the cut note a paragraph of its own, both results headings.
    expect(renderedHeadings(md)).toEqual(['2 Result 1 [rank: 1, score: 1.00]', '2 Result 2 [rank: 2, score: 1.00]']);
  });

  it('a tag the budget cuts inside is left out: its attributes would have run on over the later results', () => {
    const attrs = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau';
    const content = `Intro text here.\n\n${'word '.repeat(50)}\n\n<div class="${attrs}">\n\ninside\n\n</div>\n\nAfter.`;
    for (const detailBudget of [300, 320, 340]) {
      const md = formatMarkdown(response('q', [hit({ content }), next]), { ...opts, detailBudget });
      expect(md).toContain('\n\n…\n\n*(details cut');
      expect(md).not.toContain('<div');
    }
  });

  it.each([
    ['a long section chunked inside its <details>', 'Intro.\n\n<details>\n<summary>log</summary>', '</details>'],
    ['nested blocks', '<div class="log">\n<details><summary>a</summary>\n\ntext', '</details></div>'],
    ['a fence left open inside', 'Intro.\n\n<details>\n\n```sh\ncode <div>', '```\n</details>'],
    ['a block tag inline in a paragraph', 'Text <div> and more', '</div>'],
    ['a bold that never closes', 'Some <b>bold\n\nmore', '</b>'],
  ])('%s: closed after the text', (_, content, closers) => {
    const md = formatMarkdown(response('q', [hit({ content }), next]), opts);
    expect(md).toContain(`\n${closers}\n\n## Result 2`);
    expect(htmlOpenAtResults(md)).toEqual([[], []]);
  });

  it.each([
    ['closed ones', '<details>\n<summary>a</summary>\n\ntext\n\n</details>'],
    ['tags in code', '`<details>` and \\<div> are text\n\n```\n<details>\n```\n\n    <div>'],
    ['tags in a comment', '<!-- <details> -->'],
    ['inline tags a paragraph closes', 'Vec<String> and <span>x'],
    ['void and self-closed ones', '<hr>\n\n<br/> <img src="x">'],
    ['tags in a quote or a list item', '> <details>\n\n- <div>'],
  ])('%s: nothing added', (_, content) => {
    const md = formatMarkdown(response('q', [hit({ content }), next]), opts);
    expect(md).toContain(`${content}\n\n## Result 2`);
  });
});

describe('formatMarkdown: the summary is text', () => {
  const opts = { detail: 'none', now: NOW, links: DEFAULT_LINK_READING } as const;
  const summaryText = (md: string, n: number) => {
    const tree = commonmark.parse(md) as Root;
    const paragraphs = tree.children.filter((c) => c.type === 'paragraph');
    const text = (x: { value?: string; children?: unknown[]; type: string }): string => (x.type === 'html' ? `[html ${x.value}]` : (x.value ?? (x.children ?? []).map((c) => text(c as never)).join('')));
    return text(paragraphs[n] as never).split('\n').find((l) => l.startsWith('Summary: '));
  };

  it("a code block's HTML cut in the summary opens no element the later results render inside", () => {
    const card = `\`\`\`html\n<div class="card">\n${Array.from({ length: 12 }, (_, i) => `  <p>Line ${i} of the card markup</p>`).join('\n')}\n</div>\n\`\`\``;
    const md = formatMarkdown(response('card', [hit({ section: 'Card markup', content: card }), hit({ section: 'Next note' })]), opts);
    expect(htmlOpenAtResults(md)).toEqual([[], []]);
    expect(summaryText(md, 0)).toMatch(/^Summary: Card markup — <div class="card"> <p>Line 0 of the card markup<\/p>/);
  });

  it.each([
    ['Run tsm search <query> to find notes.', 'Run tsm search <query> to find notes.'],
    ['The `<details>` tag.', 'The <details> tag.'], // a code span's text
    ['Paths `C:\\<b>` and `\\\\<!--`, a < b and x<3.', 'Paths C:\\<b> and \\\\<!--, a < b and x<3.'],
  ])('%j reads as written', (content, shown) => {
    const md = formatMarkdown(response('q', [hit({ section: 'S', content })]), opts);
    expect(summaryText(md, 0)).toBe(`Summary: S — ${shown}`);
  });
});
