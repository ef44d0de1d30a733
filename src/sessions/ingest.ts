// Transcript file → session note, incrementally: only bytes added since the last ingest are read.
// State (byte offset of the last complete line + the model so far + what was written) lives in one JSON
// file per session (stateKey: every file of its transcript shares it), written atomically together, so any
// state on disk is self-consistent.
//
// tsm only rewrites what it wrote. The state records a hash of each note as tsm last wrote it; a note whose
// file no longer has that hash was edited by its user, and is left alone: later prompts go to a
// continuation note (`…-2.md`). A note the user deleted is never written again, nor is anything more of
// that session (a user deletes a note for a reason, e.g. a secret in it); one renamed in its folder is found
// again by its session id, and followed (renamedNote; one an older tsm took for deleted is looked for once
// more: lookAgain). Both are recorded in the state, and keptNotes() lists them for `tsm status` / `tsm doctor`.

import { readdirSync, rmSync, statSync } from 'node:fs';
import { isInside, realPathOr } from '../vault/paths.js';
import { fileKind } from '../vault/file-kind.js';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { TsmError } from '../core/errors.js';
import { checkNoteHolds, countNewlines, NoteChangedError, noRoomFor, readRange, readTextOrNull, removeNoteIf, sha256, splitLines, stageNoteFile, writeFileAtomic, type NoteWriteOptions, type StagedNote } from './files.js';
import type { SessionModel } from './model.js';
import { DEFAULT_ANSWER_CHARS, hasContent, renderSessionNote, renderSessionNoteWithin, sessionNoteName } from './render.js';
import { NAME_ID_LENGTHS, sessionIdOfNote } from './note-format.js';
import { carriedSessionId, foldTranscriptLines, sliceModel, subAgentOf, type SkippedLines } from './transcript.js';

export { noRoomFor };

export interface IngestOptions {
  /** The vault: the folders below are made inside it, never it (src/vault/folders.ts). */
  vault: string;
  /** Absolute folder the session notes go to. */
  sessionsDir: string;
  /** Absolute folder for ingest state, e.g. `<vault>/.tsm/sessions`. */
  stateDir: string;
  answerChars?: number;
  /**
   * A note grown past this many bytes is closed, and the session goes on in a continuation note (NOTE_BYTES;
   * the caller makes it no larger than the vault's maxFileBytes, past which the index skips a file).
   */
  noteBytes?: number;
}

/**
 * The size a session note is closed at. Notes were never closed: a session of 1,200 long prompts made a 6.3 MB
 * note, which the index skipped as too large (maxFileBytes, 5 MiB by default), so the whole session was
 * gone from search, and every Stop rewrote all of it. 1 MB is a few hundred prompts with their answers.
 */
export const NOTE_BYTES = 1_000_000;

export interface IngestResult {
  sessionId: string;
  /** Absolute path of the note (where it would be, when the session has nothing to write yet). */
  notePath: string;
  /** False when the note on disk already had exactly this content (or there is nothing to write). */
  changed: boolean;
  /** Prompts in the session (prompt 0, activity before the first prompt, is not counted). */
  prompts: number;
  /** The session's notes tsm found changed or deleted by their user, and therefore left alone. */
  kept: KeptNote[];
  /** Absolute paths of notes this ingest removed (a note renamed when an earlier start turned up). */
  removed: string[];
  /**
   * Absolute paths of the notes this ingest wrote: `notePath`, and a note it closed at its size (rewritten
   * without the prompts that went on in the next) and every note between. The index takes each of them.
   */
  written: string[];
  /** Lines this ingest read that were not JSON objects, skipped (the rest was ingested); null when none was. */
  skipped: SkippedTranscriptLines | null;
  /**
   * The 1-based number of the transcript's last line when it has no newline yet and is no JSON object (Claude
   * Code still writing it, or a write cut short): not read, and read by the next ingest once it is complete.
   * null when there is none.
   */
  unfinishedLine: number | null;
}

/**
 * Complete lines (ended by a newline) read by one ingest that were neither blank nor a JSON object. Each
 * ingest tells only the lines it read, so a line is reported once; a last line without its newline is not
 * read yet (the next ingest reads it again, perhaps completed) and not counted.
 */
export interface SkippedTranscriptLines {
  count: number;
  /** 1-based number of the first, in the whole transcript. */
  firstLine: number;
}

/** Why a note is no longer written: its user edited it (later prompts go on in a new note) or deleted it. */
export type KeptReason = 'edited' | 'deleted';

export interface KeptNote {
  sessionId: string;
  /** Absolute path of the note as tsm last wrote it. */
  path: string;
  reason: KeptReason;
  /** ISO time tsm first saw it. */
  since: string;
}

/** One note tsm wrote for a session: the first, or a continuation after the user edited the one before. */
interface WrittenNote {
  /** Relative to the session's notes folder in the state file (a vault moved or synced elsewhere keeps its record). */
  path: string;
  /** sha256 of the content tsm last wrote there. */
  sha256: string;
  /** The prompts it holds: firstPrompt..lastPrompt (numbers; -1 for a file tsm found and did not write). */
  firstPrompt: number;
  lastPrompt: number;
  /** sha256 of the last prompt as written: if it grew afterwards (more actions, the answer), a continuation repeats it. */
  lastPromptSha?: string;
  /** Set once the user changed or deleted it: tsm never writes it again. */
  kept?: KeptReason;
  keptSince?: string;
  /** Closed at its size (noteBytes): complete (its prompts are not the session's last); the session goes on in the next note. */
  full?: boolean;
  /** Renamed by its user, and found again (renamedNote): tsm writes it under that name, never moves it back. */
  named?: boolean;
  /**
   * Kept as deleted after renamedNote looked for it under another name and found none. A 'deleted' without it
   * was recorded by a tsm before renamedNote (2026-11-29), which took a renamed note for deleted and stopped
   * the session for good: such a note is looked for once more (writeNotes).
   */
  sought?: boolean;
}

const STATE_VERSION = 2;

interface Fingerprint {
  length: number;
  sha256: string;
}

interface IngestState {
  version: number;
  transcriptPath: string;
  /** Bytes consumed: everything up to and including the last newline read. */
  offset: number;
  /** The first line identifies the file: if it changes, the file was replaced. */
  firstLine: Fingerprint | null;
  /** The notes written for this session, in order; the last one not kept is the one written to. */
  notes: WrittenNote[];
  /**
   * The folder `notes` are in and relative to: the sessions folder when the session's first note was written,
   * relative to the vault (absolute when outside it). The session's notes stay there when `sessionsDir` changes
   * afterwards. Absent in states written before it was recorded: the sessions folder configured now.
   */
  notesDir?: string;
  model: SessionModel | null;
}

/** Version 1 states recorded only the note's path: a note still equal to its render from the state is ours. */
interface StateV1 {
  version: 1;
  notePath: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What tsm keeps at the paths it reads, for the error that names one holding something else (files.ts readTextOrNull). */
const STATE = "this session's ingest state";
const NOTE = 'a session note';

/**
 * The transcript as ingest names it: absolute, symlinks resolved, so that a file reached through a linked
 * folder (a dotfile manager's ~/.claude, macOS's /var → /private/var) is one file with one state and one lock.
 * A path that does not resolve (no such file yet) stays as given: reading it reports the problem.
 */
export function transcriptRealPath(transcriptPath: string): string {
  return realPathOr(transcriptPath);
}

const fileIdOf = (transcriptPath: string) => basename(transcriptPath).replace(/\.jsonl?$/i, '');

/**
 * The name of a transcript's ingest state (and of its lock): the session's id, so that every file of one
 * session's transcript shares its state, and what was written for the session stays known — a note its user
 * deleted is not written again from another file. Claude Code names transcripts `<session id>.jsonl`; a file
 * of another name (`t1.jsonl`, a renamed backup) is keyed by the session id its lines carry (carriedSessionId,
 * as the note takes it). Keyed by the file's path, a copy named `<session id>.jsonl` had no record of the note
 * the user had deleted, and wrote it again. A file whose lines carry no UUID keeps its path's key (pathKey).
 */
export function stateKey(transcriptPath: string): string {
  const fileId = fileIdOf(transcriptPath);
  if (UUID.test(fileId)) return fileId.toLowerCase();
  const carried = carriedSessionIdOf(transcriptPath);
  return carried !== null && UUID.test(carried) ? carried.toLowerCase() : pathKey(transcriptPath);
}

/** The key of a transcript by its path: any file not known by a session id, and every file not named by one before tsm keyed them by the id carried. */
const pathKey = (transcriptPath: string) => `file-${sha256(transcriptPath).slice(0, 16)}`;

/** How far into a transcript the session id is looked for: its first lines carry it (a summary line or two may come first). */
const CARRIED_ID_BYTES = 1 << 20;

/** The session id the transcript's first complete lines carry, or null (none there, or the file unreadable: ingest reports that). */
function carriedSessionIdOf(transcriptPath: string): string | null {
  try {
    return carriedSessionId(headLines(transcriptPath));
  } catch {
    return null;
  }
}

const headLines = (transcriptPath: string) => splitLines(readRange(transcriptPath, 0, CARRIED_ID_BYTES)).lines;

/** A sub-agent's own transcript, refused (refuseSubAgent): named, an error; found in a folder, skipped as `agent-*.jsonl` is. */
export class SubAgentTranscriptError extends TsmError {
  override name = 'SubAgentTranscriptError';
}

/**
 * Refuses a sub-agent's transcript (transcript.ts subAgentOf), naming its session's own transcript. Its lines
 * carry the parent session's id, so it was keyed as the parent: ingested by name, it took over the parent's
 * state (its path, offset and model, 0 prompts: its lines are all the agent's own conversation, which a
 * session note leaves out), and every later ingest of the parent read its whole transcript again. What the
 * agent did is in the parent's transcript (its Task call, the files it read or edited), so it has no note
 * of its own. Claude Code names a session's own transcript `<session id>.jsonl`: such a file is not read here.
 */
function refuseSubAgent(transcriptPath: string): void {
  if (UUID.test(fileIdOf(transcriptPath))) return;
  let agent;
  try {
    agent = subAgentOf(headLines(transcriptPath));
  } catch {
    return; // unreadable: statSize says why
  }
  if (agent === null) return;
  const own = `${agent.sessionId}.jsonl`;
  const dir = dirname(transcriptPath);
  // Beside it (Claude Code 2.0), or above its `<session id>/subagents/` folder (2.1).
  const parent = [join(dir, own), join(dirname(dirname(dir)), own)].find((p) => p !== transcriptPath && fileKind(p) === 'file');
  const which = agent.agentId === null ? 'a sub-agent' : `sub-agent ${agent.agentId}`;
  const fix = parent === undefined ? `its session's own transcript, ${own}` : parent;
  // Worded as statSize's errors: the hook log names no transcript but the message's.
  throw new SubAgentTranscriptError(`cannot ingest transcript ${transcriptPath}: it is ${which}'s, of session ${agent.sessionId}; that session's note is written from its own transcript, which records what the agent did: ingest ${fix}`);
}

/**
 * Whether what a state records of its notes' places may be acted on: each note a plain `.md` name in the
 * notes folder, and that folder in the vault or the sessions folder configured. A state file is a file in
 * the vault (a sync, a copied vault or a cloned one brings it), and a note it records is rewritten or
 * deleted when the file there has the recorded sha256, which anyone who knows a file's content can give:
 * a planted state with notesDir `/tmp/evil` and a note `../victim.txt` made tsm write the session's note to
 * /tmp/evil and delete victim.txt. tsm names notes only so (sessionNoteName and its continuations, in one
 * folder), so a state of its own always passes.
 */
function recordedInPlace(state: Partial<IngestState>, opts: Pick<IngestOptions, 'vault' | 'sessionsDir'>): boolean {
  const configured = resolve(opts.sessionsDir);
  if (state.notesDir !== undefined) {
    if (typeof state.notesDir !== 'string') return false;
    const dir = resolve(opts.vault, state.notesDir);
    if (dir !== configured && !isInside(opts.vault, dir)) return false;
  }
  return (state.notes ?? []).every((n) => typeof n?.path === 'string' && plainNoteName(n.path));
}

const plainNoteName = (name: string) => name === basename(name) && /.\.md$/i.test(name);

/** A version 1 state's note (an absolute path): in the vault or the sessions folder configured. */
const inVaultOrSessions = (path: string, opts: Pick<IngestOptions, 'vault' | 'sessionsDir'>) =>
  isInside(opts.vault, path) || dirname(resolve(path)) === resolve(opts.sessionsDir);

/**
 * The transcript a session's notes were written from, as its ingest state records it (states of transcripts
 * named by their session id: Claude Code's), or null. For `tsm doctor`: a session note an older tsm let grow
 * past the vault's maxFileBytes is written again, closed at its size, by ingesting that transcript.
 */
export function transcriptOfSession(stateDir: string, sessionId: string): string | null {
  if (!UUID.test(sessionId)) return null;
  try {
    const state = JSON.parse(readTextOrNull(join(stateDir, `${sessionId.toLowerCase()}.json`), STATE) ?? 'null') as Partial<IngestState> | null;
    return typeof state?.transcriptPath === 'string' ? state.transcriptPath : null;
  } catch {
    return null;
  }
}

/** The state file as it was left, whichever path of the session's transcript wrote it (see `stateKey`). */
function loadState(statePath: string, answerChars: number, opts: IngestOptions): IngestState | null {
  const text = readTextOrNull(statePath, STATE);
  if (text === null) return null;
  try {
    const state = JSON.parse(text) as IngestState | (Omit<IngestState, 'version' | 'notes'> & StateV1);
    const valid =
      (state.version === STATE_VERSION || state.version === 1) &&
      typeof state.transcriptPath === 'string' &&
      Number.isInteger(state.offset) &&
      state.offset >= 0 &&
      typeof state.model === 'object';
    if (!valid) return null;
    // Not to be acted on: as a corrupt state, it costs one full re-read (see below).
    if (state.version === STATE_VERSION) return Array.isArray(state.notes) && recordedInPlace(state, opts) ? state : null;
    const v1 = (state as StateV1).notePath ?? null;
    if (v1 !== null && (typeof v1 !== 'string' || !inVaultOrSessions(v1, opts) || !plainNoteName(basename(v1)))) return null;
    return { ...state, version: STATE_VERSION, notes: notesOfV1(v1, state.model, answerChars) };
  } catch {
    // A corrupt state costs one full re-read; the notes it recorded are then unknown, and an existing note
    // that differs from the new render is left alone (when in doubt, write less).
    return null;
  }
}

/** (Paths of the records returned here are absolute, which resolve() in ingestTranscript keeps as they are.) */
function notesOfV1(notePath: string | null, model: SessionModel | null, answerChars: number): WrittenNote[] {
  if (notePath === null || model === null) return [];
  const text = readTextOrNull(notePath, NOTE);
  if (text === null || text !== renderSessionNote(model, { answerChars })) return [];
  return [{ path: notePath, sha256: sha256(text), firstPrompt: 0, lastPrompt: lastPromptOf(model) }];
}

// A loop, not Math.max(...numbers): 150,000 prompts passed what a call's arguments hold (stack overflow).
const lastPromptOf = (model: SessionModel) => model.prompts.reduce((last, p) => Math.max(last, p.n), -1);

/** Whether the transcript is still the file the state describes (it only ever grows). */
function sameFile(state: IngestState, transcriptPath: string, size: number): boolean {
  if (state.transcriptPath !== transcriptPath || size < state.offset) return false;
  return state.offset === 0 || sameFirstLine(state, transcriptPath, size);
}

/** Whether the transcript starts with the line the state's transcript started with. */
function sameFirstLine(state: IngestState, transcriptPath: string, size: number): boolean {
  const first = state.firstLine;
  if (!first || size < first.length) return false;
  return sha256(readRange(transcriptPath, 0, first.length)) === first.sha256;
}

/**
 * Another copy of the transcript already read, shorter than what was read (an older backup of
 * ~/.claude/projects): it holds nothing new, and writing the note from it would take the later prompts out
 * of the session's note, for good once the live transcript is gone.
 */
function olderCopy(state: IngestState, transcriptPath: string, size: number): boolean {
  return state.transcriptPath !== transcriptPath && size < state.offset && sameFirstLine(state, transcriptPath, size);
}

/**
 * The transcript's size, or an error written for the reader: a plain Error went to hook.log (and `tsm doctor`)
 * as `Error: … (at statSize (file:///…/chunk-….js:491:11))`, a bug report for what is a missing file.
 */
function statSize(transcriptPath: string): number {
  let st;
  try {
    st = statSync(transcriptPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied: give this user read access to it' : 'it cannot be read';
    throw new TsmError(`cannot read transcript ${transcriptPath}: ${why} (${code})`);
  }
  // A FIFO has size 0, and its first read would wait for a writer (readRange refuses it, this says why).
  if (!st.isFile()) throw new TsmError(`cannot read transcript ${transcriptPath}: not a plain file (a folder, a pipe, a socket or a device)`);
  return st.size;
}

/**
 * Ingests a Claude Code transcript into its session note, reading only what was appended since the
 * last call. Idempotent: the same transcript always gives the same note, rewritten in place, unless
 * its user changed or deleted it (see the header).
 *
 * A note its user changed between this ingest's check and its write is not written (files.ts
 * writeNoteFile), nor is the state: the ingest runs once more, and finds the note edited. A plan of several
 * writes (a note closed at its size, and its continuations) may have written some before the one that
 * changed: the second run knows them by what the first wrote there (`ran`). Before, it took each for a note
 * its user had edited and wrote their prompts again in new continuations: an ingest of 24 notes whose last
 * met a file that appeared there left 23 notes "edited" and 23 more repeating them
 * (test/sessions/retry-own-notes.e2e.test.ts).
 */
export function ingestTranscript(transcriptPath: string, opts: IngestOptions): IngestResult {
  const ran: RanWrites = { wrote: new Map(), removed: new Set() };
  try {
    return ingestOnce(transcriptPath, opts, ran);
  } catch (err) {
    if (!(err instanceof NoteChangedError)) throw err;
    const r = ingestOnce(transcriptPath, opts, ran);
    // What the first run wrote or removed is changed for the index too, though this one found it done.
    const written = [...new Set([...r.written, ...ran.wrote.keys()])];
    const removed = [...new Set([...r.removed, ...ran.removed])];
    return { ...r, written, removed, changed: r.changed || written.length + removed.length > 0 };
  }
}

/** The notes this ingest has written (path → sha256 of what it wrote there) and removed, across its runs. */
interface RanWrites {
  wrote: Map<string, string>;
  removed: Set<string>;
}

function ingestOnce(transcriptPath: string, opts: IngestOptions, ran: RanWrites): IngestResult {
  const path = transcriptRealPath(transcriptPath);
  const fileId = fileIdOf(path);
  const key = stateKey(path);
  const statePath = join(resolve(opts.stateDir), `${key}.json`);
  const answerChars = opts.answerChars ?? DEFAULT_ANSWER_CHARS;
  const noteBytes = opts.noteBytes ?? NOTE_BYTES;
  const size = statSize(path);
  refuseSubAgent(path);

  // This file's state as a tsm that keyed it by its path left it, taken over while the session's has none.
  const oldPath = key === pathKey(path) ? null : join(resolve(opts.stateDir), `${pathKey(path)}.json`);
  const own = loadState(statePath, answerChars, opts);
  const old = own === null && oldPath !== null ? loadState(oldPath, answerChars, opts) : null;
  const loaded = own ?? old;
  if (loaded?.model && olderCopy(loaded, path, size)) {
    const { notes } = notesOf(loaded, opts);
    const { sessionId, prompts } = loaded.model;
    return { sessionId, notePath: notes.at(-1)?.path ?? '', changed: false, prompts: prompts.filter((p) => p.n > 0).length, kept: keptOf(sessionId, notes), removed: [], written: [], skipped: null, unfinishedLine: null };
  }
  // A replaced or shrunk transcript, or another copy of the session's, is read again from the start; what was
  // written stays known. (Dropping the record made the session's own note look edited by its user: a
  // continuation note `-2` repeating the whole session, and another at each switch between the copies.)
  const state = loaded && sameFile(loaded, path, size) ? loaded : null;
  const offset = state?.offset ?? 0;

  const bytes = readRange(path, offset, size);
  const { lines, consumed, rest } = splitLines(bytes);
  const { model, skipped } = foldTranscriptLines(state?.model ?? null, lines, fileId);
  // Numbered before the state moves past these lines: a read that fails here leaves them to the next ingest.
  const skippedLines = skipped && { count: skipped.count, firstLine: lineNumber(path, offset, skipped) };
  // A final line without its newline is shown if complete, but not consumed (nor counted as skipped): next time
  // it is read again. One that is not yet a JSON object is told of (unfinishedLine), so `tsm ingest-session`
  // on a transcript cut short says that its last line was not read.
  const tail = rest.trim() === '' ? null : foldTranscriptLines(model, [rest], fileId);
  const view = tail?.model ?? model;
  const unfinishedLine = tail?.skipped ? (offset === 0 ? 0 : countNewlines(path, offset)) + lines.length + 1 : null;

  let firstLine = state?.firstLine ?? null;
  if (offset === 0 && consumed > 0) {
    const end = bytes.indexOf(0x0a);
    firstLine = { length: end, sha256: sha256(bytes.subarray(0, end)) };
  }

  // What was written stays known across a re-read, as long as it is the same session: a transcript
  // replaced by another session's starts that session's notes afresh (and never touches the old ones).
  const sameSession = state !== null || loaded?.model?.sessionId === view.sessionId;
  const { notes, dir } = loaded && sameSession ? notesOf(loaded, opts) : { notes: [], dir: resolve(opts.sessionsDir) };
  const plan: NoteWrites = { notes: [], writes: [], written: [], removed: [], ran };
  const placed = hasContent(view)
    ? writeNotes(opts.vault, view, notes, dir, { answerChars, noteBytes, rendered: new Map() }, plan)
    : { changed: false, notePath: notes.at(-1)?.path ?? join(dir, sessionNoteName(view)) };

  const stored = notes.map((n) => ({ ...n, path: relative(dir, n.path) }));
  const notesDir = isInside(opts.vault, dir) ? relative(resolve(opts.vault), dir) : dir;
  const nextState: IngestState = { version: STATE_VERSION, transcriptPath: path, offset: offset + consumed, firstLine, notes: stored, notesDir, model };
  try {
    // The note's writes go between the state's temp file and its rename (files.ts writeFileAtomic).
    writeFileAtomic(opts.vault, statePath, JSON.stringify(nextState), () => runWrites(opts.vault, plan));
  } catch (err) {
    throw noRoomFor(err, `the session's ingest state ${statePath}`) ?? err;
  }
  // Recorded under the session's key now: the old one would list its kept notes twice (keptNotes). tsm wrote it.
  if (old !== null && oldPath !== null) rmSync(oldPath, { force: true });

  return {
    sessionId: view.sessionId,
    notePath: placed.notePath,
    changed: placed.changed,
    prompts: view.prompts.filter((p) => p.n > 0).length,
    kept: keptOf(view.sessionId, notes),
    removed: plan.removed,
    written: plan.written,
    skipped: skippedLines,
    unfinishedLine,
  };
}

/**
 * The 1-based number in the whole transcript of the first skipped line, of those read from byte `offset` (a
 * line's start). The state keeps no line count: the lines before `offset` are counted, by reading them, only
 * when a line was skipped, which is rare (189 MB of transcript: 55 ms, from the page cache). A count kept in
 * the state would need a new state version, and a state written before it would need this same count anyway.
 */
function lineNumber(path: string, offset: number, skipped: SkippedLines): number {
  return (offset === 0 ? 0 : countNewlines(path, offset)) + skipped.first + 1;
}

/**
 * The session's notes as the state records them, with absolute paths, and the folder they are in. A session
 * keeps its folder when `sessionsDir` changes: its note is updated where it is, and only new sessions go to
 * the new folder (else its note looked deleted by the user, and tsm wrote nothing more of the session). A
 * session whose note the user moved to the new folder, unchanged (`mv sessions/* new/`), follows it there.
 */
function notesOf(state: IngestState, opts: IngestOptions): { notes: WrittenNote[]; dir: string } {
  const configured = resolve(opts.sessionsDir);
  const recorded = state.notesDir === undefined ? configured : resolve(opts.vault, state.notesDir);
  const at = (dir: string) => state.notes.map((n) => ({ ...n, path: resolve(dir, n.path) }));
  const notes = at(recorded);
  if (recorded === configured) return { notes, dir: recorded };
  const moved = at(configured);
  const i = notes.findLastIndex((n) => !n.kept);
  const movedThere = i >= 0 && readTextOrNull(notes[i].path, NOTE) === null && sha256(readTextOrNull(moved[i].path, NOTE) ?? '') === notes[i].sha256;
  return movedThere ? { notes: moved, dir: configured } : { notes, dir: recorded };
}

const now = () => new Date().toISOString();

/** What an ingest does to the session's notes: the writes, and the notes they write and remove. */
interface NoteWrites {
  /** The notes' new contents, staged (written beside them) before any write runs: runWrites. */
  notes: { path: string; content: string; opts: NoteWriteOptions }[];
  /** In order: each note's checks, its staged content put in place, a note it replaces removed. */
  writes: ((staged: Map<string, StagedNote>) => void)[];
  written: string[];
  removed: string[];
  /** What the writes did, kept across the ingest's runs (ingestTranscript). */
  ran: RanWrites;
}

/**
 * Runs the plan's writes once every note they place is staged, so that a disk too full for one fails before
 * any is placed (files.ts stageNoteFile); a staged note not placed (a write that failed first) is removed.
 */
function runWrites(vault: string, plan: NoteWrites): void {
  const staged = new Map<string, StagedNote>();
  try {
    for (const note of plan.notes) staged.set(note.path, stageNoteFile(vault, note.path, note.content, note.opts));
    for (const write of plan.writes) write(staged);
  } finally {
    for (const note of staged.values()) note.discard();
  }
}

/**
 * The sha256 of `text`, a note's at `path`, when it is what tsm wrote there — as the state records it
 * (`recorded`), or as this ingest's earlier run wrote it — else null (no file, or the user's since). tsm
 * writes plain files: a link there is the user's (a note moved elsewhere and linked back), even when what
 * it leads to is tsm's note as written. Taken for the note, the link was replaced by a new file, and the
 * note it led to stayed behind, stale.
 */
function shaIfOurs(text: string | null, path: string, recorded: string | undefined, ran: RanWrites): string | null {
  const sha = text === null || fileKind(path, { lstat: true }) !== 'file' ? null : sha256(text);
  return sha !== null && (sha === recorded || sha === ran.wrote.get(path)) ? sha : null;
}

/**
 * Plans the writes of the session's current note (into `plan`, whose writes the caller runs once the state
 * that records them is ready), updating `notes` in place. The note written to is the last one not kept; if its
 * file is gone or no longer what tsm wrote, it is kept (left alone) first.
 */
function writeNotes(
  vault: string,
  view: SessionModel,
  notes: WrittenNote[],
  sessionsDir: string,
  sizes: { answerChars: number; noteBytes: number; rendered: Map<number, string> },
  plan: NoteWrites,
): { changed: boolean; notePath: string } {
  const { answerChars } = sizes;
  const last = notes.at(-1);
  if (last?.kept === 'deleted' && !last.sought) lookAgain(last, notes, view.sessionId, plan);
  if (notes.some((n) => n.kept === 'deleted')) return { changed: false, notePath: last?.path ?? '' };
  let active = last && !last.kept && !last.full ? last : undefined;
  if (active) {
    let text = readTextOrNull(active.path, NOTE);
    const renamed = text === null ? renamedNote(active, notes, view.sessionId) : null;
    if (renamed !== null) {
      follow(active, renamed, plan);
      text = readTextOrNull(renamed, NOTE);
    }
    const ours = shaIfOurs(text, active.path, active.sha256, plan.ran);
    if (ours !== null) active.sha256 = ours;
    else {
      active.kept = text === null ? 'deleted' : 'edited';
      active.keptSince = now();
      if (active.kept === 'deleted') {
        active.sought = true;
        return { changed: false, notePath: active.path };
      }
      active = undefined;
    }
  }

  const part = active ? notes.indexOf(active) : notes.length;
  const from = active ? active.firstPrompt : part === 0 ? 0 : continueFrom(notes[part - 1], view);
  const whole = from <= 0 ? view : sliceModel(view, from);
  if (!hasContent(whole)) return { changed: false, notePath: (active ?? last)?.path ?? '' };

  const firstName = part === 0 ? sessionNoteName(view) : basename(notes[0].path);
  const continues = part === 0 ? null : { note: firstName, part: part + 1 };
  const { model, content, closed: full } = renderSessionNoteWithin(whole, { answerChars, continues }, sizes.noteBytes, sizes.rendered);
  let changed = false;
  let target: string;
  if (part === 0) {
    // The first note's name follows `started`: if an earlier start turned up, it moves (when the new name is free).
    const wanted = join(sessionsDir, sessionNoteName(view));
    target = active && (active.named || (active.path !== wanted && !freeFor(wanted, content))) ? active.path : wanted;
    if (!active) target = firstOfSession(NAME_ID_LENGTHS.map((n) => join(sessionsDir, sessionNoteName(view, n))), view.sessionId, content);
  } else {
    const names = [join(dirname(notes[0].path), firstName.replace(/\.md$/i, `-${part + 1}.md`))];
    names.push(...NAME_ID_LENGTHS.slice(1).map((n) => join(sessionsDir, sessionNoteName(view, n).replace(/\.md$/i, `-${part + 1}.md`))));
    target = active?.path ?? firstOfSession(names, view.sessionId, content);
  }

  // A note this ingest's earlier run wrote at `target` is its own (was: what it holds), not one of the user's.
  const wasRan = active ? null : shaIfOurs(readTextOrNull(target, NOTE), target, undefined, plan.ran);
  if (!active && wasRan === null && !freeFor(target, content)) {
    // A note of this session tsm has no record of writing sits where the note goes (a lost state, or a copy
    // the user made): it is left alone, recorded, and the session goes on in the next note.
    notes.push({ path: target, sha256: '', firstPrompt: from, lastPrompt: from - 1, kept: 'edited', keptSince: now() });
    return writeNotes(vault, view, notes, sessionsDir, sizes, plan);
  }
  const moving = active && active.path !== target ? { old: active.path, was: active.sha256 } : null;
  // Checked once more before the new name is written: a note its user changed just now leaves no copy behind.
  if (moving) plan.writes.push(() => checkNoteHolds(moving.old, moving.was));
  if (readTextOrNull(target, NOTE) !== content) {
    const newSession = notes.length === 0;
    // What is there now, checked again just before the write: the note tsm wrote (checked above), or no file.
    const was = active && active.path === target ? active.sha256 : wasRan;
    plan.notes.push({ path: target, content, opts: { newSession, was } });
    plan.writes.push((staged) => {
      (staged.get(target) as StagedNote).place(); // staged by runWrites, from plan.notes
      plan.ran.wrote.set(target, sha256(content));
    });
    plan.written.push(target);
    changed = true;
  }
  if (moving) {
    plan.writes.push(() => {
      removeNoteIf(moving.old, moving.was); // checked above, and again: it still holds exactly what tsm wrote
      plan.ran.removed.add(moving.old);
    });
    plan.removed.push(moving.old);
    changed = true;
  }
  const lastPrompt = lastPromptOf(model);
  const record: WrittenNote = { path: target, sha256: sha256(content), firstPrompt: from, lastPrompt, lastPromptSha: promptSha(model, lastPrompt) };
  if (full) record.full = true;
  if (active?.named) record.named = true;
  if (active) notes[part] = record;
  else notes.push(record);
  if (!full) return { changed, notePath: target };
  const next = writeNotes(vault, view, notes, sessionsDir, sizes, plan);
  return { changed: changed || next.changed, notePath: next.notePath };
}

/** The session's note, found renamed (renamedNote): written under that name from now on. */
function follow(note: WrittenNote, renamed: string, plan: NoteWrites): void {
  // Gone from its index entry's path too: the index is told (the sync sees the file missing).
  plan.removed.push(note.path);
  note.path = renamed;
  note.named = true;
}

/**
 * A note a tsm before renamedNote recorded as deleted (no `sought`), looked for once more by the same rule:
 * still gone from its path, and exactly one unrecorded note of its folder carries the session's id. Found,
 * it is the session's note again (writeNotes then checks it as any: unchanged, it is written on; edited, the
 * session goes on in a continuation); else it stays deleted, and is not looked for again. A note back at
 * its recorded path (restored from the trash, say) is not followed: a note taken for deleted is never
 * written again. Before, such a session stayed stopped: its renamed note got nothing more of it.
 */
function lookAgain(deleted: WrittenNote, notes: WrittenNote[], sessionId: string, plan: NoteWrites): void {
  deleted.sought = true;
  if (deleted.full || readTextOrNull(deleted.path, NOTE) !== null) return;
  const renamed = renamedNote(deleted, notes, sessionId);
  if (renamed === null) return;
  follow(deleted, renamed, plan);
  delete deleted.kept;
  delete deleted.keptSince;
  delete deleted.sought;
}

/**
 * Where the session's note went when it is gone from where tsm wrote it: renamed by its user (Obsidian's
 * rename keeps the folder and the content). Found when exactly one `.md` file of its folder that the state
 * does not record carries the session's id in its frontmatter. A note's `session_id` is its second line, so
 * only the first 4 KB of each is read: a folder of 2,000 notes took 20 ms from the page cache, 240 ms cold,
 * and only once (a note found, or taken for deleted, is recorded so: `sought`). Unchanged, tsm goes on
 * writing it under its new name; changed as well, it is an edited note, left alone, and the session goes on
 * in a continuation. None, or more than one (a copy, say), or another note of the session gone from its name
 * as well, and the note counts as deleted, as before: a note its user deleted is never written again. A note
 * moved to another folder is not looked for (a state records its notes in one folder: recordedInPlace).
 * Taken for deleted, a renamed note stopped the whole session.
 */
function renamedNote(gone: WrittenNote, notes: WrittenNote[], sessionId: string): string | null {
  // Another of the session's notes gone from its name too: which one a note found is cannot be told. (Its
  // first note renamed and its continuation deleted, the first was taken for the continuation renamed and
  // edited, and the session went on in a `-3` note though its user had deleted the `-2`.)
  if (notes.some((n) => n !== gone && nothingAt(n.path))) return null;
  const dir = dirname(gone.path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const recorded = new Set(notes.map((n) => basename(n.path)));
  const found = names.filter((name) => plainNoteName(name) && !name.startsWith('.') && !recorded.has(name) && headSessionId(join(dir, name)) === sessionId);
  return found.length === 1 ? join(dir, found[0]) : null;
}

const NOTE_HEAD_BYTES = 4096;

/** The session id in the frontmatter of a note's first 4 KB (closed there when longer), or null (none, or not a plain file). */
function headSessionId(path: string): string | null {
  try {
    const head = readRange(path, 0, NOTE_HEAD_BYTES);
    const text = head.toString('utf8');
    return sessionIdOfNote(head.length < NOTE_HEAD_BYTES ? text : `${text}\n---\n`);
  } catch {
    return null;
  }
}

const promptSha = (model: SessionModel, n: number): string | undefined => {
  const prompt = model.prompts.find((p) => p.n === n);
  return prompt ? sha256(JSON.stringify(prompt)) : undefined;
};

/**
 * Where a continuation starts: after the kept note's last prompt, or at it when that prompt went on after
 * the note was written (the note was edited mid-turn; the prompt's later actions and answer are not lost).
 */
function continueFrom(kept: WrittenNote, view: SessionModel): number {
  const grew = kept.lastPromptSha !== undefined && kept.lastPrompt >= 0 && promptSha(view, kept.lastPrompt) !== kept.lastPromptSha;
  return grew ? kept.lastPrompt : kept.lastPrompt + 1;
}

/**
 * Where a new note of this session goes: the first of `paths` that is free, or holds a note of this session
 * (which is then left alone, the caller's concern). A file at the others is not this session's — another
 * session whose id starts with the same 8 characters, or the user's own file — and is passed by: it is
 * neither "edited" by anyone nor a note the session continues. All taken: the first (as before).
 */
function firstOfSession(paths: string[], sessionId: string, content: string): string {
  for (const path of [...new Set(paths)]) {
    const text = readTextOrNull(path, NOTE);
    if (text === null ? nothingAt(path) : text === content || sessionIdOfNote(text) === sessionId) return path;
  }
  return paths[0];
}

/** Whether `content` may go to `path`: nothing is there, or exactly this content already is. */
function freeFor(path: string, content: string): boolean {
  const text = readTextOrNull(path, NOTE);
  return text === null ? nothingAt(path) : text === content;
}

/**
 * Whether no file at all is at `path`, a link included: one that leads nowhere (or a file this user cannot
 * read) reads as no note, but a new note is never made over it (files.ts createOnly). Taken for a free name,
 * it failed every ingest of the session with "the session note … changed while tsm was writing it".
 */
const nothingAt = (path: string) => fileKind(path, { lstat: true }) === 'absent';

function keptOf(sessionId: string, notes: WrittenNote[]): KeptNote[] {
  return notes.flatMap((n) => (n.kept ? [{ sessionId, path: n.path, reason: n.kept, since: n.keptSince ?? '' }] : []));
}

/**
 * Every session note tsm has left alone because its user edited or deleted it, read from the ingest state
 * folder (`<vault>/.tsm/sessions`), oldest first, with absolute paths (each session's notes in its folder:
 * notesOf). For `tsm status` / `tsm doctor`; [] when there is no state.
 */
export function keptNotes(stateDir: string, opts: Pick<IngestOptions, 'vault' | 'sessionsDir'>): KeptNote[] {
  let names: string[];
  try {
    names = readdirSync(stateDir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: KeptNote[] = [];
  for (const name of names) {
    try {
      const state = JSON.parse(readTextOrNull(join(stateDir, name), STATE) ?? 'null') as Partial<IngestState> | null;
      if (!state || state.version !== STATE_VERSION || !Array.isArray(state.notes) || !recordedInPlace(state, opts)) continue;
      const { notes } = notesOf(state as IngestState, { ...opts, stateDir });
      out.push(...keptOf(state.model?.sessionId ?? name.replace(/\.json$/, ''), notes));
    } catch {
      // an unreadable state file says nothing about kept notes
    }
  }
  return out.sort((a, b) => a.since.localeCompare(b.since) || a.path.localeCompare(b.path));
}
