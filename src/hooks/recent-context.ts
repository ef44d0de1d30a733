// SessionStart's "recent context" (pushed at session start): recent intents that led
// to actions, then a table of the most relevant recent notes by composite score. Pure: data in, markdown out.
import { localDay } from '../core/days.js';
import type { NoteType } from '../core/types.js';
import { relativeTime } from '../format/relative-time.js';
import { MAX_PATH_CHARS } from '../format/xml.js';
import { truncateStart, truncateText } from '../text/chars.js';
import { count } from '../text/count.js';
import { oneLine as cleanLine } from '../text/controls.js';
import { redactNotePath, redactNoteSecrets } from '../text/redact.js';
import { recencyFactor, recentScore, SESSION_START_PRESET } from '../search/recency.js';
import { oncePerSession } from '../sessions/note-format.js';

export interface IntentItem {
  /** The prompt's first line, as the session note's heading has it. */
  text: string;
  actions: number;
  /** When the session was active (ms since epoch). */
  when: number;
  /** Prompt number within its session (later prompts are more recent). */
  n: number;
  project: string | null;
  /** The session note the prompt is in. */
  notePath: string;
  /** Its session's id: a long session is several notes (a note closed at its size, a continuation). */
  session?: string | null;
}

export interface NoteItem {
  path: string;
  title: string;
  type: NoteType;
  status: string | null;
  /** When the note was written (ms since epoch). */
  when: number;
  /** A session note's project (its frontmatter `project`), if it has one. */
  project?: string | null;
  /** A session note's session id: one session is listed once, by its newest note. */
  session?: string | null;
}

export interface ContextLimits {
  intents: number;
  notes: number;
  maxLines: number;
  maxChars: number;
}

/** startup/resume: a glance. compact/clear: the agent just lost its context, so it gets more. */
export const NORMAL_LIMITS: ContextLimits = { intents: 8, notes: 10, maxLines: 32, maxChars: 2500 };
export const RECOVERY_LIMITS: ContextLimits = { intents: 15, notes: 20, maxLines: 50, maxChars: 4000 };

export function limitsFor(source: string | null): ContextLimits {
  return source === 'compact' || source === 'clear' ? RECOVERY_LIMITS : NORMAL_LIMITS;
}

const DAY_MS = 86_400_000;
/** Notes older than this are not "recent", whatever their type. */
export const RECENT_WINDOW_DAYS = 90;
const TEXT_CHARS = 60;
const TITLE_CHARS = 60;

/** 1 now, 0.5 a week ago; dates in the future count as now. */
export function recency(when: number, now: number): number {
  return recencyFactor((now - when) / DAY_MS, SESSION_START_PRESET.halfLifeDays);
}

export function noteScore(note: NoteItem, now: number): number {
  return recentScore(SESSION_START_PRESET, note.type, (now - note.when) / DAY_MS, note.status);
}

/** Notes of the last RECENT_WINDOW_DAYS, highest score first; ties by newer, then by path (a stable order). */
export function rankNotes(notes: NoteItem[], now: number): NoteItem[] {
  return notes
    .filter((n) => now - n.when <= RECENT_WINDOW_DAYS * DAY_MS)
    .map((n) => ({ n, s: noteScore(n, now) }))
    .sort((a, b) => b.s - a.s || b.n.when - a.n.when || (a.n.path < b.n.path ? -1 : 1))
    .map((x) => x.n);
}

/**
 * Whether a session belongs to the current project. Another project's prompts say nothing about this one
 * (and may be private to it), so they are not shown; when either side's project is unknown, it is kept.
 */
export function sameProject(sessionProject: string | null | undefined, project: string | null): boolean {
  return project === null || sessionProject === null || sessionProject === undefined || sessionProject === project;
}

/** This project's intents with actions only (zero-action turns are conversation), newest first. */
export function rankIntents(intents: IntentItem[], project: string | null): IntentItem[] {
  return intents.filter((i) => i.actions > 0 && sameProject(i.project, project)).sort((a, b) => b.when - a.when || b.n - a.n);
}

export interface RecentContextInput {
  vault: string;
  /** The current project (the last folder of the session's cwd), if known. */
  project: string | null;
  intents: IntentItem[];
  notes: NoteItem[];
  now: Date;
  limits: ContextLimits;
}

/** The markdown block, or '' when there is nothing to say. */
export function renderRecentContext(input: RecentContextInput): string {
  const now = input.now.getTime();
  let intents = rankIntents(input.intents, input.project).slice(0, input.limits.intents);
  // A session whose intents are listed is not listed again as a note, and a session of several notes (one
  // closed at its size, a continuation) is listed once, by its newest.
  const shown = new Set(intents.map((i) => i.notePath));
  const shownSessions = new Set(intents.flatMap((i) => (i.session ? [i.session] : [])));
  const candidates = input.notes.filter(
    (n) => !shown.has(n.path) && !(n.session && shownSessions.has(n.session)) && (n.type !== 'session' || sameProject(n.project, input.project)),
  );
  let notes = oncePerSession(rankNotes(candidates, now), (n) => n.session ?? null).slice(0, input.limits.notes);
  // What is shown goes to the model without the user asking: redacted as the prompt hook's results are (a title
  // is the user's own, `# DB_PASSWORD=…` included), whole, before any cut, once for all the fits below.
  intents = intents.map((i) => ({ ...i, text: redactNoteSecrets(i.text) }));
  notes = notes.map((n) => ({ ...n, title: redactNoteSecrets(n.title), path: redactNotePath(n.path) }));
  for (;;) {
    if (intents.length === 0 && notes.length === 0) return '';
    const text = assemble(input, intents, notes);
    const lines = text.split('\n').length;
    if (lines <= input.limits.maxLines && text.length <= input.limits.maxChars) return text;
    if (notes.length > 0) notes = notes.slice(0, -1);
    else intents = intents.slice(0, -1);
  }
}

function assemble(input: RecentContextInput, intents: IntentItem[], notes: NoteItem[]): string {
  const now = input.now;
  const out = ['## tsm: recent context', '', `Notes vault: ${input.vault} (search it with \`tsm search <words>\` or the tsm MCP tools)`];
  if (intents.length > 0) {
    out.push('', '### Recent intents');
    for (const i of intents) {
      const elsewhere = i.project !== null && i.project !== input.project ? ` (${oneLine(i.project, 40)})` : '';
      out.push(`- [${ago(i.when, now)}] "${oneLine(i.text, TEXT_CHARS)}" → ${count(i.actions, 'action')}${elsewhere}`);
    }
  }
  if (notes.length > 0) {
    out.push('', '### Recent notes', '', '| When | Type | Note | Title |', '|---|---|---|---|');
    for (const n of notes) {
      const type = n.status ? `${n.type}, ${n.status}` : n.type;
      // A path keeps its end, the file name, as the prompt hook's does: a path cut at its end names no note.
      const path = escapeCell(truncateStart(cleanLine(n.path), MAX_PATH_CHARS));
      out.push(`| ${ago(n.when, now)} | ${cell(type, 30)} | ${path} | ${cell(n.title, TITLE_CHARS)} |`);
    }
  }
  return out.join('\n');
}

/** "just now", "25 min ago", "3 h ago", then calendar words ("yesterday", "last week"…). */
export function ago(when: number, now: Date): string {
  const ms = now.getTime() - when;
  if (ms >= 0 && ms < 60_000) return 'just now';
  if (ms >= 0 && ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms >= 0 && ms < 86_400_000 && localDay(when) === localDay(now)) return `${Math.floor(ms / 3_600_000)} h ago`;
  return relativeTime(localDay(when), now);
}

/**
 * One line for the model, cleaned as the prompt hook's XML and search output clean text (no escapes, no \x01),
 * and cut as they cut text: at a word boundary, never inside an emoji or before a combining mark.
 */
function oneLine(text: string, max: number): string {
  return truncateText(cleanLine(text), max);
}

/** A table cell: one line, pipes escaped so a title can never add a column. */
function cell(text: string, max: number): string {
  return escapeCell(oneLine(text, max));
}

/** GFM splits a row at every unescaped pipe; a backslash is doubled so that one ending a title escapes nothing. */
function escapeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}
