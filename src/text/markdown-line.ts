// Markdown reduced to the words a reader sees, for snippets and one-line summaries. Heuristic by
// design: a snippet only needs to read well, and nothing here can produce broken output.
import { columns } from './columns.js';
import { labelledWikilink } from './wikilink-label.js';
import { namesFileNotNote } from './file-not-note.js';
import { isCjkCodePoint, isLetterOrNumber, isLowercaseLetter, isSpace } from './unicode.js';

// A code fence's opening or closing line, also inside a blockquote or callout (`> ```md`, as the callout's
// example shows its code) and indented in a list item (`    ```sh` under `1.`: the handbook's lab steps
// showed their ``` and read `$VAR/$VAR` as math): group 1 is the quote markers, group 2 the run of ` or ~,
// group 3 the rest.
const FENCE_OPEN = /^((?:[ \t]{0,3}>[ \t]?)*)[ \t]*(`{3,}|~{3,})(.*)$/;
// Code held out of the rewriting below (holdCode) is this mark, its index, and END_HELD: private-use
// characters, so no rule of markdown or emphasis touches it.
const HELD = '\uE000';
const END_HELD = '\uE001';
const HELD_MARK = /\uE000(\d+)\uE001/g;
// Table delimiter rows and thematic breaks: only dashes, colons and pipes.
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/gm;
// A thematic break of stars or underscores (`***`, `_ _ _`), which emphasis stripping would leave as a `*`.
const THEMATIC_BREAK = /^[ \t]{0,3}([*_-])(?:[ \t]*\1){2,}[ \t]*$/gm;
const HEADING_MARK = /^[ \t]{0,3}#{1,6}[ \t]+/gm;
const QUOTE_MARK = /^[ \t]{0,3}(?:>[ \t]?)+/gm;
// Obsidian's callout line (`> [!warning]- Title`, its quote marker gone): shown as its title, else its type
// as Obsidian titles it (`[!NOTE]` and `[!note]` are "Note").
const CALLOUT = /^\[!([A-Za-z0-9_-]+)\][+-]?[ \t]*(.*)$/gm;
// Obsidian's block id (`… ^my-block` ending a line): a link target, not shown.
const BLOCK_ID = /[ \t]+\^[A-Za-z0-9-]+[ \t]*$/gm;
// Logseq's: a block's `id:: <uuid>` property line, which Logseq hides, and a block reference `((<uuid>))`,
// which Logseq shows as the other block's text: neither is words a reader sees.
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const LOGSEQ_BLOCK_ID = new RegExp(`^[ \\t]*id:: ${UUID}[ \\t]*$`, 'gim');
const LOGSEQ_BLOCK_REF = new RegExp(`\\(\\(${UUID}\\)\\)`, 'gi');
// A footnote: its definition's label (`[^1]: ` opening a line), shown as the definition's text, and a
// reference (`[^1]`, `[^note]`), a small marker a line of text leaves out (renumbered in Obsidian, and its
// definition is mostly cut off: `long[^1] and` reads `long and`, `使用します [^2]。` reads `使用します。`, with
// the space before it). A regex's negated class is text:
// `[^a-z]+`, `[^0-9]{2}` are quantified, `[^ ]` holds a space, `^[^*]` follows an anchor; and see
// footnoteReference. Group 1: a reference's space before it; group 2: its label.
const FOOTNOTE = /^[ \t]{0,3}\[\^[^\s\[\]]+\]:[ \t]*|([ \t]*)(?<!\^)\[\^([^\s\[\]]+)\](?![(*+?{])/gm;
const FOOTNOTE_DEFINITION = /^[ \t]{0,3}\[\^([^\s\[\]]+)\]:/gm;
const NUMBER = /^\d+$/;
// ASCII punctuation but `-` and `_`, which no label in the eval corpora holds (`[^1]`, `[^note]`,
// `[^blueprint-dr]`, `[^footnote-01]`) and a regex's class does (`[^/]`, `[^:]`, `[^*]`, `[^.,]`).
const NOT_IN_LABEL = /[!-,.\/:-@\\^`{-~]/;
const ASCII_WORD = /^[A-Za-z]+$/;
// Obsidian's inline footnote (`long.^[A note.]`, `使用します。^[脚注です。]`): its text is right there, and a
// snippet shows it in parentheses, as a reader of one line takes an aside. `^[` is also a regex in prose
// (`^[A-Z]`, `^[^*]`, `^[a-z ]+`): in the eval corpora every `^[` is in code (held before this), but a note
// may write one outside: so only text that reads as words is a footnote, words apart (`\S \S`) or a
// sentence's stop at its end, with no `^` opening it, no backslash, no range (`A-Z`, `0-9`), and nothing a
// pattern goes on with after it (`+`, `*`, `?`, `{`, `(`). Group 1: the space before it; group 2: its text.
const INLINE_FOOTNOTE = /([ \t]*)\^\[([^\[\]\n^\\][^\[\]\n\\]*)\](?![(*+?{])/g;
const FOOTNOTE_WORDS = /\S[ \t]+\S|[.!?。！？]$/;
// ASCII, not \p{L}: property escapes cost every process milliseconds to compile (src/text/unicode.ts).
const CHARACTER_RANGE = /(?:^|[^A-Za-z0-9])[A-Za-z0-9]-[A-Za-z0-9](?![A-Za-z0-9])/;
// An autolink (`<https://example.com>`): shown as its address.
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>/g;
const WIKILINK = /(!?)\[\[([^\[\]\n|]*)(?:\|([^\[\]\n]*))?\]\]/g;
const MD_LINK = /!?\[([^\[\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g;
// A backslash escape (`\*`, `\[`: group 1, the character shown), a code span (group 3, its text) or math
// (group 4, its formula), whichever starts first: an escaped backtick opens no span, and a span's backslashes
// are text. `\|` stays as it is, for a wikilink in a table (`[[a\|b]]`) to keep its alias; ESCAPED_PIPE shows
// it as `|` after the links. A span opens and closes with whole runs of the same length, so it may hold
// shorter or longer ones (`` `code` ``, `` ``` ``); a run is whole when no backtick is next to it (one escaped
// before it is text). Math is `$$…$$` on one line, or `$…$` by Obsidian's rule: no space after the opening
// `$`, none (nor a backslash) before the closing one, and no digit after it, so `$5 and $10` is no math.
const ESCAPE_CODE_OR_MATH =
  /\\([!-\/:-@\[-`{}~^_])|(?<=^|[^`]|\\`)(`+)(?!`)(.+?)(?<!`)\2(?!`)|\$\$(.+?)\$\$|\$(?=[^\s$])([^$\n]*?[^\s$\\])\$(?!\d)/g;
const ESCAPED_PIPE = /\\\|/g;
const STRONG = /\*\*|__|~~|==/g;

// A link destination with a scheme (`https:`, `obsidian:`, `mailto:`), optionally in angle brackets.
const EXTERNAL_DESTINATION = /^\]\(\s*<?[A-Za-z][A-Za-z0-9+.-]{1,31}:/;

/**
 * Images and links that leave the vault as their label (an image's alt text, a link's text), without the
 * address: a reader sees neither the URL nor the words in it. A link to a note (`[筐体メモ](collar%20enclosure.md)`,
 * `(/handbook/finance/expenses/)`) keeps its target, which names that note as a wikilink's target does.
 * A badge inside a link (`[![alt](img)](url)`) takes a second round. Everything else is kept as written.
 */
export function externalLinkLabels(md: string): string {
  if (md.indexOf('](') === -1) return md;
  return linkLabels(md, (m, label) => m.startsWith('!') || EXTERNAL_DESTINATION.test(m.slice(label.length + 1)));
}

/**
 * The markdown links and images `which` picks (every one by default) as their labels, in rounds: a linked
 * image (`[![alt](img)](url)`) takes a second, after its image.
 */
function linkLabels(text: string, which: (match: string, label: string) => boolean = () => true): string {
  for (let round = 0; round < 3; round++) {
    const next = text.replace(MD_LINK, (m: string, label: string) => {
      if (!which(m, label)) return m;
      return m.startsWith('!') ? withoutSize(label) : label;
    });
    if (next === text) break;
    text = next;
  }
  return text;
}

// Obsidian's image size after an image's alt text or embed (`![[chart.png|640x480]]`, `![alt|100](…)`), not shown.
const IMAGE_SIZE = /(?:^|\|)[ \t]*\d+(?:[ \t]*x[ \t]*\d+)?[ \t]*$/;

/**
 * How the vault's links read, as its notes were read (search/link-reading.ts makes it once per search from
 * the index's recorded reading settings): its note extensions (lower case, with the dot: an embed of
 * `page.mdx#Setup` is a note's section where `.mdx` is one, else the file `page.mdx`), and whether a labelled
 * wikilink is written label first (Dendron's `[[Setup guide|project.setup]]`, src/vault/dendron.ts).
 */
export interface LinkReading {
  noteExtensions: readonly string[];
  labelFirst: boolean;
}

/** Where no vault is known: Obsidian's way, and the two extensions a note is commonly given. */
export const DEFAULT_LINK_READING: LinkReading = Object.freeze({ noteExtensions: Object.freeze(['.md', '.markdown']), labelFirst: false });

function withoutSize(label: string): string {
  return label.replace(IMAGE_SIZE, '');
}

/**
 * A wikilink as Obsidian shows it: its alias, else its target and headings. An embedded file (an image, a PDF,
 * a canvas) shows as its name: what follows `#` (`#icon`, `#page=3`) is no heading, and a size is no alias.
 * An embedded block (`![[Note#^abc123]]`) shows as its note: Obsidian shows the block there, never its id
 * (a block's link, `[[Note#^abc123]]`, it shows as `Note > ^abc123`, and so does this).
 */
function wikilinkText(bang: string, first: string, second: string | undefined, links: LinkReading): string {
  // A wikilink in a table escapes its pipe (`[[a\|b]]`): the backslash is none of the part before it.
  const before = second === undefined ? first : first.replace(/\\$/, '');
  // Dendron's label comes first: the parser's rule (parse/links.ts parseWikilinkContent), read for display.
  const { target, label: alias } = second === undefined ? { target: first, label: undefined } : labelledWikilink(before, second, links.labelFirst);
  const [page, ...headings] = target.split('#');
  if (bang === '!' && namesFileNotNote(page, links.noteExtensions)) {
    const alt = withoutSize(alias ?? '').trim();
    return alt !== '' ? alt : page.trim();
  }
  if (alias !== undefined && alias.trim() !== '') return alias;
  const shown = bang === '!' ? headings.filter((h) => !h.trim().startsWith('^')) : headings;
  return [page, ...shown].map((p) => p.trim()).filter(Boolean).join(' > ');
}

/**
 * Markdown with raw HTML, link syntax (autolinks too), emphasis markers, fences, heading and quote markers, callout
 * markers, footnote markers, block ids (Obsidian's, Logseq's) and Logseq block references removed; lines kept. `keepHtml`: raw
 * HTML stays as written (for text that is nothing else: dropHtml).
 */
export function simplifyMarkdown(md: string, keepHtml = false, links: LinkReading = DEFAULT_LINK_READING): string {
  const lf = md.replace(/\r\n?/g, '\n');
  const held: string[] = [];
  const text = holdCode(keepHtml ? lf : dropHtml(lf), held)
    .replace(TABLE_RULE, '')
    .replace(THEMATIC_BREAK, '')
    .replace(HEADING_MARK, '')
    .replace(QUOTE_MARK, '')
    .replace(CALLOUT, (_m, type: string, title: string) => title || type[0].toUpperCase() + type.slice(1).toLowerCase())
    .replace(BLOCK_ID, '')
    .replace(FOOTNOTE, footnoteReference)
    .replace(LOGSEQ_BLOCK_ID, '')
    .replace(LOGSEQ_BLOCK_REF, '')
    .replace(WIKILINK, (_m, bang: string, first: string, second: string | undefined) => wikilinkText(bang, first, second, links))
    .replace(ESCAPED_PIPE, '|');
  const plain = stripEmphasis(inlineFootnotes(linkLabels(text)).replace(AUTOLINK, '$1').replace(STRONG, ''));
  return held.length === 0 ? plain : plain.replace(HELD_MARK, (_m, i: string) => held[Number(i)]);
}

/**
 * FOOTNOTE's replacement: a definition's label and a reference are dropped, but for a reference that cannot
 * be one. Obsidian shows `[^x]` as written when the note defines no `[^x]:`, and a snippet sees one section,
 * not the note: in the eval corpora 194 of 258 references are defined in another section (the index records
 * no definitions; reading the note per search is what a snippet must not do). So a reference is kept as
 * written only when this text does not define it and its label is unlike a footnote's: it holds punctuation
 * (`[^/]`, `[^:]`), a range (`[^a-z]`), or it is one ASCII word standing apart (`match it with [^abc] first`)
 * or opening a group (`([^abc])`: a reference follows its word, not a parenthesis).
 * A number (189 of the 258), a compound (`[^blueprint-dr]`, defined elsewhere) and a word after its word
 * (`footnotes[^footnote]`) stay footnotes wherever they are defined: no reference in the corpora is kept.
 */
function footnoteReference(m: string, space: string | undefined, label: string | undefined, at: number, text: string): string {
  if (label === undefined || NUMBER.test(label)) return '';
  const unlike = NOT_IN_LABEL.test(label) || CHARACTER_RANGE.test(label) || (ASCII_WORD.test(label) && (space !== '' || at === 0 || text[at - 1] === '\n' || text[at - 1] === '('));
  if (!unlike) return '';
  for (const d of text.matchAll(FOOTNOTE_DEFINITION)) if (d[1] === label) return '';
  return m;
}

/**
 * Inline footnotes (INLINE_FOOTNOTE) as an aside: ` (text)`, and `（text）` for CJK text written close, as it
 * puts no space before an aside. After the links, so a link in one (`^[see [[Note]]]`) is its text by then.
 */
function inlineFootnotes(text: string): string {
  if (text.indexOf('^[') === -1) return text;
  return text.replace(INLINE_FOOTNOTE, (m: string, space: string, note: string) => {
    if (!FOOTNOTE_WORDS.test(note.trim()) || CHARACTER_RANGE.test(note)) return m;
    if (space === '' && isCjkCodePoint(note.trim().codePointAt(0)!)) return `（${note.trim()}）`;
    return ` (${note.trim()})`;
  });
}

/** The fence a line opens or closes (its run of ` or ~, and the quote markers before it), or null. */
function fenceOf(line: string): { quotes: number; run: string; rest: string } | null {
  const m = FENCE_OPEN.exec(line);
  if (m === null || (m[2][0] === '`' && m[3].includes('`'))) return null; // a backtick fence's info has none
  return { quotes: quoteCount(m[1]), run: m[2], rest: m[3] };
}

const QUOTE_PREFIX = /^(?:[ \t]{0,3}>[ \t]?)*/;

function quoteCount(prefix: string): number {
  return prefix.split('>').length - 1;
}

// A list item's line: its marker's indentation (group 1), its marker (group 2) and the spaces before its
// text (group 3; none for an empty item).
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:([ \t]+)\S|[ \t]*$)/;
const INDENT = /^[ \t]*/;

/**
 * A reader of fenced code, line by line: each line is a fence line (opening or closing), a line of code
 * (without the quote markers of a quoted fence, as a reader sees it), or text (null). A fence closes on
 * the same character, at least as many, nothing after; a quoted one also where its quote ends.
 * A line indented 4 columns or more past its quote opens a fence only inside a list item, less than 4 past
 * the item's text (`    ```sh` under `1. `, as the handbook writes its lab steps; all 666 such lines in the
 * eval corpora follow a list item): elsewhere it is indented code, or a paragraph's next line (CommonMark),
 * and a ``` in it read as a fence made the rest of the section code. The list items still open are the
 * columns their text starts at: a line at a smaller column ends them, after a blank line (before one it
 * continues the paragraph), and so does a fence there or another item's marker. Where the text opens (no
 * line before it) an indented fence is still one, and an indented line of text is an item's text at its
 * column: a chunk of a long section may start inside a list item (parse/chunk.ts cuts at blank lines), on
 * the fence or on a paragraph before it.
 */
function fenceReader(): (line: string) => 'fence' | { code: string } | null {
  let open: { quotes: number; run: string } | null = null;
  const lists: number[] = [];
  let blank = false;
  let first = true;
  const close = (col: number) => {
    while (lists.length > 0 && lists[lists.length - 1] > col) lists.pop();
  };
  return (line) => {
    const fence = fenceOf(line);
    if (open !== null && open.quotes > 0 && quoteCount(QUOTE_PREFIX.exec(line)![0]) < open.quotes) open = null;
    if (open === null) {
      const rest = line.slice(QUOTE_PREFIX.exec(line)![0].length);
      if (rest.trim() === '') {
        blank = true;
        return null;
      }
      const item = LIST_ITEM.exec(rest);
      const indent = columns(INDENT.exec(rest)![0]);
      const wasFirst = first;
      first = false;
      if (fence !== null) {
        blank = false;
        close(indent);
        if (indent >= 4 && !wasFirst && (lists.length === 0 || indent - lists[lists.length - 1] >= 4)) return null;
        open = fence;
        return 'fence';
      }
      if (item !== null) {
        close(indent);
        const marker = indent + item[2].length;
        const text = item[3] === undefined ? marker + 1 : columns(item[3], marker);
        // CommonMark: an item's text starts 1 to 4 columns after its marker; one further away is indented
        // code, and the item's text starts 1 after it, as for an empty item.
        lists.push(text - marker <= 4 ? text : marker + 1);
      } else if (wasFirst && indent > 0) lists.push(indent);
      else if (blank) close(indent);
      blank = false;
      return null;
    }
    if (fence !== null && fence.run[0] === open.run[0] && fence.run.length >= open.run.length && fence.rest.trim() === '') {
      open = null;
      return 'fence';
    }
    return { code: unquote(line, open.quotes) };
  };
}

/** The line without its first `quotes` blockquote markers. */
function unquote(line: string, quotes: number): string {
  let out = line;
  for (let q = 0; q < quotes; q++) {
    const m = /^[ \t]{0,3}>[ \t]?/.exec(out);
    if (m === null) break;
    out = out.slice(m[0].length);
  }
  return out;
}

/** A code span's text as CommonMark shows it: one space off each end when both have one (`` `` `x` `` ``). */
function spanText(code: string): string {
  return code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '' ? code.slice(1, -1) : code;
}

/**
 * Code and math as a reader sees them, written out and never read as markdown: each code span's text, each
 * line of fenced code and each formula (without its `$` or `$$`: a snippet shows `q^{-1}`, not `$q^{-1}$`) is
 * put in `held` and replaced by a mark (a line of a note about markdown shows `[[#Heading]]` or `** **` as
 * written, not as a link or emphasis; a formula keeps its `\\` and `x_1`); fence lines are dropped. A
 * backslash escape is held the same way, as the character it shows (`\[\[x\]\]` is `[[x]]`, no link).
 */
function holdCode(md: string, held: string[]): string {
  if (md.indexOf('`') === -1 && md.indexOf('~~~') === -1 && md.indexOf('\\') === -1 && md.indexOf('$') === -1) return md;
  const hold = (code: string): string => (code === '' ? '' : `${HELD}${held.push(code) - 1}${END_HELD}`);
  const inline = (text: string): string =>
    text.replace(ESCAPE_CODE_OR_MATH, (_m, escaped: string | undefined, _ticks, code: string | undefined, display: string | undefined, math: string | undefined) =>
      hold(escaped ?? (code !== undefined ? spanText(code) : (display ?? math)!)),
    );
  const lines = md.split('\n');
  const read = fenceReader();
  // The last line holding a `$$`: a display math block opens only where one follows to close it.
  let lastDollars = -1;
  for (let i = lines.length - 1; i >= 0 && lastDollars < 0; i--) if (lines[i].indexOf('$$') !== -1) lastDollars = i;
  // The quote depth of the display math open, else null.
  let math: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (math !== null && math > 0 && quoteCount(QUOTE_PREFIX.exec(lines[i])![0]) < math) math = null;
    if (math !== null) {
      // A line of the formula, up to its closing `$$`; its quote markers stay for QUOTE_MARK.
      const body = unquote(lines[i], math);
      const quotes = lines[i].slice(0, lines[i].length - body.length);
      const close = body.indexOf('$$');
      if (close === -1) lines[i] = quotes + hold(body);
      else {
        lines[i] = quotes + hold(body.slice(0, close)) + inline(body.slice(close + 2));
        math = null;
      }
      continue;
    }
    const line = read(lines[i]);
    if (line === 'fence') lines[i] = '';
    else if (line !== null) lines[i] = hold(line.code);
    else {
      const open = i < lastDollars ? displayMathOpening(lines[i]) : -1;
      if (open !== -1) {
        math = quoteCount(QUOTE_PREFIX.exec(lines[i])![0]);
        lines[i] = inline(lines[i].slice(0, open)) + hold(lines[i].slice(open + 2));
      } else lines[i] = inline(lines[i]);
    }
  }
  return lines.join('\n');
}

/**
 * Where a line opens display math that a later line closes: its first `$$` outside a backslash escape, a
 * code span and one-line math (ESCAPE_CODE_OR_MATH), on a line of its own or after text or a list marker
 * (`- $$`, `Formula: $$`: the closing `$$` line was read as an opener, and the text after it as a formula).
 * -1 when there is none.
 */
function displayMathOpening(line: string): number {
  if (line.indexOf('$$') === -1) return -1;
  let from = 0;
  for (const m of line.matchAll(ESCAPE_CODE_OR_MATH)) {
    const at = line.indexOf('$$', from);
    if (at !== -1 && at < m.index) return at;
    from = m.index + m[0].length;
  }
  return line.indexOf('$$', from);
}

// A tag as CommonMark's raw HTML reads one (`<td align="left">`, `</a>`, `<br/>`), never an autolink
// (`<https://…>`, `<a@b.c>`: no space, / or > after the name). Group 2: the name; group 3: attributes.
const HTML_TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)(\s[^<>]*)?\/?>/g;
// Tags inside a line of text; any other tag (br, p, div, td, li …) stands between words.
const PHRASING_TAGS = new Set(
  'a abbr b bdi bdo button cite code data del dfn em font i ins kbd mark q s samp small span strong sub sup time u var'.split(' '),
);
// Elements written in notes as HTML. A bare `<path>`, `<name>` or `<tags>` in prose is far more often a
// placeholder than an element, so a tag without attributes is markup only when its name is one of these.
const HTML_ELEMENTS = new Set([
  ...PHRASING_TAGS,
  ...'address article aside audio blockquote br caption center col colgroup dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr iframe img li main nav ol p picture pre section summary svg table tbody td tfoot th thead tr ul video'.split(' '),
]);

/**
 * Raw HTML as a reader sees it rendered: comments (over lines too) hidden, tags dropped and the text
 * between them kept; a tag that breaks text (`<br>`, `<td>`) leaves a space. Fenced code and code spans
 * are kept as written: a note about HTML shows its examples. Lines are kept.
 */
export function dropHtml(md: string): string {
  if (md.indexOf('<') === -1) return md;
  const lines = md.split('\n');
  const read = fenceReader();
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inComment && (read(line) !== null || line.indexOf('<') === -1)) continue;
    let out = '';
    let pos = 0;
    while (pos < line.length) {
      if (inComment) {
        const end = line.indexOf('-->', pos);
        if (end === -1) break;
        inComment = false;
        pos = end + 3;
        continue;
      }
      const comment = line.indexOf('<!--', pos);
      const tick = line.indexOf('`', pos);
      const next = comment === -1 ? tick : tick === -1 ? comment : Math.min(comment, tick);
      if (next === -1) {
        out += dropTags(line.slice(pos));
        break;
      }
      out += dropTags(line.slice(pos, next));
      if (next === comment) {
        inComment = true;
        pos = next + 4;
        continue;
      }
      // A code span, up to the same run of backticks (or the line's end), as written.
      let after = next;
      while (line.charCodeAt(after) === 0x60) after++;
      const close = line.indexOf(line.slice(next, after), after);
      const end = close === -1 ? line.length : close + (after - next);
      out += line.slice(next, end);
      pos = end;
    }
    lines[i] = out;
  }
  return lines.join('\n');
}

function dropTags(s: string): string {
  if (s.indexOf('<') === -1) return s;
  return s.replace(HTML_TAG, (tag: string, _slash: string, name: string, attributes: string | undefined, at: number) => {
    const lower = name.toLowerCase();
    if (!HTML_ELEMENTS.has(lower) && !attributes?.trim()) return tag;
    // `\<b>` is the text `<b>` (CommonMark: an escaped `<` opens no tag); the escape is read later (holdCode).
    if (isEscaped(s, at)) return tag;
    return PHRASING_TAGS.has(lower) ? '' : ' ';
  });
}

/** True when the character at `at` follows an odd run of backslashes: a backslash escape. */
function isEscaped(s: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && s.charCodeAt(at - n - 1) === 0x5c) n++;
  return n % 2 === 1;
}

// A lone * or _ hugging a word on one side only is emphasis, not snake_case or arithmetic. Openers were
// removed by .replace(/(^|[^{L}{N}*_\\])[*_](?=[^\s*_])/gmu, '$1'), then closers by
// .replace(/(?<=[^\s*_\\])[*_](?=$|[^{L}{N}*_])/gmu, '') ({L}, {N}: the letter and number property
// escapes). They are code-point loops now, as V8 compiles property escapes slowly enough to cost every
// process milliseconds (src/text/unicode.ts). Same result: a match is one marker, plus for an opener the
// character before it, never a marker; so no match takes what another needs, and each marker is judged
// on its own against the text of its pass.

function isMarker(unit: number): boolean {
  return unit === 0x2a || unit === 0x5f; // * _
}

/** The code point that ends just before index i (i > 0), as a regex with the u flag reads it. */
function codePointBefore(s: string, i: number): number {
  const low = s.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = s.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

/** OPEN: the marker at i opens emphasis (before a non-space) at the text start or after a non-word character. */
function opensEmphasis(s: string, i: number): boolean {
  if (i + 1 >= s.length) return false;
  const next = s.charCodeAt(i + 1);
  if (isSpace(next) || isMarker(next)) return false;
  // A line start (^ with the m flag) also follows a line terminator, which is never a word character.
  if (i === 0) return true;
  const prev = codePointBefore(s, i);
  return !(isLetterOrNumber(prev) || isMarker(prev) || prev === 0x5c);
}

/** CLOSE: the marker at i closes emphasis (after a non-space) at the text end or before a non-word character. */
function closesEmphasis(s: string, i: number): boolean {
  if (i === 0) return false;
  const prev = s.charCodeAt(i - 1);
  if (isSpace(prev) || isMarker(prev) || prev === 0x5c) return false;
  // A line end ($ with the m flag) is also a line terminator, which is never a word character.
  if (i + 1 === s.length) return true;
  const next = s.codePointAt(i + 1)!;
  return !(isLetterOrNumber(next) || isMarker(next));
}

/** The text without the markers `drop` picks, each judged against the unchanged text. */
function dropMarkers(s: string, drop: (s: string, i: number) => boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (isMarker(s.charCodeAt(i)) && drop(s, i)) {
      out += s.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Lone * and _ emphasis markers removed: openers first, then closers in what is left. */
export function stripEmphasis(s: string): string {
  return dropMarkers(dropMarkers(s, opensEmphasis), closesEmphasis);
}

/** Runs of whitespace (newlines included) become one space; ends trimmed. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

/**
 * Markdown as one line of plain text. Text that is all hidden HTML (a template's commented-out lines)
 * keeps it: a snippet that shows nothing would not say why its note matched.
 */
export function markdownLine(md: string, links: LinkReading = DEFAULT_LINK_READING): string {
  const line = collapseWhitespace(simplifyMarkdown(md, false, links));
  return line === '' && md.indexOf('<') !== -1 ? collapseWhitespace(simplifyMarkdown(md, true, links)) : line;
}

const BLOCK_START = /^[ \t]*(?:[-*+][ \t]|\d+[.)][ \t]|\|)/;

/** The first paragraph, or the first line when the text opens with a list item or table row. */
function firstBlock(lines: string[]): string {
  const start = lines.findIndex((l) => l.trim() !== '');
  if (start < 0) return '';
  if (BLOCK_START.test(lines[start])) return lines[start];
  const out = [lines[start]];
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].trim() === '' || BLOCK_START.test(lines[i])) break;
    out.push(lines[i]);
  }
  return out.join(' ');
}

/**
 * Where the first sentence of the text ends (just past its stop), or -1: a full stop, ! or ? at the
 * end or followed by a space that is not followed by a lower-case letter (so "e.g. the" does not end a
 * sentence), or a CJK full stop anywhere. A loop, not a regex: lower case needs a Unicode property
 * escape, slow to compile. Same result as /[.!?](?=\s+(?!{Ll})|$)|[。！？]/u: its \s+ backtracks, so
 * only the character after the first space matters, and a space is never lower case.
 */
export function sentenceEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u === 0x3002 || u === 0xff01 || u === 0xff1f) return i + 1; // 。！？
    if (u !== 0x2e && u !== 0x21 && u !== 0x3f) continue; // . ! ?
    if (i + 1 === s.length) return i + 1;
    if (isSpace(s.charCodeAt(i + 1)) && (i + 2 === s.length || !isLowercaseLetter(s.codePointAt(i + 2)!))) return i + 1;
  }
  return -1;
}

/** The first sentence of a section's markdown, as plain text ('' when the section has no text). */
export function firstSentence(md: string, links: LinkReading = DEFAULT_LINK_READING): string {
  const block = collapseWhitespace(firstBlock(simplifyMarkdown(md, false, links).split('\n')))
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '');
  const end = sentenceEndOutsideParentheses(block);
  return end >= 0 ? block.slice(0, end) : block;
}

/**
 * sentenceEnd, past any stop inside parentheses that close later: an inline footnote shown as an aside
 * (`works^[Tested on v2. Not v1.] here.` reads `works (Tested on v2. Not v1.) here.`) cut the first sentence
 * inside it, `works (Tested on v2.`. An unclosed parenthesis holds no stop back.
 */
function sentenceEndOutsideParentheses(s: string): number {
  let from = 0;
  for (;;) {
    const rel = sentenceEnd(from === 0 ? s : s.slice(from));
    if (rel < 0) return -1;
    const end = from + rel;
    const close = closingParenthesis(s, from, end);
    if (close < 0) return end;
    from = close + 1;
  }
}

/** Where the parenthesis left open between `from` and `at` closes after `at` (`(`/`)`, `（`/`）`), or -1. */
function closingParenthesis(s: string, from: number, at: number): number {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    if (i === at && depth === 0) return -1;
    const c = s.charCodeAt(i);
    if (c === 0x28 || c === 0xff08) depth++;
    else if ((c === 0x29 || c === 0xff09) && depth > 0 && --depth === 0 && i >= at) return i;
  }
  return -1;
}
