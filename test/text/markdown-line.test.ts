import { describe, expect, it } from 'vitest';
import { DEFAULT_LINK_READING, externalLinkLabels, firstSentence, markdownLine, simplifyMarkdown } from '../../src/text/markdown-line.js';

describe('simplifyMarkdown / markdownLine', () => {
  it.each([
    ['[the guide](https://example.com/a_(b)) here', 'the guide here'],
    ['![diagram](img/x.png)', 'diagram'],
    ['see [[lora-guide]]', 'see lora-guide'],
    ['see [[lora-guide|the guide]]', 'see the guide'],
    ['see [[lora-guide#Battery life]]', 'see lora-guide > Battery life'],
    ['embed ![[chart.png]]', 'embed chart.png'],
    // An embedded file shows as its name: `#icon` is no heading of it, and a size is no alias (Obsidian's syntax).
    ['- ![[lucide-cog.svg#icon]] [[sync-settings|Sync settings]]', '- lucide-cog.svg Sync settings'],
    ['![[photo.jpg#outline|100]], ![[photo.jpg|640x480]], ![[photo.jpg|a cat|100]]', 'photo.jpg, photo.jpg, a cat'],
    ['![[board.canvas]] and ![[doc.pdf#page=3]], but [[doc.pdf#page=3]]', 'board.canvas and doc.pdf, but doc.pdf > page=3'],
    // A note's embed keeps its headings, a dotted note name included.
    ['![[guide#Battery life]] and ![[Release 1.5#Changes]]', 'guide > Battery life and Release 1.5 > Changes'],
    // A block's embed shows the block in Obsidian, never its `^id`: here its note's name. A block's link shows
    // as Obsidian writes it, `Note > ^id`, like a heading's.
    ['![[Target#^abc123]] and ![[#^local]] but [[Target#^abc123]]', 'Target and but Target > ^abc123'],
    ['![[guide#Battery life#^b1]]', 'guide > Battery life'],
    ['see ![250](https://x.y/photo.jpg) and ![a cat|100x145](https://x.y/photo.jpg) and [50](https://x.y)', 'see and a cat and 50'],
    // A linked image (a badge, a screenshot that opens full size) is its alt text: no `[](…)` is left of it.
    ['[![badge](https://img.shields.io/x)](https://github.com/u/r) and [![](shot.png)](https://x/shot.png) end', 'badge and end'],
    ['**bold** and __strong__ and *em* and _em_ and ~~gone~~ and ==mark==', 'bold and strong and em and em and gone and mark'],
    ['snake_case_name and 2 * 3 = 6 and a*b', 'snake_case_name and 2 * 3 = 6 and a*b'],
    ['`inline code` stays', 'inline code stays'],
    ['> quoted\n> text', 'quoted text'],
    ['```ts\nconst x = 1;\n```', 'const x = 1;'],
    ['| a | b |\n|---|:--:|\n| 1 | 2 |', '| a | b | | 1 | 2 |'],
    ['### heading-like line', 'heading-like line'],
    // Thematic breaks are a line, not text: `***` was shown as `*`.
    ['above\n***\n* * *\n- - -\n___\nbelow', 'above below'],
    ['- item\n* item', '- item * item'],
    // Obsidian: callouts show their title (else their type), block ids are not shown.
    ['> [!warning]- Mind the voltage\n> 3.3 V only', 'Mind the voltage 3.3 V only'],
    ['> [!tip]\n> short range', 'Tip short range'],
    ['> [!NOTE]\n> loud', 'Note loud'],
    ['- GitHub: linem-davton ^github\n- Website: site ^website', '- GitHub: linem-davton - Website: site'],
    ['x^2 and a ^ b stay', 'x^2 and a ^ b stay'],
    // Logseq: a block's `id::` property is not shown, and a block reference ((uuid)) shows another block's text, not the uuid.
    ['- Decision log\n  id:: 6563a1b2-4c5d-4e6f-8a9b-0c1d2e3f4a5b\n- LATER write up ((6563a1b2-4c5d-4e6f-8a9b-0c1d2e3f4a5b)) today', '- Decision log - LATER write up today'],
    ['id:: not-a-uuid and ((not a ref)) stay', 'id:: not-a-uuid and ((not a ref)) stay'],
    ['  lots \n\n of\t\twhitespace  ', 'lots of whitespace'],
  ])('%j → %j', (md, plain) => {
    expect(markdownLine(md)).toBe(plain);
  });

  // Raw HTML as Obsidian renders it: comments hidden, tags gone, their text kept; code as written.
  it.each([
    ['Links: [GitHub](https://x) or [<button id=HH>Open in Obsidian</button>](obsidian://show-plugin?id=x)', 'Links: GitHub or Open in Obsidian'],
    ['<span class="git-footer">Edit In GitHub</span>', 'Edit In GitHub'],
    ['one<br>two<br/>three', 'one two three'],
    ['<table><tr><td>1</td><td>2</td></tr></table>', '1 2'],
    ['<b>bold</b>, <a href="/x">link</a>.', 'bold, link.'],
    ['before <!-- hidden --> after', 'before after'],
    ['before\n<!--\n- [[Publish sites]]: <https://>\n-->\nafter', 'before after'],
    ['Website: <https://github.com/x> and <obsidian://open?vault=v>', 'Website: https://github.com/x and obsidian://open?vault=v'],
    ['left <!-- never closed\nstill hidden', 'left'],
    // Nothing but hidden HTML: shown as written rather than as nothing.
    ['<!-- - GitHub: [{{title}}](https://github.com/{{title}}/) ^github-->\n<!--\n### Plugins\n-->', '<!-- - GitHub: {{title}} ^github--> <!-- Plugins -->'],
    ['<br>', '<br>'],
    ['use `<div>` and ``a <!-- b`` here', 'use <div> and a <!-- b here'],
    ['```html\n<div class="a">x</div>\n<!-- kept -->\n```\n<p>shown</p>', '<div class="a">x</div> <!-- kept --> shown'],
    ['~~~\n<br>\n~~~', '<br>'],
    ['see <https://example.com/a?b=1> or <me@example.com>', 'see https://example.com/a?b=1 or <me@example.com>'],
    ['a < b and c > d, 2<3, <未定>', 'a < b and c > d, 2<3, <未定>'],
    // A bare unknown name is a placeholder, not an element; attributes make any name markup.
    ['run tsm index <path> on <tags>, then </tags>', 'run tsm index <path> on <tags>, then </tags>'],
    ['<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>icon', 'icon'],
    // A backslash-escaped `<` opens no tag (CommonMark): the text shows the tag; an escaped backslash does not escape it.
    ['A walrus \\<b> tag and \\<details open> too', 'A walrus <b> tag and <details open> too'],
    ['two \\\\<b>bold</b>', 'two \\bold'],
  ])('HTML %j → %j', (md, plain) => {
    expect(markdownLine(md)).toBe(plain);
  });

  // Code is shown as written, never read as markdown: a note about markdown syntax shows its examples.
  it.each([
    ['For example, `[[#Setup]]` links to [[#Setup]].', 'For example, [[#Setup]] links to Setup.'],
    ['| Bold | `** **` | `**text**` | **text** |', '| Bold | ** ** | **text** | text |'],
    ['`![[chart.png|100]]` and `[a](b.md)` and `<https://x.y>`', '![[chart.png|100]] and [a](b.md) and <https://x.y>'],
    ['_`snake_case`_ and [`tsm`](https://example.com)', 'snake_case and tsm'],
    ['```md\n# Heading 1\n> [!tip] Title\n==mark== ^id\n---\n```', '# Heading 1 > [!tip] Title ==mark== ^id ---'],
    // A callout's example: the fence is quoted, and its code is shown without the quote markers.
    ['> [!example] Try it\n> ```md\n> **bold**\n> ```\n> done', 'Try it **bold** done'],
    // A quoted fence ends with its quote; what follows is text again.
    ['> ```\n> a_b\nafter **c**', 'a_b after c'],
    ['~~~\n[[x]]\n~~~\n[[y]]', '[[x]] y'],
    // A fence in a list item is indented past three spaces: still a fence, its code as written (`$` no math).
    ['1. Run:\n\n    ```sh\n    echo $HOME/$USER **x**\n    ```\n2. Done', '1. Run: echo $HOME/$USER **x** 2. Done'],
    ['- a\n  - b\n\n      ```\n      $x$ **y**\n      ```\n\nafter *em*', '- a - b $x$ **y** after em'],
    // Indented 4 past a paragraph (no list item) it is indented code, or the paragraph's next line: its ```
    // opens no fence, and what follows is text (CommonMark; it made the rest of the section code).
    ['Para.\n\n    ```\n    code\n\nAfter *em* and [[L]].', 'Para. ``` code After em and L.'],
    ['Para.\n    ```\nmore *em*', 'Para. ``` more em'],
    ['- item\n\nPara.\n\n    ```\n    x\n\nafter *em*', '- item Para. ``` x after em'],
    ['> quote\n>\n>     ```\n>     x\n>\n> after *em*', 'quote ``` x after em'],
    // Where the text opens, the list may be in the chunk before: still a fence.
    ['\n    ```\n    $a$ *x*\n    ```\nafter *em*', '$a$ *x* after em'],
    // A chunk of a long section that opens inside a list item on its text (a paragraph, then the fence):
    // the fence is the item's too.
    ['    Then check the path.\n\n    ```sh\n    echo $HOME/$USER **x**\n    ```\n\n2. Done', 'Then check the path. echo $HOME/$USER **x** 2. Done'],
    // A span holds backticks of other run lengths; an unmatched run is text.
    ['`**bold**` or `` `code` `` and | `` ``` `` | and ``a`b``', '**bold** or `code` and | ``` | and a`b'],
    ['``` x ` and ``y`', '``` x and ``y'], // the lone runs pair up: ` and ``y` is a span
    // Backslash escapes show their character, which is then no markup (a code span's backslashes are text).
    ['using the \\[\\[double brackets\\]\\] and \\*stars\\*', 'using the [[double brackets]] and *stars*'],
    ['> quote\n\\- Doug Engelbart, 1961\n\\# not a heading', 'quote - Doug Engelbart, 1961 # not a heading'],
    ['`a\\*b` and \\`not code\\` and C:\\Users and \\\\', 'a\\*b and `not code` and C:\\Users and \\'],
    // A table escapes the pipe of its wikilinks; elsewhere in it `\|` shows as `|`.
    ['| [[Embed files]] | ![[photo.jpg\\|100]] | [[notes/Tags\\|Tags]] | a \\| b |', '| Embed files | photo.jpg | Tags | a | b |'],
  ])('code %j → %j', (md, plain) => {
    expect(markdownLine(md)).toBe(plain);
  });

  // Footnotes as a reader sees them rendered: a reference is a small marker, left out of a line of text; a
  // definition shows its text. A regex's class (`[^a-z]+`, quantified) is no reference.
  it.each([
    ['Batteries last long[^1] and charge fast[^note].\n\n[^1]: Measured over three weeks.\n[^note]: See the datasheet.', 'Batteries last long and charge fast. Measured over three weeks. See the datasheet.'],
    ['> quoted[^q]\n> [^q]: In a quote.', 'quoted In a quote.'],
    ['数列を使用します [^2]。 A spaced ref [^3] too.', '数列を使用します。 A spaced ref too.'],
    ['[^long-note]:\n    Indented continuation.', 'Indented continuation.'],
    ['match [^a-z]+ or [^0-9]{2} or [^ ] here', 'match [^a-z]+ or [^0-9]{2} or [^ ] here'],
    // A negated class after a regex's `^` is no footnote either (it left a lone `^`).
    ['lines matching ^[^#] or ^[^,]', 'lines matching ^[^#] or ^[^,]'],
    ['`x[^1]` and `[^1]: y` stay as code', 'x[^1] and [^1]: y stay as code'],
    // A reference unlike a footnote's, that the text does not define, is text, as Obsidian shows an undefined
    // one: punctuation, a range, or one word standing apart. The text defines it: a footnote again.
    ['match it with [^abc] first, or [^/] and [^:] or [^a-z] alone', 'match it with [^abc] first, or [^/] and [^:] or [^a-z] alone'],
    ['[^abc] opens the line', '[^abc] opens the line'],
    ['match ([^abc]) or ([^xyz]|q) here', 'match ([^abc]) or ([^xyz]|q) here'],
    ['a claim [^source] here\n\n[^source]: The book.', 'a claim here The book.'],
    // Defined in another section, as most are: a number, a compound or a word after its word is a footnote.
    ['a claim[^source], 1 分未満 [^object-storage] and [^7].', 'a claim, 1 分未満 and.'],
  ])('footnote %j → %j', (md, plain) => {
    expect(markdownLine(md)).toBe(plain);
  });

  // Math (Obsidian's `$…$` and `$$…$$`) as its formula, written once, without the dollars, and never read as
  // markdown (`\\` stays, `_` and `*` are no emphasis). A price is no math: after an opening `$` no space,
  // before the closing one none, and no digit after it.
  it.each([
    ['The rotation uses $q v q^{-1}$ for each vector.', 'The rotation uses q v q^{-1} for each vector.'],
    ['Prices were $5 and $10, or $5/$6, not $ x $.', 'Prices were $5 and $10, or $5/$6, not $ x $.'],
    ['$a_1 * b_2$ and $x$ and \\$5 and \\$x$', 'a_1 * b_2 and x and $5 and $x$'],
    ['Above\n$$\nR = \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$\nbelow', 'Above R = \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix} below'],
    ['Energy: $$E = mc^2$$ holds.', 'Energy: E = mc^2 holds.'],
    ['$$\\sum_{i=1}^n x_i\n= **s**$$\nafter **b**', '\\sum_{i=1}^n x_i = **s** after b'],
    ['> [!note] Formula\n> $$\n> x_1 + x_2\n> $$\n> done', 'Formula x_1 + x_2 done'],
    ['- item\n    $$\n    a^2\n    $$', '- item a^2'],
    ['`$x$` and\n```\n$$\n```\nafter', '$x$ and $$ after'],
    // A block opened after a list marker or text closes at its `$$` line, and the text after it is text again
    // (the closing line was read as an opener: `[[Link]]` and `**b**` came out as written).
    // (The `-` alone on its line is dropped, as a lone dash is: TABLE_RULE.)
    ['- $$\n  x^2\n  $$\n- next [[Link]] and **b**', 'x^2 - next Link and b'],
    ['1. Formula: $$\n   a_1+b\n   $$\n2. Then [[Link]]', '1. Formula: a_1+b 2. Then Link'],
    // A `$$` that nothing closes opens no block: `$$5` and a shell's `$$` are text, and the rest is read as usual.
    ['$$5 per unit.\n\nSee [[Link]] **now**', '$$5 per unit. See Link now'],
    ['kill $$ ends it\nthen [[Link]]', 'kill $$ ends it then Link'],
  ])('math %j → %j', (md, plain) => {
    expect(markdownLine(md)).toBe(plain);
  });

  it('keeps line structure in simplifyMarkdown', () => {
    expect(simplifyMarkdown('a **b**\nc')).toBe('a b\nc');
  });

  it('treats letters and numbers of any script as word characters around * and _', () => {
    expect(markdownLine('*café* and _日本語_ and naïve_name and x*𝐚*y and ٣*٤')).toBe('café and 日本語 and naïve_name and x*𝐚*y and ٣*٤');
    // The escaped * is shown without its backslash, and is no marker; the lone closer after it goes.
    expect(simplifyMarkdown('\\*escaped* and *\u3000spaced*')).toBe('*escaped and *\u3000spaced');
  });

  it('keeps unbalanced or stray markup as text instead of failing', () => {
    expect(markdownLine('[not a link and [[half')).toBe('[not a link and [[half');
    expect(markdownLine('**unclosed')).toBe('unclosed');
    expect(markdownLine('')).toBe('');
  });
});

describe('firstSentence', () => {
  it('stops at the first full stop followed by a new sentence', () => {
    expect(firstSentence('The module is small. It runs for years.')).toBe('The module is small.');
    expect(firstSentence('Is it small? Yes!')).toBe('Is it small?');
  });

  it('does not stop at an abbreviation or a version number', () => {
    expect(firstSentence('Use e.g. the T99 v1.2 radio. Next.')).toBe('Use e.g. the T99 v1.2 radio.');
  });

  it('does not stop before a lower-case letter of any script', () => {
    expect(firstSentence('Use e.g. élan here. Ωmega next.')).toBe('Use e.g. élan here.');
  });

  it('does not stop inside parentheses that close later: an inline footnote shown as an aside', () => {
    expect(firstSentence('This works^[Tested on v2. Not on v1.] in most setups. Next.')).toBe('This works (Tested on v2. Not on v1.) in most setups.');
    expect(firstSentence('本文^[脚注です。]です。次。')).toBe('本文（脚注です。）です。');
    expect(firstSentence('Privileges (e.g. USAGE) apply. Next.')).toBe('Privileges (e.g. USAGE) apply.');
    // A parenthesis opened after the stop, or never closed, holds nothing back.
    expect(firstSentence('Add the diagram. (Ideally) in Mermaid.')).toBe('Add the diagram.');
    expect(firstSentence('An open (aside. Then more')).toBe('An open (aside.');
  });

  it('stops at a Japanese full stop', () => {
    expect(firstSentence('LoRa通信モジュールの選定基準。各製品の比較。')).toBe('LoRa通信モジュールの選定基準。');
  });

  it('takes only the first list item or table row', () => {
    expect(firstSentence('- user: "I have been doing Python"\n- assistant: "Why?"')).toBe('user: "I have been doing Python"');
    expect(firstSentence('| 項目 | T99 |\n|---|---|\n| 周波数 | 150MHz |')).toBe('| 項目 | T99 |');
  });

  it('joins a wrapped paragraph and stops at a blank line', () => {
    expect(firstSentence('\n\nA sentence that\nwraps without a stop\n\nSecond paragraph.')).toBe('A sentence that wraps without a stop');
  });

  it('simplifies markdown and handles empty text', () => {
    expect(firstSentence('See [[guide|the guide]] for **details**. More.')).toBe('See the guide for details.');
    expect(firstSentence('It lasts[^1] with $q^{-1}$ applied. More.\n\n[^1]: Measured.')).toBe('It lasts with q^{-1} applied.');
    expect(firstSentence('')).toBe('');
    expect(firstSentence('   \n  ')).toBe('');
  });
});

describe('externalLinkLabels', () => {
  it.each([
    ['[the guide](https://example.com/a_(b)) here', 'the guide here'],
    ['[mail](<mailto:me@example.com>) and [open](obsidian://show-plugin?id=quickadd)', 'mail and open'],
    ['![diagram](img/x.png)', 'diagram'],
    ['[筐体メモ](collar%20enclosure.md) and [expenses](/handbook/finance/expenses/)', '[筐体メモ](collar%20enclosure.md) and [expenses](/handbook/finance/expenses/)'],
    ['[![badge](https://img.shields.io/x)](notes/a.md)', '[badge](notes/a.md)'],
    ['![GitHub stars](https://img.shields.io/github/stars/u/quickadd "stars")', 'GitHub stars'],
    ['[![badge](https://img.shields.io/x)](https://github.com/u/r)', 'badge'],
    ['[[lora-guide|the guide]] and <https://example.com> and **bold**', '[[lora-guide|the guide]] and <https://example.com> and **bold**'],
    ['no links at all', 'no links at all'],
  ])('%s', (md, out) => {
    expect(externalLinkLabels(md)).toBe(out);
  });
});

describe("a vault's reading of links (LinkReading)", () => {
  const dendron = { noteExtensions: ['.md'], labelFirst: true };
  const mdx = { noteExtensions: ['.md', '.mdx'], labelFirst: false };
  it.each([
    // Dendron writes the label first: the first pipe ends it, as the parser reads it (parse/links.ts).
    ['See [[Setup guide|project.setup]].', dendron, 'See Setup guide.'],
    ['[[Steps|project.setup#steps]] and [[project.setup#steps]]', dendron, 'Steps and project.setup > steps'],
    ['| [[Setup guide\\|project.setup]] |', dendron, '| Setup guide |'],
    ['an image ![[chart.png|a chart]]', dendron, 'an image chart.png'],
    ['See [[Setup guide|project.setup]].', DEFAULT_LINK_READING, 'See project.setup.'],
    // A note of another configured extension is embedded as a note, by its section; elsewhere it is a file.
    ['Read ![[page.mdx#Setup]] first.', mdx, 'Read page.mdx > Setup first.'],
    ['Read ![[page.mdx#Setup]] first.', DEFAULT_LINK_READING, 'Read page.mdx first.'],
    ['Read ![[notes.markdown#Setup]] first.', mdx, 'Read notes.markdown first.'],
  ])('%s', (md, links, out) => {
    expect(markdownLine(md, links)).toBe(out);
    expect(firstSentence(md, links)).toBe(out);
  });
});

describe("Obsidian's inline footnote ^[text]", () => {
  it.each([
    // Obsidian's help shows it so (Basic formatting syntax.md, in English and Japanese).
    ['You can also use inline footnotes. ^[This is an inline footnote.]', 'You can also use inline footnotes. (This is an inline footnote.)'],
    ['インライン脚注も使用できます。^[これはインライン脚注です。]', 'インライン脚注も使用できます。（これはインライン脚注です。）'],
    ['A claim^[see page 3] holds.', 'A claim (see page 3) holds.'],
    ['A claim^[see [[Note|the note]] and **this**] holds.', 'A claim (see the note and this) holds.'],
    // A regex in prose stays: no words apart nor a stop, a negated class, a range, a quantifier after it.
    ['Match lines with ^[A-Z] at the start.', 'Match lines with ^[A-Z] at the start.'],
    ['Use ^[a-z ]+ or ^[A-Z a-z] or ^[0-9 ]{3} or ^[Reviewers].', 'Use ^[a-z ]+ or ^[A-Z a-z] or ^[0-9 ]{3} or ^[Reviewers].'],
    // In code it is written out.
    ['code `^[This is an inline footnote.]` here', 'code ^[This is an inline footnote.] here'],
  ])('%s', (md, out) => {
    expect(markdownLine(md)).toBe(out);
  });
});
