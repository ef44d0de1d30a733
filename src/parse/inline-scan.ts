// One pass over a run of text lines (never code or HTML blocks) that finds wikilinks, embeds, markdown
// links and inline #tags, skipping code spans, autolinks and inline HTML. Block structure comes from
// remark-parse (structure.ts); this scanner only needs the inline rules that decide what is a link.
import { CodeSpans } from '../text/code-span.js';

export interface InlineSink {
  /** `offset` is the position in the scanned text of the link's first character. */
  wikilink(content: string, embed: boolean, offset: number): void;
  markdownLink(label: string, destination: string, image: boolean, offset: number): void;
  tag(name: string): void;
}

const INTERESTING = /[\\`[!#<]/g;
// What a tag is made of: letters, digits and marks of any script, `_`, `-`, `/`, and emoji, which Obsidian's
// tags hold too (`#🚀`, `#📚/to-read`, `#done✅`: its tag ends only at whitespace and punctuation): a tag of an
// emoji was no tag, and `#done✅` was `done`. Pictographs, with the skin tones and the flags' regional
// indicators; a variation selector and a keycap are marks. The zero-width joiner is none (Obsidian's tag ends
// at it, in the General Punctuation block), so a joined emoji's tag (`#👨‍👩‍👧`) ends at its first part there and here.
const TAG_CHAR = '\\p{L}\\p{N}\\p{M}\\p{Extended_Pictographic}\\u{1F1E6}-\\u{1F1FF}\\u{1F3FB}-\\u{1F3FF}_\\-/';
const TAG_BODY = new RegExp(`[${TAG_CHAR}]+`, 'uy');
const TAG_HAS_WORD = /[^0-9_\-/]/;
// Bear's closed form, a tag of several words: `#travel plans#`, `#nested/tag with space#`. What follows a
// tag's first word: words of tag characters one space apart, then `#` at once, and no tag character or `#`
// after it. No word may be a lone capital letter before the `#`: `#backend to C#` names the language (so do
// F#, J#; and C#, G# are notes), not a tag `backend to c`. In 11,497 notes of the bundled corpora (Obsidian
// Hub, Obsidian Help in English and Japanese, the handbook) the form occurs nowhere, so reading it in every
// vault changes nothing there.
const CLOSED_TAG_REST = new RegExp(`(?: [${TAG_CHAR}]+)+#(?![${TAG_CHAR}#])`, 'uy');
const LONE_CAPITAL = / [A-Z]#$/;
const WHITESPACE = /\s/;
const AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>|<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+>/y;
const INLINE_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/y;
/** Destinations and titles longer than this are not links (keeps unbalanced input linear). */
const MAX_DESTINATION = 2048;
/** CommonMark's limit on nested parentheses in a destination. */
const MAX_PARENS = 32;

export function scanInline(text: string, sink: InlineSink): void {
  if (text.indexOf('[') === -1 && text.indexOf('#') === -1) return;
  const spans = new CodeSpans(text);
  const brackets = new Brackets(text, spans);
  const ahead = new Lookahead(text);
  const re = INTERESTING;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const p = m.index;
    let next = p + 1;
    switch (text.charCodeAt(p)) {
      case 0x5c /* \ */:
        next = p + 2;
        break;
      case 0x60 /* ` */:
        next = spans.skip(p);
        break;
      case 0x21 /* ! */:
        if (text.charCodeAt(p + 1) === 0x5b) next = link(text, p + 1, true, brackets, ahead, sink);
        break;
      case 0x5b /* [ */:
        next = link(text, p, false, brackets, ahead, sink);
        break;
      case 0x23 /* # */:
        next = tag(text, p, sink);
        break;
      case 0x3c /* < */:
        if (text.startsWith('<!--', p)) next = ahead.after('-->', p + 4) ?? p + 1;
        else next = skipMatch(AUTOLINK, text, p) ?? skipMatch(INLINE_TAG, text, p) ?? p + 1;
        break;
    }
    re.lastIndex = Math.max(next, p + 1);
  }
}

function link(text: string, p: number, bang: boolean, brackets: Brackets, ahead: Lookahead, sink: InlineSink): number {
  const start = bang ? p - 1 : p;
  if (text.charCodeAt(p + 1) === 0x5b) {
    // A wikilink closes on the same line; with `[[` nested inside, the innermost one is the link.
    const end = ahead.after(']]', p + 2);
    const close = end === undefined ? -1 : end - 2;
    if (close === -1 || ahead.newlineBefore(p + 2, close)) return p + 2;
    const inner = ahead.after('[[', p + 2);
    if (inner !== undefined && inner - 2 < close) return p + 1;
    sink.wikilink(text.slice(p + 2, close), bang, start);
    return end as number;
  }
  const parsed = parseInlineLink(text, p, brackets.closeOf(p));
  if (!parsed) return p + 1;
  sink.markdownLink(parsed.label, parsed.destination, bang, start);
  return parsed.end;
}

function tag(text: string, p: number, sink: InlineSink): number {
  if (p > 0 && !WHITESPACE.test(text[p - 1])) return p + 1;
  TAG_BODY.lastIndex = p + 1;
  const m = TAG_BODY.exec(text);
  if (!m) return p + 1;
  const name = m[0].replace(/^\/+|\/+$/g, '');
  if (!TAG_HAS_WORD.test(name)) return p + 1 + m[0].length;
  // An issue number (`#123 and C#`) opens no closed tag: its first word must be a tag of its own.
  const closed = text.charCodeAt(p + 1 + m[0].length) === 0x20 ? closedTagRest(text, p + 1 + m[0].length) : null;
  if (closed !== null) {
    sink.tag(`${name}${closed.slice(0, -1)}`.replace(/\/+$/, ''));
    return p + 1 + m[0].length + closed.length;
  }
  sink.tag(name);
  return p + 1 + m[0].length;
}

/** The rest of a Bear closed tag from `at` (its other words and the closing `#`), or null. */
function closedTagRest(text: string, at: number): string | null {
  CLOSED_TAG_REST.lastIndex = at;
  const m = CLOSED_TAG_REST.exec(text);
  return m && !LONE_CAPITAL.test(m[0]) ? m[0] : null;
}

function skipMatch(re: RegExp, text: string, p: number): number | undefined {
  re.lastIndex = p;
  const m = re.exec(text);
  return m ? p + m[0].length : undefined;
}

interface InlineLink {
  label: string;
  destination: string;
  end: number;
}

/** A CommonMark inline link `[label](destination "title")` whose label spans `open`..`close`, or null. */
export function parseInlineLink(text: string, open: number, close: number): InlineLink | null {
  if (close === -1 || text.charCodeAt(close + 1) !== 0x28 /* ( */) return null;
  let j = skipSpace(text, close + 2);
  let destination: string;
  if (text.charCodeAt(j) === 0x3c /* < */) {
    const end = findUnescaped(text, j + 1, 0x3e /* > */, '\n<');
    if (end === -1) return null;
    destination = text.slice(j + 1, end);
    j = end + 1;
  } else {
    const start = j;
    const limit = Math.min(text.length, j + MAX_DESTINATION);
    let parens = 0;
    for (; j < limit; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x5c && j + 1 < text.length) j++;
      else if (c === 0x28) {
        if (++parens > MAX_PARENS) return null;
      } else if (c === 0x29) {
        if (parens === 0) break;
        parens--;
      } else if (c <= 0x20) break;
    }
    if (parens !== 0 || j === limit) return null;
    destination = text.slice(start, j);
  }
  j = skipSpace(text, j);
  const q = text.charCodeAt(j);
  if (q === 0x22 || q === 0x27 || q === 0x28) {
    const end = findUnescaped(text, j + 1, q === 0x28 ? 0x29 : q, q === 0x28 ? '(' : '');
    if (end === -1) return null;
    j = skipSpace(text, end + 1);
  }
  if (text.charCodeAt(j) !== 0x29) return null;
  return { label: text.slice(open + 1, close), destination, end: j + 1 };
}

function skipSpace(text: string, i: number): number {
  let newlines = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a && ++newlines > 1) break;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a) break;
  }
  return i;
}

function findUnescaped(text: string, from: number, target: number, forbidden: string): number {
  const limit = Math.min(text.length, from + MAX_DESTINATION);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === target) return i;
    else if (forbidden.length > 0 && forbidden.indexOf(text[i]) !== -1) return -1;
  }
  return -1;
}

/**
 * Forward searches for a few fixed strings. Scanning moves forward only, so remembering the last hit
 * of each string keeps every search linear over the whole text.
 */
class Lookahead {
  private readonly found = new Map<string, number>();
  private newline = -1;
  constructor(private readonly text: string) {}

  /** Position just after the first `needle` at or after `from`, or undefined. */
  after(needle: string, from: number): number | undefined {
    let at = this.found.get(needle);
    if (at === undefined || (at !== -1 && at < from)) {
      at = this.text.indexOf(needle, from);
      this.found.set(needle, at);
    }
    return at === -1 ? undefined : at + needle.length;
  }

  /** True when a newline lies in [from, to). */
  newlineBefore(from: number, to: number): boolean {
    if (this.newline !== -2 && this.newline < from) {
      const nl = this.text.indexOf('\n', from);
      this.newline = nl === -1 ? -2 : nl;
    }
    return this.newline >= 0 && this.newline < to;
  }
}


/** Matching `]` of every `[` outside code spans and escapes, found in one pass with a stack. */
export class Brackets {
  private matches: Map<number, number> | null = null;
  constructor(
    private readonly text: string,
    private readonly spans: CodeSpans,
  ) {}

  /** Position of the `]` that closes the `[` at `open`, or -1. */
  closeOf(open: number): number {
    this.matches ??= this.match();
    return this.matches.get(open) ?? -1;
  }

  private match(): Map<number, number> {
    const { text } = this;
    const matches = new Map<number, number>();
    const stack: number[] = [];
    const re = /[\\`[\]]/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const i = m.index;
      const c = text.charCodeAt(i);
      if (c === 0x5c) re.lastIndex = i + 2;
      else if (c === 0x60) re.lastIndex = this.spans.skip(i);
      else if (c === 0x5b) stack.push(i);
      else if (stack.length > 0) matches.set(stack.pop() as number, i);
    }
    return matches;
  }
}
