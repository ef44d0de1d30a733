// A real vault on disk and a real index of it for in-process MCP tests. Notes are written as markdown
// files; the index rows come from a small heading splitter (this folder tests the MCP layer, not the
// parser — the end-to-end tests in serve.e2e.test.ts index with the real `tsm index`).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { NoteType, ParsedLink, ParsedNote, ParsedSection } from '../../src/core/types.js';
import { openWriter } from '../../src/index/db.js';
import { NoteWriter } from '../../src/index/note-writer.js';
import { prepareNote } from '../../src/index/fts-rows.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';

export interface NoteSpec {
  type: NoteType;
  date: string;
  frontmatter?: Record<string, unknown>;
  body: string;
  /** Wikilink targets per section index (0 = first section). */
  links?: { section: number | null; target: string; kind?: ParsedLink['kind'] }[];
  status?: string;
  /** Write the file as a symlink to this absolute path (its content is written there). */
  symlinkTo?: string;
}

/** YAML from JSON values (JSON is YAML), one key per line. */
function frontmatterText(fm: Record<string, unknown>): string {
  const keys = Object.keys(fm);
  if (keys.length === 0) return '';
  return `---\n${keys.map((k) => `${k}: ${JSON.stringify(fm[k])}`).join('\n')}\n---\n`;
}

/** Sections by ATX heading (fixtures hold no code blocks), with 1-based file line numbers. */
export function splitSections(title: string, body: string, firstLine: number, chunkChars = 1e9): ParsedSection[] {
  const lines = body.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const sections: ParsedSection[] = [];
  const chain: { level: number; heading: string }[] = [];
  let current: ParsedSection = { heading: '', level: 0, headingPath: title, startLine: firstLine, endLine: firstLine - 1, text: '', chunk: 0 };
  const body_: string[] = [];
  const close = () => {
    const text = body_.splice(0).join('\n').trim();
    if (current.level === 0 && text === '') return;
    // Split long text into chunks at paragraph boundaries, like the parser does.
    const paras = text.split(/\n\n+/);
    let chunk = 0;
    let acc = '';
    for (const p of paras) {
      if (acc !== '' && acc.length + p.length > chunkChars) {
        sections.push({ ...current, text: acc, chunk: chunk++ });
        acc = p;
      } else acc = acc === '' ? p : `${acc}\n\n${p}`;
    }
    sections.push({ ...current, text: acc, chunk });
  };
  lines.forEach((line, i) => {
    const m = /^(#{1,6})\s+(.*)$/.exec(line);
    if (m) {
      close();
      const level = m[1].length;
      while (chain.length && chain[chain.length - 1].level >= level) chain.pop();
      const path = level === 1 ? title : [title, ...chain.filter((c) => c.level > 1).map((c) => c.heading), m[2]].join(' > ');
      chain.push({ level, heading: m[2] });
      current = { heading: m[2], level, headingPath: path, startLine: firstLine + i, endLine: firstLine + i, text: '', chunk: 0 };
    } else {
      body_.push(line);
      current.endLine = firstLine + i;
    }
  });
  close();
  return sections;
}

export interface Fixture {
  vault: string;
  outside: string;
  cfg: TsmConfig;
  cleanup(): void;
}

/** `notes` may be a function of the folder outside the vault (for symlinks that leave it). */
export function buildFixture(
  notesOf: Record<string, NoteSpec> | ((outside: string) => Record<string, NoteSpec>),
  opts: { chunkChars?: number } = {},
): Fixture {
  const vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-vault-'));
  const outside = mkdtempSync(join(tmpdir(), 'tsm-mcp-outside-'));
  const notes = typeof notesOf === 'function' ? notesOf(outside) : notesOf;
  const { db } = openWriter(join(vault, '.tsm', 'index.db'));
  const writer = new NoteWriter(db);
  writer.inTransaction(() => {
    for (const [path, spec] of Object.entries(notes)) {
      const fm = { type: spec.type, date: spec.date, ...(spec.status ? { status: spec.status } : {}), ...spec.frontmatter };
      const head = frontmatterText(fm);
      const content = head + spec.body;
      const abs = join(vault, path);
      mkdirSync(dirname(abs), { recursive: true });
      if (spec.symlinkTo) {
        mkdirSync(dirname(spec.symlinkTo), { recursive: true });
        writeFileSync(spec.symlinkTo, content);
        symlinkSync(spec.symlinkTo, abs);
      } else writeFileSync(abs, content);
      const h1 = /^# (.*)$/m.exec(spec.body);
      const title = h1 ? h1[1] : basename(path, '.md');
      const firstLine = head === '' ? 1 : head.split('\n').length;
      const sections = splitSections(title, spec.body, firstLine, opts.chunkChars);
      const links: ParsedLink[] = (spec.links ?? []).map((l) => ({
        kind: l.kind ?? 'wikilink',
        target: l.target,
        heading: null,
        text: null,
        section: l.section,
        line: l.section === null ? null : sections[l.section].startLine,
      }));
      const parsed: ParsedNote = {
        path,
        title,
        type: spec.type,
        status: spec.status ?? null,
        date: spec.date,
        dateSource: 'frontmatter',
        tags: [],
        aliases: [],
        frontmatter: fm,
        sections,
        links,
        warnings: [],
      };
      writer.writeNote({ path, absPath: abs, size: content.length, mtimeMs: Date.parse(`${spec.date}T12:00:00`) }, prepareNote(path, parsed), path);
    }
    writer.resolveLinks(null);
  });
  db.close();
  const cfg = loadConfig({ vaultFlag: vault, env: {} });
  return {
    vault,
    outside,
    cfg,
    cleanup: () => {
      rmSync(vault, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}
