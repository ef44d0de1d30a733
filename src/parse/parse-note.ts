// Markdown → ParsedNote. Pure and total: whatever the text holds, a note comes back, with problems
// recorded in `warnings` instead of thrown.
import type { NoteSource, ParsedLink, ParsedNote } from '../core/types.js';
import { findFrontmatter, firstLine, parseYaml, UNCLOSED_FRONTMATTER, unclosedFrontmatter } from './frontmatter.js';
import { atxHeadingSource, headingPlainText, setextHeadingSource } from './heading-text.js';
import { isBlankLine, splitLines } from './lines.js';
import { link, markdownLinkTarget, parseWikilinkContent, propertyLinks, relatedLinks } from './links.js';
import {
  frontmatterAliases,
  frontmatterTags,
  noteDate,
  noteStatus,
  noteTitle,
  noteType,
  propertyValues,
  uniqueLower,
  unknownTypeWarning,
  unreadDateWarnings,
  withoutLongNames,
} from './metadata.js';
import type { ParseOptions } from './options.js';
import { notionProperties, pageProperties } from './page-properties.js';
import { buildSections, MAX_HEADING_SECTIONS, type NoteHeading } from './sections.js';
import { scanInline } from './inline-scan.js';
import { CodeSpans, commentMarkOutsideCode } from '../text/code-span.js';
import { LINE_TEXT, scanBlocks } from './structure.js';
import { count } from '../text/count.js';

export function parseNote(src: NoteSource, opts: ParseOptions): ParsedNote {
  const warnings: string[] = [];
  try {
    return parseWholeNote(src, opts, warnings);
  } catch (err) {
    warnings.push(`parser failed, note indexed as plain text: ${err instanceof Error ? err.message : String(err)}`);
    return plainTextNote(src, opts, warnings);
  }
}

function parseWholeNote(src: NoteSource, opts: ParseOptions, warnings: string[]): ParsedNote {
  const content = src.content.charCodeAt(0) === 0xfeff ? src.content.slice(1) : src.content;
  const lines = splitLines(content);

  let frontmatter: Record<string, unknown> = {};
  let bodyStart = 0;
  let leadStart = 0;
  const block = findFrontmatter(lines);
  if (block) {
    bodyStart = block.closeLine + 1;
    const yaml = parseYaml(block.yaml);
    if (yaml.ok) {
      frontmatter = yaml.data;
      warnings.push(...yaml.warnings);
      leadStart = bodyStart;
    } else {
      // Nothing is lost: the raw block stays in the lead section.
      warnings.push(`malformed YAML frontmatter, indexed as text: ${firstLine(yaml.error)}`);
    }
  } else if (unclosedFrontmatter(lines)) {
    warnings.push(UNCLOSED_FRONTMATTER);
  }

  const { headings: blocks, lineKinds, cappedLines, plainLines } = scanBlocks(lines, bodyStart);
  if (plainLines > 0) {
    warnings.push(
      `markdown too costly to parse exactly: ${count(plainLines, 'line')} read as plain text (only # headings found there)`,
    );
  }
  if (cappedLines > 0) {
    warnings.push(
      `lists or quotes nested too deep on ${count(cappedLines, 'line')}: their structure is approximated (text, links and tags are all indexed)`,
    );
  }
  const commented = blankComments(lines, lineKinds, bodyStart);
  const visible = commented ? blocks.filter((h) => !commented.has(h.startLine)) : blocks;
  if (visible.length > MAX_HEADING_SECTIONS) {
    warnings.push(
      `${count(visible.length, 'heading')}: the last ${visible.length - MAX_HEADING_SECTIONS} are read as the text of the section before them (at most ${MAX_HEADING_SECTIONS} sections by heading)`,
    );
  }
  const headings: NoteHeading[] = visible.slice(0, MAX_HEADING_SECTIONS).map((h) => ({
    ...h,
    text: headingPlainText(
      h.endLine > h.startLine
        ? setextHeadingSource(lines.slice(h.startLine, h.endLine))
        : atxHeadingSource(lines[h.startLine]),
    ),
  }));

  // Logseq's page properties name a note as frontmatter does; a note with frontmatter is named by it alone.
  const names = block ? frontmatter : pageProperties(lines, 0);
  // A heading of only control characters is empty already (headingPlainText), as `# ` is.
  const firstH1 = headings.find((h) => h.depth === 1 && h.text !== '')?.text ?? null;
  const title = noteTitle(names, firstH1, src.path);
  const sections = buildSections({ lines, lineKinds, leadStart, headings, title, chunkChars: opts.chunkChars });

  const sectionOfLine = new Int32Array(lines.length).fill(-1);
  sections.forEach((s, i) => {
    for (let l = s.startLine - 1; l < s.endLine; l++) if (sectionOfLine[l] === -1) sectionOfLine[l] = i;
  });
  const inlineTags: string[] = [];
  // Every heading line ends a run of text, also those past MAX_HEADING_SECTIONS.
  const links = scanLinksAndTags(lines, lineKinds, visible, sectionOfLine, inlineTags, opts);
  links.push(
    ...propertyValues(frontmatter, 'related').flatMap((v) => relatedLinks(v, opts.dendron)),
    ...propertyLinks(frontmatter, opts.dendron),
  );
  const notion = notionProperties(lines, bodyStart);
  const type = noteType(frontmatter, src.path, opts);
  const typeWarning = unknownTypeWarning(frontmatter, type);
  if (typeWarning) warnings.push(typeWarning);
  const dated = noteDate(frontmatter, src.path, src.mtimeMs, opts.dayFormats, notion.dates);
  warnings.push(...unreadDateWarnings(frontmatter, dated));

  return {
    path: src.path,
    title,
    type,
    status: noteStatus(frontmatter),
    ...dated,
    tags: withoutLongNames(uniqueLower([...frontmatterTags(names), ...notion.tags, ...inlineTags]), 'tag', 'tags', warnings),
    aliases: withoutLongNames(frontmatterAliases(names), 'alias', 'aliases', warnings),
    frontmatter,
    sections,
    links,
    warnings,
  };
}

/**
 * Links and tags of the text lines. Lines are scanned in runs (a paragraph, a list, a heading) so that
 * code spans and links that wrap a line are seen whole; code and HTML blocks are never scanned.
 */
function scanLinksAndTags(
  lines: string[],
  lineKinds: Uint8Array,
  headings: readonly { startLine: number; endLine: number }[],
  sectionOfLine: Int32Array,
  tags: string[],
  opts: ParseOptions,
): ParsedLink[] {
  const links: ParsedLink[] = [];
  const runBreak = new Uint8Array(lines.length + 1);
  for (const h of headings) {
    runBreak[h.startLine] = 1;
    runBreak[h.endLine + 1] = 1;
  }
  let starts: number[] = [];
  let first = 0;
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return first + lo;
  };
  const add = (kind: ParsedLink['kind'], parts: ReturnType<typeof parseWikilinkContent>, offset: number) => {
    if (!parts) return;
    const line = lineAt(offset);
    const section = sectionOfLine[line];
    links.push(link(kind, parts, section === -1 ? null : section, line + 1));
  };
  const sink = {
    wikilink: (content: string, embed: boolean, offset: number) =>
      add(embed ? 'embed' : 'wikilink', parseWikilinkContent(content, opts.dendron), offset),
    markdownLink: (label: string, destination: string, image: boolean, offset: number) => {
      // `![alt](path)` to a local file is an embed, as `![[path]]` is (Obsidian shows both): left out, a
      // missing picture was no broken link for doctor, and a present one no attachment for `related`.
      // URLs (`https:`, `data:`) are no local file: markdownLinkTarget gives null.
      add(image ? 'embed' : 'markdown', markdownLinkTarget(destination, label), offset);
    },
    tag: (name: string) => tags.push(name),
  };

  let i = 0;
  while (i < lines.length) {
    if (lineKinds[i] !== LINE_TEXT || isBlankLine(lines[i])) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !runBreak[end] && lineKinds[end] === LINE_TEXT && !isBlankLine(lines[end])) end++;
    first = i;
    if (end === i + 1) {
      starts = [0];
      scanInline(lines[i], sink);
    } else {
      starts = [];
      let offset = 0;
      for (let l = i; l < end; l++) {
        starts.push(offset);
        offset += lines[l].length + 1;
      }
      scanInline(lines.slice(i, end).join('\n'), sink);
    }
    i = end;
  }
  return links;
}

/**
 * Obsidian comments, `%% … %%` in a line or over several, are hidden in Obsidian: their text is blanked
 * out of the note's lines, so it is neither indexed nor shown in snippets, and tags or links inside them do
 * not count. A `%%` in a code block or a code span is code (`%%` in a guide) and opens nothing; but a code
 * block inside an open comment is hidden with it, as Obsidian hides an Excalidraw drawing's
 * `compressed-json` (thousands of characters of base64 that would otherwise be indexed as the note's text).
 * A `%%` left open runs to the end of the note, as in Obsidian. Lines keep their numbers. Returns the lines
 * that begin inside a comment (no heading there), or null when the note has none.
 */
function blankComments(lines: string[], lineKinds: Uint8Array, bodyStart: number): Set<number> | null {
  let starts: Set<number> | null = null;
  let open = false;
  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i];
    const text = lineKinds[i] === LINE_TEXT;
    if (!open && (!text || line.indexOf('%%') === -1)) continue;
    if (open) (starts ??= new Set()).add(i);
    else starts ??= new Set();
    let out = '';
    let pos = 0;
    const spans = new CodeSpans(line);
    for (;;) {
      // Inside a comment the next `%%` closes it; outside, one in a code span is code (`%%` in a guide),
      // and so is any in a code block: the rest of a code line that closes a comment is kept as it is.
      const at = open ? line.indexOf('%%', pos) : text ? commentMarkOutsideCode(line, pos, spans) : -1;
      if (at === -1) {
        if (!open) out += line.slice(pos);
        break;
      }
      if (!open) out += line.slice(pos, at);
      open = !open;
      pos = at + 2;
    }
    lines[i] = out.trimEnd();
  }
  return starts;
}

/** The best-effort note when parsing failed: metadata from the path, the text as one lead section. */
function plainTextNote(src: NoteSource, opts: ParseOptions, warnings: string[]): ParsedNote {
  const title = noteTitle({}, null, src.path);
  const text = src.content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lineCount = text.split('\n').length;
  return {
    path: src.path,
    title,
    type: noteType({}, src.path, opts),
    status: null,
    ...noteDate({}, src.path, src.mtimeMs, opts.dayFormats),
    tags: [],
    aliases: [],
    frontmatter: {},
    sections:
      text.trim() === ''
        ? []
        : [{ heading: '', level: 0, headingPath: title, startLine: 1, endLine: lineCount, text: text.trim(), chunk: 0 }],
    links: [],
    warnings,
  };
}
