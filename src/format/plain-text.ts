// Markdown reduced to the words a reader sees, for snippets and one-line summaries. Heuristic by
// design: a snippet only needs to read well, and nothing here can produce broken output.

const FENCE_LINE = /^[ \t]{0,3}(?:`{3,}|~{3,}).*$/gm;
// Table delimiter rows and thematic breaks: only dashes, colons and pipes.
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/gm;
const HEADING_MARK = /^[ \t]{0,3}#{1,6}[ \t]+/gm;
const QUOTE_MARK = /^[ \t]{0,3}(?:>[ \t]?)+/gm;
const WIKILINK = /!?\[\[([^\[\]\n|]*)(?:\|([^\[\]\n]*))?\]\]/g;
const MD_LINK = /!?\[([^\[\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g;
const INLINE_CODE = /(`+)([^`\n]+?)\1/g;
const STRONG = /\*\*|__|~~|==/g;
// A lone * or _ hugging a word on one side only: emphasis, not snake_case or arithmetic.
const EMPHASIS_OPEN = /(^|[^\p{L}\p{N}*_\\])[*_](?=[^\s*_])/gmu;
const EMPHASIS_CLOSE = /(?<=[^\s*_\\])[*_](?=$|[^\p{L}\p{N}*_])/gmu;

function wikilinkText(target: string, alias: string | undefined): string {
  if (alias !== undefined && alias.trim() !== '') return alias;
  const [page, ...headings] = target.split('#');
  return [page, ...headings].map((p) => p.trim()).filter(Boolean).join(' > ');
}

/** Markdown with link syntax, emphasis markers, fences, heading and quote markers removed; lines kept. */
export function simplifyMarkdown(md: string): string {
  return md
    .replace(/\r\n?/g, '\n')
    .replace(FENCE_LINE, '')
    .replace(TABLE_RULE, '')
    .replace(HEADING_MARK, '')
    .replace(QUOTE_MARK, '')
    .replace(WIKILINK, (_m, target: string, alias: string | undefined) => wikilinkText(target, alias))
    .replace(MD_LINK, (_m, label: string) => label)
    .replace(INLINE_CODE, (_m, _ticks: string, code: string) => code)
    .replace(STRONG, '')
    .replace(EMPHASIS_OPEN, '$1')
    .replace(EMPHASIS_CLOSE, '');
}

/** Runs of whitespace (newlines included) become one space; ends trimmed. */
export function collapseWhitespace(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

/** Markdown as one line of plain text. */
export function plainText(md: string): string {
  return collapseWhitespace(simplifyMarkdown(md));
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

// A full stop followed by space and not by a lower-case letter (so "e.g. the" does not end a
// sentence), or a CJK full stop anywhere.
const SENTENCE_END = /[.!?](?=\s+(?!\p{Ll})|$)|[。！？]/u;

/** The first sentence of a section's markdown, as plain text ('' when the section has no text). */
export function firstSentence(md: string): string {
  const block = collapseWhitespace(firstBlock(simplifyMarkdown(md).split('\n')))
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '');
  const end = SENTENCE_END.exec(block);
  return end ? block.slice(0, end.index + end[0].length) : block;
}
