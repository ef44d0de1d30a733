// SessionStart: read recent session notes (their prompts and action counts) and recent notes from the
// index, and render them as the compact "recent context" block. Sessions of other projects are left out.
import { localDay } from '../core/days.js';
import type { NoteRecord, SectionRecord } from '../core/types.js';
import { buildUnfinished, INCOMPLETE_INDEX_NOTE } from '../index/build-state.js';
import { withIndexReader } from '../index/open-reader.js';
import { NoteReader } from '../index/note-reader.js';
import { recentBefore } from '../search/dates.js';
import { mtimeCrowd } from '../search/mtime-crowd.js';
import { sessionIdOfRecord, sessionPrompts } from '../sessions/note-format.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { searchExclusions } from '../vault/obsidian-excluded.js';
import type { Deadline } from './deadline.js';
import { hookOutput } from './output.js';
import { limitsFor, renderRecentContext, type IntentItem, type NoteItem } from './recent-context.js';

/** Notes considered for the table (newest by date); scoring picks among them. */
const NOTE_CANDIDATES = 200;
/** Session notes read for intents. */
const SESSION_CANDIDATES = 20;

export type SessionStartResult = { kind: 'context'; output: string } | { kind: 'none'; problem?: string };

export interface SessionStartOptions {
  source: string | null;
  /** The project the session runs in (last folder of its cwd). */
  project: string | null;
  deadline: Deadline;
  now?: Date;
}

export function sessionStartContext(cfg: TsmConfig, opts: SessionStartOptions): SessionStartResult {
  const now = opts.now ?? new Date();
  const markdown = withIndexReader(
    cfg.db,
    (db) => {
      // During a build of the whole index (or after one was stopped) the newest notes it has are only the
      // first ones the build wrote, shown as if they were the vault's latest: nothing, as the prompt hook does.
      if (buildUnfinished(db)) return null;
      const reader = new NoteReader(db, cfg.db);
      // Notes a clone or a copy dated all at once were not written lately (search/mtime-crowd.ts).
      const crowd = mtimeCrowd(reader) ?? undefined;
      // Obsidian's Excluded files are no recent work, as they are no search result.
      const excluded = searchExclusions(cfg);
      const before = recentBefore(now);
      const notes = reader.recentNotes(NOTE_CANDIDATES, before, undefined, crowd, excluded).map(toNoteItem);
      const intents = reader.recentNotes(SESSION_CANDIDATES, before, 'session', crowd, excluded).flatMap((note) => intentsOf(note, reader.sectionsOfNote(note.id)));
      return renderRecentContext({ vault: cfg.vault, project: opts.project, intents, notes, now, limits: limitsFor(opts.source) });
    },
    { busyTimeoutMs: opts.deadline.remaining(), tsmDir: tsmDir(cfg), vault: cfg.vault },
  );
  if (opts.deadline.passed()) {
    return { kind: 'none', problem: `deadline of ${opts.deadline.ms} ms passed while reading recent context; nothing injected` };
  }
  if (markdown === null) return { kind: 'none', problem: `${INCOMPLETE_INDEX_NOTE}; nothing injected` };
  return markdown === '' ? { kind: 'none' } : { kind: 'context', output: hookOutput('SessionStart', markdown) };
}

/**
 * When a note was written: a session note's end (or start), else its date, sharpened by mtime on that day.
 * Only a session note's: tsm writes them as moments, while another note's `started`/`ended` are whatever its
 * author meant (a project's days: `ended: 2025-03-01` hid a note edited yesterday, and a day alone read as
 * midnight UTC fell on the day before west of UTC).
 */
export function noteTime(note: NoteRecord): number {
  if (note.type === 'session') {
    for (const key of ['ended', 'started']) {
      const v = note.frontmatter[key];
      const ms = typeof v === 'string' ? Date.parse(v) : NaN;
      if (Number.isFinite(ms)) return ms;
    }
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(note.date);
  if (!m) return note.mtimeMs;
  return localDay(note.mtimeMs) === note.date ? note.mtimeMs : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12).getTime();
}

function toNoteItem(note: NoteRecord): NoteItem {
  const project = typeof note.frontmatter.project === 'string' ? note.frontmatter.project : null;
  return { path: note.path, title: note.title, type: note.type, status: note.status, when: noteTime(note), project, session: sessionIdOfRecord(note) };
}


/**
 * The prompts of a session note (layout: sessions/note-format.ts), each with its number of actions, as
 * SessionStart's intents. Prompt 0 (activity before the first prompt) is not an intent.
 */
export function intentsOf(note: NoteRecord, sections: SectionRecord[]): IntentItem[] {
  const project = typeof note.frontmatter.project === 'string' ? note.frontmatter.project : null;
  const when = noteTime(note);
  return sessionPrompts(sections)
    .filter((p) => p.n > 0 && p.heading !== '')
    .map((p) => ({ text: p.heading, actions: p.actions.length, when, n: p.n, project, notePath: note.path, session: sessionIdOfRecord(note) }));
}
