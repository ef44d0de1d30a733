// The HTML elements a piece of markdown leaves open, read without a parser: text put inside a larger document
// (the md format's details, which a budget or a long section's chunking may cut inside a `<details>`) must
// close them, or an HTML renderer (GitHub, Obsidian's preview) nests everything after it, every later result,
// inside the open element. Markdown's own blocks (fences, HTML blocks that a line ends) are markdown-blocks.ts.
import { ELLIPSIS } from './chars.js';
import { BLOCK_TAG_NAMES } from './markdown-blocks.js';

/** Elements that have no end tag: never open. */
const VOID = new Set('area base basefont br col embed frame hr img input keygen link meta param source track wbr'.split(' '));
/**
 * Elements the next result's `## Result` heading (an `<h2>`) closes itself, or that a document has once:
 * closing them adds only noise.
 */
const SELF_ENDING = new Set('p h1 h2 h3 h4 h5 h6 html head body frameset noframes title'.split(' '));
/**
 * In a paragraph a tag is inline HTML inside its `<p>`, which the paragraph's end closes, except a block tag
 * (a browser ends the `<p>` before it, so it stays open after it) and a formatting element (a browser opens it
 * again in each later paragraph: the rest of the answer is bold). `Vec<String>` opens nothing.
 */
const FORMATTING = new Set('a b big code em font i nobr s small strike strong tt u'.split(' '));

/** An open or end tag (group 1 the slash, 2 the name, 3 a self-closing slash); quoted `>` in attributes aside. */
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)(?:[ \t][^<>]*?)?(\/?)>/g;
/** Code spans (a run of backticks to the same run) and backslash-escaped `<`: no HTML in either. */
const NOT_HTML = /(`+)[^`][\s\S]*?\1(?!`)|\\</g;

/**
 * Updates `open` (the names of the elements open so far, outermost first) with one line's tags. `html`: the
 * line is raw HTML (an HTML block's), where any element stays open; else it is a paragraph's text.
 */
export function readTags(line: string, html: boolean, open: string[]): void {
  const text = html ? line : line.replace(NOT_HTML, ' ');
  for (const m of text.matchAll(TAG)) {
    const name = m[2].toLowerCase();
    if (m[1] === '/') {
      // An end tag closes its element and every one opened inside it; one with nothing to close is ignored.
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else if (m[3] !== '/' && !VOID.has(name) && !SELF_ENDING.has(name) && (html || BLOCK_TAG_NAMES.has(name) || FORMATTING.has(name))) {
      open.push(name);
    }
  }
}

/** The end tags that close `open`, innermost first, on one line (`</summary></details>`); '' for none. */
export function closingTags(open: readonly string[]): string {
  return [...open].reverse().map((name) => `</${name}>`).join('');
}

/** A tag's start that a cut (truncateText) ended inside, before its `…`: `<div class="a b…`. */
const CUT_TAG = new RegExp(`</?[A-Za-z][^<>\\n]*(?=${ELLIPSIS}$)`);

/**
 * `cut` (text truncateText ended with `…`) without a tag it ended inside: a renderer read everything after
 * `<div class="a b…`, the later results too, as that tag's attribute, and showed none of it.
 */
export function withoutCutTag(cut: string): string {
  return cut.replace(CUT_TAG, '');
}
