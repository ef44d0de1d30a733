// read_note: a note's current file text with line numbers, or a window of it. Only indexed notes, only
// inside the vault (symlinks out of it refused). Each answer carries the version of the text it came from, and a
// call that passes it back is refused once the note has changed: page 2 of an edited note is not page 2 of
// the text page 1 came from (lines inserted above it repeat or skip lines, without a word).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { splitLines } from '../../parse/lines.js';
import { stripControls } from '../../text/controls.js';
import { redactNoteSecrets, redactNoteSecretsKeepingLines } from '../../text/redact.js';
import { readRegularFile } from '../../vault/file-kind.js';
import { ToolError } from '../errors.js';
import { clampInt, defineTool, RESULT_CHAR_BUDGET, textWithin } from '../tool.js';
import { realPathInVault } from '../vault-path.js';
import { findNamedNote, namedNote, noNoteError } from './note-lookup.js';

export const DEFAULT_LINES = 400;
export const MAX_LINES = 2000;
/** What textWithin counts of a cut line beside the line's own JSON string: `{"text":…,"truncated":true}`. */
const LINE_ENTRY_CHARS = JSON.stringify({ text: '', truncated: true }).length - 2;

export const readNoteTool = defineTool({
  name: 'read_note',
  title: 'Read a note',
  description: [
    'Read an indexed note as it is on disk now, with line numbers ("12\\ttext"). Use it after search/get_sections',
    'when the whole note or the exact source lines around a section matter. path is the vault-relative path from',
    'search results (a path without its note extension or a unique note name also works). from_line (1-based) and lines pick a',
    `window: by default ${DEFAULT_LINES} lines from the start, at most ${MAX_LINES} (and about ${RESULT_CHAR_BUDGET / 1000}k characters;`,
    'a single line longer than that comes cut, with truncated: true).',
    'Returns {path, title, type, status, date, from_line, to_line, total_lines, version, text} plus next_from_line when',
    'more follows: to continue, call again with from_line = next_from_line and the version you got; if the note has',
    'changed since, that call is an error (read it again from the start). Paths outside the vault or not in the index',
    'are errors.',
  ].join(' '),
  inputSchema: {
    path: z.string().describe('vault-relative note path, e.g. "knowledge/lora.md"'),
    from_line: z.number().optional().describe('first line to return, 1-based (default 1)'),
    lines: z.number().optional().describe(`how many lines (default ${DEFAULT_LINES}, at most ${MAX_LINES})`),
    version: z.string().optional().describe('the version of an earlier page of this note, when continuing it: refused if the note changed since'),
  },
  run(args, ctx) {
    const vault = ctx.cfg.vault;
    const named = namedNote(vault, args.path);
    const note = ctx.withIndex((_db, reader) => findNamedNote(reader, named, ctx.cfg.extensions));
    if (!note) throw noNoteError(vault, named, ctx.cfg.extensions);
    const real = realPathInVault(vault, note.path);
    let raw: string;
    try {
      raw = readRegularFile(real);
    } catch (err) {
      throw new ToolError(`cannot read ${note.path}: ${(err as Error).message}`);
    }
    const version = textVersion(stripControls(raw));
    const given = givenVersion(args.version);
    if (given !== undefined && given !== version) {
      throw new ToolError(
        `${note.path} changed since the page of version ${given} was read (now ${version}): its lines may have moved, so this page would not continue that one; read it again from the start (from_line 1, without version)`,
      );
    }
    // The lines are the parser's (CR LF, CR, LF), so that the `line` search and get_sections give is the line
    // shown here. Cleaned as a whole text, a U+2028 inside a line became a line ending (stripControls), and
    // every line after it came one number late; cleaned line by line, it shows as a space.
    const all = splitLines(raw);
    if (all.at(-1) === '') all.pop();
    const total = all.length;
    const from = clampInt(args.from_line, 1, Math.max(1, total + 1), 1);
    const count = clampInt(args.lines, 1, MAX_LINES, DEFAULT_LINES);
    redactPage(all, from - 1, from - 1 + count);
    const out: string[] = [];
    let chars = 0;
    let line = from;
    let truncated = false;
    for (; line <= total && line < from + count; line++) {
      const numbered = `${line}\t${stripControls(all[line - 1]).replace(/\n/g, ' ')}`;
      // Counted as the answer's JSON holds it (the tab, quotes and backslashes escaped, the newline joining
      // it to the next as `\n`): counted as characters, a page of 2,000 short lines took 27,303.
      const cost = JSON.stringify(numbered).length;
      if (out.length > 0 && chars + cost > RESULT_CHAR_BUDGET) break;
      if (cost > RESULT_CHAR_BUDGET) {
        // A line longer than the whole budget, alone in its page, is cut: a 5 MB one-line note came back
        // whole (5,000,297 characters, far past what a client accepts). Its text is in the note's sections,
        // which are split near chunkChars: search and get_sections reach the rest.
        // Cut as its JSON counts, as the lines above are (textWithin: at a character, never in a surrogate
        // pair): counted as characters, a line of 15,000 quotes was served whole, 30,005 in JSON. Its first
        // 4 × budget UTF-16 units are more than the cut keeps, and reading them costs what a page does.
        out.push(textWithin({ text: numbered.slice(0, 4 * RESULT_CHAR_BUDGET) }, RESULT_CHAR_BUDGET + LINE_ENTRY_CHARS).text);
        truncated = true;
        line++;
        break;
      }
      out.push(numbered);
      chars += cost;
    }
    return {
      path: note.path,
      title: note.title,
      type: note.type,
      status: note.status,
      date: note.date || null,
      from_line: from,
      to_line: line - 1,
      total_lines: total,
      version,
      ...(line <= total ? { next_from_line: line } : {}),
      text: out.join('\n'),
      ...(truncated ? { truncated: true } : {}),
    };
  },
});

/**
 * Lines before a page that may hold a key block's BEGIN line: a 4096-bit RSA key's PEM block has 51 lines, an
 * armored 4096-bit PGP private key about 110.
 */
const KEY_REACH_LINES = 250;

/**
 * The lines [from, to) of `lines`, in place, with their secrets redacted as every answer's are (redact-answer.ts),
 * read with the KEY_REACH_LINES before them: a page that starts inside a key block, or ends inside one, shows
 * none of it. Redacted before the page is cut to its budget, with each line's number kept
 * (redactNoteSecretsKeepingLines). A line is read up to what a page can show of it (4 × budget, as below).
 */
function redactPage(lines: string[], from: number, to: number): void {
  const start = Math.max(0, from - KEY_REACH_LINES);
  const end = Math.min(lines.length, to);
  if (start >= end) return;
  const window = lines.slice(start, end).map((l) => l.slice(0, 4 * RESULT_CHAR_BUDGET));
  let redacted = redactNoteSecretsKeepingLines(window.join('\n')).split('\n');
  // Never expected (a redaction keeps its line breaks), but a page's numbers must stay right: line by line then.
  if (redacted.length !== window.length) redacted = window.map(redactNoteSecrets);
  for (let i = from; i < end; i++) lines[i] = redacted[i - start];
}

/**
 * The version a caller passed back: an empty one is none given (as every tool reads an empty parameter), and
 * one that no page could have given is refused as such. Refused as an edit ("changed since the page of
 * version zzz"), it sent the caller to read the note from the start again, where the same argument failed again.
 */
function givenVersion(value: string | undefined): string | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (!/^[0-9a-f]{12}$/.test(v)) {
    throw new ToolError(`version takes the 12 hex digits an earlier page of read_note gave (got "${value}"); leave it out to read without that check`);
  }
  return v;
}

/**
 * The version of a note's text: the first 12 hex digits of its sha1 (48 bits; two edits of one note
 * colliding is not a worry). The text as served, so anything that changes a page changes it.
 */
export function textVersion(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 12);
}
