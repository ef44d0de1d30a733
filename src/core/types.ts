// The domain of tsm: plain data shared by every layer. No I/O, no adapters here.

export const NOTE_TYPES = ['daily', 'knowledge', 'session'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];

/** Statuses that rank lower (never vanish) in search. */
export const STALE_STATUSES = ['archived', 'outdated', 'superseded', 'deprecated'] as const;

/** A file found in the vault by the scanner, before it is read. */
export interface VaultFile {
  /** Vault-relative, '/'-separated, NFC. */
  path: string;
  /** Absolute path on disk (may differ from the vault path in normalisation form). */
  absPath: string;
  size: number;
  mtimeMs: number;
  /**
   * Status-change time (ctime). An edit that keeps the size and the mtime (a tool that restores the
   * mtime, two same-size writes within the file system's time granularity) still changes it.
   */
  ctimeMs?: number;
  /** The content hash the index holds for this path, if any: a load that reads the same bytes skips parsing. */
  knownHash?: string;
}

/** What the parser is given: one file's bytes plus what the filesystem said about it. */
export interface NoteSource {
  path: string;
  content: string;
  mtimeMs: number;
}

export type LinkKind = 'wikilink' | 'embed' | 'markdown' | 'related';

/** A link as written in a note, before it is resolved against the vault. */
export interface ParsedLink {
  kind: LinkKind;
  /** The target as written, without `#heading` or `|alias`, URL-decoded for markdown links. */
  target: string;
  /** The `#heading` part, if any. */
  heading: string | null;
  /** Display text (`|alias` or the markdown link text), if any. */
  text: string | null;
  /** Index into `ParsedNote.sections` of the section the link appears in; null for frontmatter. */
  section: number | null;
  /** 1-based line in the file; null for frontmatter `related`. */
  line: number | null;
}

/** What joins a heading path's headings (`title > Heading > Subheading`). */
export const PATH_SEPARATOR = ' > ';

export interface ParsedSection {
  /** Own heading text; '' for the lead section (text before the first heading). */
  heading: string;
  /** 0 for the lead section, else 1–6. */
  level: number;
  /** Note title followed by the chain of ancestor headings, joined with PATH_SEPARATOR. */
  headingPath: string;
  /** 1-based, inclusive; the heading's own line for headed sections. */
  startLine: number;
  endLine: number;
  /** Markdown source of the section body, without its heading line. */
  text: string;
  /** 0 for an unsplit section; 0,1,2… for the chunks of a long one. */
  chunk: number;
}

export interface ParsedNote {
  path: string;
  title: string;
  type: NoteType;
  status: string | null;
  /** YYYY-MM-DD (from frontmatter, the file name, or mtime). */
  date: string;
  /** Where `date` came from: mtime-based dates are weaker evidence for recency. */
  dateSource: 'frontmatter' | 'filename' | 'mtime';
  tags: string[];
  aliases: string[];
  /** Frontmatter as JSON-safe data ({} when absent or malformed). */
  frontmatter: Record<string, unknown>;
  sections: ParsedSection[];
  links: ParsedLink[];
  /** Problems found while parsing; the note is still indexed. */
  warnings: string[];
}

/** A note as the index knows it. */
export interface NoteRecord {
  id: number;
  path: string;
  title: string;
  type: NoteType;
  status: string | null;
  date: string;
  tags: string[];
  aliases: string[];
  frontmatter: Record<string, unknown>;
  size: number;
  mtimeMs: number;
}

/** A section as the index knows it. */
export interface SectionRecord extends Pick<ParsedSection, 'heading' | 'level' | 'headingPath' | 'startLine' | 'endLine' | 'text'> {
  id: number;
  noteId: number;
  ord: number;
}

export interface LinkRecord {
  kind: LinkKind;
  sourcePath: string;
  /** Resolved vault path, or null when the target is not in the vault. */
  targetPath: string | null;
  /** When no note: the vault path of the attachment it names (`![[image.png]]`, `[[board.canvas]]`), else null. */
  attachmentPath: string | null;
  /** When neither: the file of that name tsm skipped (too large, NUL bytes, a FIFO…), else null. */
  skipped: SkippedFile | null;
  /**
   * When none of those: the note or attachment of that name the vault's ignore rules leave out, else null. Filled in only
   * by index/ignored-links.ts (a walk of the vault): null as the index reads the link.
   */
  ignored: IgnoredFile | null;
  target: string;
  heading: string | null;
  text: string | null;
  line: number | null;
}

/** A file tsm skipped, and why: its warning, without the word "skipped". */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** A file the vault's .gitignore or .tsmignore leaves out of the index (vault/ignored-files.ts), and the rule that does. */
export interface IgnoredFile {
  /** Vault-relative, NFC, as the index would have named it. */
  path: string;
  /** The rules file whose pattern decides (vault/ignore-rules.ts RULES_FILES). */
  by: '.gitignore' | '.tsmignore';
  /** What that pattern ignores: the file itself (`private.md`) or a folder it is in (`drafts/`); `!` before it takes it back. */
  rule: string;
}

export interface IndexWarning {
  path: string;
  message: string;
}

export interface SyncSummary {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  skipped: number;
  warnings: number;
  seconds: number;
  /** A run over listed paths (`--files-from-stdin`): the listed paths it did not take, and why. */
  notTaken?: NotTaken[];
  /** The same run's listed paths that are no notes but attachments a link may name, as vault paths: recorded as such. */
  attachments?: string[];
  /** Notes whose read failed for the moment (a cloud file still downloading): to read again (load-note.ts TRANSIENT). */
  retry?: string[];
}

/** A path listed to `tsm index --files-from-stdin` that names no note of the vault. */
export interface NotTaken {
  /** As listed. */
  path: string;
  /** outside the vault, not a note, ignored, not found, …: what the user can act on. */
  reason: string;
}

export interface IndexStatus {
  notes: number;
  byType: Record<NoteType, number>;
  sections: number;
  links: number;
  unresolvedLinks: number;
  warnings: number;
  indexBytes: number;
  lastSync: string | null;
  schemaVersion: number;
}

/** Filters a search applies (AND across fields, OR within a list). */
export interface SearchFilters {
  types?: NoteType[];
  statuses?: string[];
  tags?: string[];
  pathPrefixes?: string[];
  /** Inclusive lower bound, YYYY-MM-DD. */
  after?: string;
  /** Exclusive upper bound, YYYY-MM-DD. */
  before?: string;
  /**
   * Modification times (ms, inclusive) that date no note within `after`/`before`: a note dated only by its
   * mtime in this span is out of the range (search/mtime-crowd.ts: most of the vault was written at once).
   */
  crowd?: { from: number; to: number };
  /** Filters that must hold as well: a query's own `tag:`/`path:`/`type:`/`status:` (AND-ed with the flags'). */
  also?: SearchFilters;
  /** FTS5 expressions (search/constraints.ts, never raw user text) a section must each match: quoted phrases, OR groups. */
  sectionMatches?: string[];
  /** FTS5 expression: notes with a section matching it are left out (excluded words). */
  excludeMatch?: string;
  /** Obsidian's Excluded files entries (vault/obsidian-excluded.ts): the notes they name are left out. */
  excludedFiles?: readonly string[];
}

export interface SearchHit {
  rank: number;
  /** Section id. */
  id: number;
  /** Fused score (RRF × recency × status). */
  score: number;
  path: string;
  type: NoteType;
  status: string | null;
  title: string;
  /** Heading path. */
  section: string;
  line: number;
  endLine: number;
  date: string | null;
  tags: string[];
  snippet: string;
  related: string[];
  /** Section text (markdown), for formats that need it. */
  content: string;
  /**
   * 0–1: frontmatter `surprise`/`importance` when present, else the search layer's novelty measure
   * (docs/search.md). Seed 003's "key moment" is surprise ≥ 0.7.
   */
  surprise: number;
  /**
   * Notes holding a copy of this hit's section (same heading path, same text), left out below it: a sync's
   * conflicted copy, a note copied into an archive (search/copies.ts). Absent when there is none.
   */
  copies?: string[];
}

export interface SearchResponse {
  /** The query as the user gave it. */
  query: string;
  /** Distinct hits before the top-k cut. */
  total: number;
  /**
   * The hits ranked, after the top-k cut: those an offset reaches (at most `total`). A common word's
   * `total` counts every note holding it, of which only the best few hundred are ranked.
   */
  ranked?: number;
  hits: SearchHit[];
  /** Filters applied, including those derived from temporal expressions. */
  filters: SearchFilters;
  /** When nothing matched: the query with its unknown words replaced by near words of the index. */
  didYouMean?: string;
  /** A date range read from the query's text that no matching note fell in, so the search ran without it. */
  datesIgnored?: { after?: string; before?: string };
  /** A date range read from the query's text whose `notes` (or sections) come first, followed by other dates'. */
  datesFirst?: { after?: string; before?: string; notes: number };
  /**
   * A date range read from a query of a word or two that no note of the range holds ("summarize last
   * week"): the range's `notes` are listed first, newest first, then other dates' matches.
   */
  datesListed?: { after?: string; before?: string; notes: number };
  /**
   * The text's date range left out the notes dated only by a modification time that most of the vault
   * shares (a checkout, a copy, a bulk edit: search/mtime-crowd.ts): `notes` of them, last changed on `day`.
   */
  datesCrowded?: { day: string; notes: number };
  /** The query named only dates (nothing else to rank by): the hits are that range's notes, newest first. */
  datesOnly?: { after?: string; before?: string };
  /** A build of the whole index is under way (or was stopped): the index holds only some notes. */
  indexIncomplete?: true;
  /** Dates of the query's text that its range does not show, for a notice (search/query-notices.ts). */
  datesUnread?: DatesUnread;
}

/** Dates written in a query's text that do not make its date range. */
export interface DatesUnread {
  /** Expressions read as dates apart from the range (`2026-03-05` after `2026-03-01`): the range is the first's. */
  apart?: { counted: string; apart: string[]; cover: { after?: string; before?: string } };
  /** Days that name no date (`2026-02-30`): searched as words. */
  noDays?: string[];
}

/** One finding of `tsm doctor`, always with what to do about it. */
export interface DoctorProblem {
  check: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix: string;
}
