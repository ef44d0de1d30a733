import { describe, expect, it } from 'vitest';
import type { ParsedLink } from '../../src/core/types.js';
import { md, parse } from './helpers.js';

const brief = (links: ParsedLink[]) => links.map((l) => [l.kind, l.target, l.heading, l.text, l.section, l.line]);

describe('links as written', () => {
  it('reads every wikilink form with its section and line', () => {
    const note = parse(
      md(
        'Lead [[Plain]] and [[target|Alias text]].',
        '# Head',
        '[[note#Some heading]] [[#Local heading]] [[dir/note#H|alias]]',
        '![[image.png]] and ![[Embedded note#part]]',
        '| a | [[Table Note\\|shown]] |',
      ),
      'w.md',
    );
    expect(brief(note.links)).toEqual([
      ['wikilink', 'Plain', null, null, 0, 1],
      ['wikilink', 'target', null, 'Alias text', 0, 1],
      ['wikilink', 'note', 'Some heading', null, 1, 3],
      ['wikilink', '', 'Local heading', null, 1, 3],
      ['wikilink', 'dir/note', 'H', 'alias', 1, 3],
      ['embed', 'image.png', null, null, 1, 4],
      ['embed', 'Embedded note', 'part', null, 1, 4],
      ['wikilink', 'Table Note', null, 'shown', 1, 5],
    ]);
  });

  it('reads markdown links to local files, percent-decoded and without the anchor', () => {
    const note = parse(
      md(
        '[rel](relative/path.md#anchor) [abs](/handbook/hiring/) [enc](my%20note.md)',
        '[angle](<with space.md>) [titled](t.md "Title") [parens](a_(b).md)',
        '[日本語](./メモ/%E3%83%A1%E3%83%A2.md#%E6%A6%82%E8%A6%81)',
      ),
      'm.md',
    );
    expect(brief(note.links)).toEqual([
      ['markdown', 'relative/path.md', 'anchor', 'rel', 0, 1],
      ['markdown', '/handbook/hiring/', null, 'abs', 0, 1],
      ['markdown', 'my note.md', null, 'enc', 0, 1],
      ['markdown', 'with space.md', null, 'angle', 0, 2],
      ['markdown', 't.md', null, 'titled', 0, 2],
      ['markdown', 'a_(b).md', null, 'parens', 0, 2],
      ['markdown', './メモ/メモ.md', '概要', '日本語', 0, 3],
    ]);
  });

  it('reads a markdown link without its query: `?department=x` names no file (Hugo links so; Obsidian allows no `?` in a name)', () => {
    // The GitLab handbook links /handbook/company/team/?department=… 18 times: all were reported unresolved.
    const note = parse(
      md('[team](/handbook/company/team/?department=legal#people) [raw](note.md?plain=1) [lit](what%3F.md) [self](?x=1)'),
      'q.md',
    );
    expect(brief(note.links)).toEqual([
      ['markdown', '/handbook/company/team/', 'people', 'team', 0, 1],
      ['markdown', 'note.md', null, 'raw', 0, 1],
      ['markdown', 'what?.md', null, 'lit', 0, 1],
    ]);
  });

  it('ignores URLs with a scheme, protocol-relative URLs and pure anchors, as links and as images', () => {
    const note = parse(
      md(
        '[web](https://example.com/a.md) [plain](http://x.org) [mail](mailto:a@b.c) [ftp](ftp://h/f.md)',
        '[cdn](//cdn.example.com/x.md) [anchor](#section) [empty]() ![web](https://example.com/p.png)',
        '![data](data:image/png;base64,iVBORw0KGgo=) ![cdn](//cdn.example.com/p.png) ![anchor](#x) ![none]()',
        'Autolink <https://example.com/#tag> and bare https://example.com/#frag',
      ),
      'u.md',
    );
    expect(note.links).toEqual([]);
    expect(note.tags).toEqual([]);
  });

  it('treats a markdown image of a note as an embed', () => {
    const note = parse('![shown](other/note.md)', 'i.md');
    expect(brief(note.links)).toEqual([['embed', 'other/note.md', null, 'shown', 0, 1]]);
  });

  it('treats a markdown image of a local file as an embed, as ![[file]] is: relative, percent-encoded, in <angle brackets>', () => {
    const note = parse(md('![](missing.png) ![ok](../assets/here.png)', '![enc](my%20pic.png) ![angle](<my pic.png>) ![[pic.png]]'), 'i.md');
    expect(brief(note.links)).toEqual([
      ['embed', 'missing.png', null, null, 0, 1],
      ['embed', '../assets/here.png', null, 'ok', 0, 1],
      ['embed', 'my pic.png', null, 'enc', 0, 2],
      ['embed', 'my pic.png', null, 'angle', 0, 2],
      ['embed', 'pic.png', null, null, 0, 2],
    ]);
  });

  it('does not count links inside inline code or fenced code', () => {
    const note = parse(
      md(
        'Use `[[not a link]]` and ``code with ` and [x](y.md)`` here.',
        '```',
        '[[in fence]] [a](b.md)',
        '```',
        '~~~md',
        '![[in tilde fence]]',
        '~~~',
        '    [[indented code]]',
        '',
        'after [[Real]]',
      ),
      'code.md',
    );
    expect(brief(note.links)).toEqual([['wikilink', 'Real', null, null, 0, 10]]);
  });

  it('does not count links in HTML blocks or escaped brackets', () => {
    const note = parse(md('<div>', '[[inside html]]', '</div>', '', '\\[[escaped]] \\[not](link.md)'), 'h.md');
    expect(note.links).toEqual([]);
  });

  it('finds a link wrapped over two lines on the line where it starts', () => {
    const note = parse(md('# H', 'see [a long', 'label](wrapped.md) end'), 'wrap.md');
    expect(brief(note.links)).toEqual([['markdown', 'wrapped.md', null, 'a long label', 0, 2]]);
  });

  it('keeps links in headings with the heading section', () => {
    const note = parse(md('lead', '## About [[Topic]]', 'text'), 'hd.md');
    expect(brief(note.links)).toEqual([['wikilink', 'Topic', null, null, 1, 2]]);
    expect(note.sections[1].heading).toBe('About Topic');
  });

  it('assigns links to the chunk that holds their line', () => {
    const para = (n: number) => `${'word '.repeat(30)}[[Link${n}]]`;
    const note = parse(md('# Long', para(1), '', para(2), '', para(3)), 'ch.md', { chunkChars: 200 });
    expect(note.sections.map((s) => s.chunk)).toEqual([0, 1, 2]);
    expect(note.links.map((l) => [l.target, l.section, l.line])).toEqual([
      ['Link1', 0, 2],
      ['Link2', 1, 4],
      ['Link3', 2, 6],
    ]);
  });

  it('reads frontmatter related: paths and wikilinks, quoted or not', () => {
    const note = parse(
      md('---', 'related:', '  - "[[Quoted Note#Part|shown]]"', '  - [[Unquoted]]', '  - docs/other.md', '---', 'body'),
      'r.md',
    );
    expect(brief(note.links)).toEqual([
      ['related', 'Quoted Note', 'Part', 'shown', null, null],
      ['related', 'Unquoted', null, null, null, null],
      ['related', 'docs/other.md', null, null, null, null],
    ]);
    expect(brief(parse(md('---', 'related: "[[One]]"', '---'), 'r1.md').links)).toEqual([
      ['related', 'One', null, null, null, null],
    ]);
  });

  // Obsidian (1.4+) takes a property whose value is a quoted wikilink as a link: it shows in the target's
  // backlinks and in the graph (`up: "[[Parent]]"`, `source: ["[[A]]", "[[B]]"]`). Other text is not a link.
  it('reads a wikilink that is the whole value of any other property, or of an item of its list', () => {
    const note = parse(
      md(
        '---',
        'up: "[[Parent Note]]"',
        'sources: ["[[Book A#Ch 2|A]]", "[[Book B]]", "plain text"]',
        'author: Jane Doe',
        'summary: "see [[Not A Whole Value]] here"',
        'pair: "[[Two]] and [[Links]]"',
        'related: "[[Rel]]"',
        'nested: {a: "[[Too Deep]]"}',
        '---',
        'body',
      ),
      'p.md',
    );
    expect(brief(note.links)).toEqual([
      ['related', 'Rel', null, null, null, null],
      ['related', 'Parent Note', null, null, null, null],
      ['related', 'Book A', 'Ch 2', 'A', null, null],
      ['related', 'Book B', null, null, null, null],
    ]);
  });

  // Dendron writes the label first, `[[Setup guide|project.setup#steps]]` (src/vault/dendron.ts): in its vaults
  // alone, the text after the pipe is the target; in the body, in a table and in properties alike.
  it("reads Dendron's [[label|note.id#heading]] the other way round, in a Dendron vault only", () => {
    const content = md(
      '---',
      'up: "[[Parent|project]]"',
      '---',
      'See [[Setup guide|project.setup#steps]] and [[project.setup]].',
      '| a | [[Shown\\|project.table]] |',
      '![[project.embed]] [[ |only.target]]',
    );
    expect(brief(parse(content, 'project.md', { dendron: true }).links)).toEqual([
      ['wikilink', 'project.setup', 'steps', 'Setup guide', 0, 4],
      ['wikilink', 'project.setup', null, null, 0, 4],
      ['wikilink', 'project.table', null, 'Shown', 0, 5],
      ['embed', 'project.embed', null, null, 0, 6],
      ['wikilink', 'only.target', null, null, 0, 6],
      ['related', 'project', null, 'Parent', null, null],
    ]);
    expect(brief(parse(content, 'project.md').links).map((l) => l.slice(1, 4))).toEqual([
      ['Setup guide', null, 'project.setup#steps'],
      ['project.setup', null, null],
      ['Shown', null, 'project.table'],
      ['project.embed', null, null],
      ['Parent', null, 'project'],
    ]);
  });

  it('skips empty and unterminated wikilinks, and takes the innermost of nested ones', () => {
    const note = parse(md('[[]] [[|alias only]] [[open', 'close]] [[ok]] [[outer [[inner]] rest]]'), 'e.md');
    expect(note.links.map((l) => l.target)).toEqual(['ok', 'inner']);
  });
});

describe('inline tags', () => {
  it('finds tags after whitespace or at line start, unicode and nested tags too', () => {
    const note = parse(md('#start and #日本語タグ and #nested/tag-name_1', '- list #InList', '全角スペース　#全角後'), 't.md');
    expect(note.tags).toEqual(['start', '日本語タグ', 'nested/tag-name_1', 'inlist', '全角後']);
  });

  // Obsidian's tags hold emoji (its tag ends at whitespace and punctuation only); tsm read `#🚀` as no tag and
  // `#done✅` as `done`.
  it('reads emoji in tags, as Obsidian does: alone, nested, after letters, with a skin tone or as a flag', () => {
    const note = parse(md('Ideas #🚀 and #📚/to-read, #done✅ #👍🏽 #🇯🇵 #👨‍👩‍👧 family', 'Still no tag: #123 and C# and (#🚀)'), 'e.md');
    expect(note.tags).toEqual(['🚀', '📚/to-read', 'done✅', '👍🏽', '🇯🇵', '👨']);
  });

  it('skips headings markers, numbers, code, URLs, anchors and HTML attributes', () => {
    const note = parse(
      md(
        '# Heading',
        '## Another ##',
        'Issue #123 and #2024 are numbers; C#sharp and a#b are not tags.',
        'Code `#notatag` and https://example.com/page#frag and [x](#anchor) and (#paren).',
        'Inline <span style="color: #fff">html</span> and &#35;entity.',
        '```',
        '#in-fence',
        '```',
      ),
      'n.md',
    );
    expect(note.tags).toEqual([]);
  });

  // Bear writes a tag of several words closed by a second `#`: it was read as its first word alone.
  it("reads Bear's closed tags of several words, and leaves headings, numbers, C# and open tags as they were", () => {
    const note = parse(
      md(
        '# Trip ##',
        'Packing #travel plans# and #nested/tag with space#, #日本語 タグ# too.',
        '#one# #solo and #123 and #123 fixed# and C# and F# and #a b#.',
        'We moved #backend to C# last year; #open words never closed',
        '#x y#z and #p q## and #m  n# and `#in code#`',
      ),
      'bear.md',
    );
    expect(note.tags).toEqual([
      'travel plans',
      'nested/tag with space',
      '日本語 タグ',
      'one',
      'solo',
      'a b',
      'backend',
      'open',
      'x',
      'p',
      'm',
    ]);
  });

  it('merges frontmatter tags (list or string, with or without #) and dedupes case-insensitively', () => {
    const note = parse(md('---', 'tags: [Project, "#Alpha"]', '---', '#project #beta #ALPHA'), 'm.md');
    expect(note.tags).toEqual(['project', 'alpha', 'beta']);
    expect(parse(md('---', 'tags: "one, two three"', '---'), 's.md').tags).toEqual(['one', 'two', 'three']);
    expect(parse(md('---', 'tag: solo', '---'), 's.md').tags).toEqual(['solo']);
  });
});
