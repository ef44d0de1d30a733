// The query language of `tsm search` and the MCP `search` tool (not of the prompt hook, where quotes and
// dashes are ordinary punctuation): "quoted phrases", -excluded words, OR, tag:/path:/type:/status:, and a
// trailing * for a prefix. Any string parses; what is not an operator is free text. A query without
// operators comes back as its own text, untouched, so it ranks exactly as free text always has.
//
// Bare words rank (a note need not hold all of them: the more, the better, as ever). The operators add
// constraints: a quoted phrase must appear; `a OR b` needs one of its sides; an excluded word or phrase
// drops every note that holds it. Phrases and OR sides also rank, like bare words.
//
// Pasted text is not written in this language: what looks like an operator but cannot be meant stays text
// (operator-text.ts: `-e` of a command, `type:module`, a path out of the vault, a query of a paragraph).
import { hasCjk } from '../text/normalize.js';
import {
  commandFlagNotice,
  commandFlags,
  filterValue,
  isFlagLike,
  LONG_TEXT_CHARS,
  longTextNotice,
  manyGroupsNotice,
  MAX_REQUIRED_GROUPS,
} from './operator-text.js';

export const FILTER_KEYS = ['tag', 'path', 'type', 'status'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface ParsedQuery {
  /** The free text to rank by (and to read dates from): the query itself when it has no operators. */
  text: string;
  /** Phrases that must appear or are OR sides: they rank like words, but are never read as dates (`"last week"`). */
  quoted: string[];
  /** Each group needs one of its alternatives (a phrase: words in this order) in the section. */
  required: string[][];
  /** Words and phrases whose notes are left out. */
  excluded: string[];
  /** Words matched as prefixes (`sync*` → `sync`). */
  prefixes: string[];
  /** `key:value` filters, with the semantics of the flags of the same names. */
  filters: Partial<Record<FilterKey, string[]>>;
  /** Whether any operator was found (false: `text` is the query as given). */
  operators: boolean;
  /** Words that looked like operators but were read as text, and why: for stderr (CLI) and the result's note (MCP). */
  notices: string[];
}

export interface ParseOptions {
  /** The vault's root: `path:` values are confined to it (vault-relative, NFC); one outside it is text. */
  vault?: string;
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'phrase'; text: string; negated: boolean }
  | { kind: 'exclude'; text: string }
  | { kind: 'or' }
  | { kind: 'filter'; key: FilterKey; value: string }
  | { kind: 'prefix'; text: string };

const FILTER = /^(tag|path|type|status):(.*)$/is;
/** A prefix is one Latin word or number of at least two characters before the star (`s*` matches too much). */
const PREFIX = /^([\p{L}\p{N}_][\p{L}\p{N}_.'-]*[\p{L}\p{N}_])\*$/u;

/** Splits at whitespace, keeping a quoted span (`"…"`, `-"…"`, `key:"…"`) as one piece. */
function pieces(query: string): { raw: string; quoted: string | null; lead: string }[] {
  const out: { raw: string; quoted: string | null; lead: string }[] = [];
  const re = /(-|[A-Za-z]+:)?"([^"]*)"(?=\s|$)|\S+/gy;
  let i = 0;
  while (i < query.length) {
    const ws = /\s+/y;
    ws.lastIndex = i;
    if (ws.exec(query)) {
      i = ws.lastIndex;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(query);
    if (!m) break;
    out.push(m[2] !== undefined ? { raw: m[0], quoted: m[2], lead: m[1] ?? '' } : { raw: m[0], quoted: null, lead: '' });
    i = re.lastIndex;
  }
  return out;
}

function tokenize(query: string, opts: ParseOptions, notices: string[]): Token[] {
  const tokens: Token[] = [];
  /** A `key:value` as a filter, or as the word it was typed as when its value cannot be meant. */
  const filter = (raw: string, key: FilterKey, value: string) => {
    const v = filterValue(key, value, opts.vault);
    if ('value' in v) tokens.push({ kind: 'filter', key, value: v.value });
    else {
      notices.push(v.notice);
      tokens.push({ kind: 'word', text: raw });
    }
  };
  const all = pieces(query);
  const flagOf = commandFlags(all.map((p) => p.raw));
  for (const [at, p] of all.entries()) {
    if (p.quoted !== null) {
      const text = p.quoted.trim();
      const key = p.lead.slice(0, -1).toLowerCase();
      if ((FILTER_KEYS as readonly string[]).includes(key)) {
        if (text) filter(p.raw, key as FilterKey, text);
      } else if (p.lead.endsWith(':')) {
        tokens.push({ kind: 'word', text: p.raw });
      } else if (text) {
        tokens.push({ kind: 'phrase', text, negated: p.lead === '-' });
      }
      continue;
    }
    const raw = p.raw;
    if (raw === 'OR') {
      tokens.push({ kind: 'or' });
      continue;
    }
    // The checks below run only where they can match: a regex of Unicode classes costs its first use
    // ~0.4 ms to compile, on every `tsm search`.
    const f = raw.includes(':') ? FILTER.exec(raw) : null;
    if (f && f[2] !== '') {
      filter(raw, f[1].toLowerCase() as FilterKey, f[2]);
      continue;
    }
    // `-word` excludes; a dash before a digit is a minus sign (-5), a lone dash is punctuation, `--flag`
    // and a one-letter flag (`-e`, which no search ever holds: isFlagLike) are text, and so is a group of
    // flags after a shell command (`rm -rf`: commandFlags), which is said.
    const command = flagOf[at];
    if (command) {
      notices.push(commandFlagNotice(raw, command));
      tokens.push({ kind: 'word', text: raw });
      continue;
    }
    if (raw.length > 1 && raw[0] === '-' && raw[1] !== '-' && !/\d/.test(raw[1]) && !isFlagLike(raw.slice(1))) {
      tokens.push({ kind: 'exclude', text: raw.slice(1) });
      continue;
    }
    const pre = raw.endsWith('*') ? PREFIX.exec(raw) : null;
    if (pre && !hasCjk(pre[1])) {
      tokens.push({ kind: 'prefix', text: pre[1] });
      continue;
    }
    tokens.push({ kind: 'word', text: raw });
  }
  return tokens;
}

/** What every surface says of a query ranksBy refuses, after naming it: `"tag:x" has nothing to rank by …`. */
export const NOTHING_TO_RANK = 'has nothing to rank by (filters and exclusions only): add a word to search for';

/** Whether the query holds anything to rank by (free text, a phrase, a prefix): filters and exclusions alone do not. */
export function ranksBy(q: ParsedQuery): boolean {
  return q.text.trim() !== '' || q.quoted.length > 0 || q.prefixes.length > 0;
}

/** Parses any string; never throws. */
export function parseQuery(query: string, opts: ParseOptions = {}): ParsedQuery {
  const notices: string[] = [];
  const tokens = tokenize(query, opts, notices);
  const operators = tokens.some((t, i) => t.kind !== 'word' && (t.kind !== 'or' || isOrBetween(tokens, i)));
  // A pasted paragraph is text through and through (operator-text.ts): said only when it held an operator.
  const plain = operators ? tokens.reduce((n, t) => n + (t.kind === 'word' ? t.text.length + 1 : 0), -1) : 0;
  if (plain > LONG_TEXT_CHARS) return plainText(query, [longTextNotice(plain)]);
  if (!operators) return plainText(query, notices);

  const text: string[] = [];
  const quoted: string[] = [];
  const required: string[][] = [];
  const excluded: string[] = [];
  const prefixes: string[] = [];
  const filters: Partial<Record<FilterKey, string[]>> = {};
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isSide(t) && isOrBetween(tokens, i + 1)) {
      // `a OR "b c" OR d`: one group, which needs one of its sides; every side also ranks.
      const sides = [t];
      while (isOrBetween(tokens, i + 1)) {
        sides.push(tokens[i + 2]);
        i += 2;
      }
      required.push(sides.map(sideText));
      for (const side of sides) (side.kind === 'phrase' ? quoted : text).push(sideText(side));
      continue;
    }
    switch (t.kind) {
      case 'word':
        text.push(t.text);
        break;
      case 'or': // an OR without a word on each side is just the word
        text.push('OR');
        break;
      case 'phrase':
        if (t.negated) excluded.push(t.text);
        else {
          required.push([t.text]);
          quoted.push(t.text);
        }
        break;
      case 'exclude':
        excluded.push(t.text);
        break;
      case 'prefix':
        if (!prefixes.includes(t.text)) prefixes.push(t.text);
        break;
      case 'filter':
        (filters[t.key] ??= []).push(t.value);
        break;
    }
  }
  if (required.length > MAX_REQUIRED_GROUPS) return plainText(query, [manyGroupsNotice(required.length)]);
  return { text: text.join(' '), quoted, required, excluded, prefixes, filters, operators: true, notices };
}

function plainText(query: string, notices: string[]): ParsedQuery {
  return { text: query, quoted: [], required: [], excluded: [], prefixes: [], filters: {}, operators: false, notices };
}

function isSide(t: Token | undefined): boolean {
  return t !== undefined && (t.kind === 'word' || (t.kind === 'phrase' && !t.negated));
}

function sideText(t: Token): string {
  return (t as { text: string }).text;
}

/** An OR with a word or phrase on both sides. */
function isOrBetween(tokens: Token[], i: number): boolean {
  return tokens[i]?.kind === 'or' && isSide(tokens[i - 1]) && isSide(tokens[i + 1]);
}
