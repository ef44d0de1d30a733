// Transcript file → session note, incrementally: only bytes added since the last ingest are read.
// State (byte offset of the last complete line + the model so far) lives in one JSON file per
// transcript, written atomically together, so any state on disk is self-consistent.

import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readRange, readTextOrNull, splitLines, writeFileAtomic } from './files.js';
import { DEFAULT_ANSWER_CHARS, hasContent, renderSessionNote, sessionNoteName } from './render.js';
import type { SessionModel } from './model.js';
import { applyTranscriptLines } from './transcript.js';

export interface IngestOptions {
  /** Absolute folder the session notes go to. */
  sessionsDir: string;
  /** Absolute folder for ingest state, e.g. `<vault>/.tsm/sessions`. */
  stateDir: string;
  answerChars?: number;
}

export interface IngestResult {
  sessionId: string;
  /** Absolute path of the note (where it would be, when the session has nothing to write yet). */
  notePath: string;
  /** False when the note on disk already had exactly this content (or there is nothing to write). */
  changed: boolean;
  /** Prompts in the session (prompt 0, activity before the first prompt, is not counted). */
  prompts: number;
}

const STATE_VERSION = 1;

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
  notePath: string | null;
  model: SessionModel | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Claude Code names transcripts `<session id>.jsonl`; other files are keyed by a hash of their path. */
function stateKey(transcriptPath: string, fileId: string): string {
  return UUID.test(fileId) ? fileId.toLowerCase() : `file-${sha256(transcriptPath).slice(0, 16)}`;
}

function loadState(statePath: string, transcriptPath: string): IngestState | null {
  const text = readTextOrNull(statePath);
  if (text === null) return null;
  try {
    const state = JSON.parse(text) as IngestState;
    const valid =
      state.version === STATE_VERSION &&
      state.transcriptPath === transcriptPath &&
      Number.isInteger(state.offset) &&
      state.offset >= 0 &&
      typeof state.model === 'object';
    return valid ? state : null;
  } catch {
    return null; // a corrupt state costs one full re-read, nothing more
  }
}

/** Whether the transcript is still the file the state describes (it only ever grows). */
function sameFile(state: IngestState, transcriptPath: string, size: number): boolean {
  if (size < state.offset) return false;
  if (state.offset === 0) return true;
  const first = state.firstLine;
  if (!first) return false;
  return sha256(readRange(transcriptPath, 0, first.length)) === first.sha256;
}

function statSize(transcriptPath: string): number {
  try {
    return statSync(transcriptPath).size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(`cannot read transcript ${transcriptPath} (${code})`);
  }
}

/**
 * Ingests a Claude Code transcript into its session note, reading only what was appended since the
 * last call. Idempotent: the same transcript always gives the same note, rewritten in place.
 */
export function ingestTranscript(transcriptPath: string, opts: IngestOptions): IngestResult {
  const path = resolve(transcriptPath);
  const fileId = basename(path).replace(/\.jsonl?$/i, '');
  const statePath = join(resolve(opts.stateDir), `${stateKey(path, fileId)}.json`);
  const size = statSize(path);

  let state = loadState(statePath, path);
  if (state && !sameFile(state, path, size)) state = null;
  const offset = state?.offset ?? 0;

  const bytes = readRange(path, offset, size);
  const { lines, consumed, rest } = splitLines(bytes);
  const model = applyTranscriptLines(state?.model ?? null, lines, fileId);
  // A final line without its newline is shown if complete, but not consumed: next time it is read again.
  const view = rest.trim() === '' ? model : applyTranscriptLines(model, [rest], fileId);

  let firstLine = state?.firstLine ?? null;
  if (offset === 0 && consumed > 0) {
    const end = bytes.indexOf(0x0a);
    firstLine = { length: end, sha256: sha256(bytes.subarray(0, end)) };
  }

  const notePath = join(resolve(opts.sessionsDir), sessionNoteName(view));
  let changed = false;
  let writtenNote = state?.notePath ?? null;
  if (hasContent(view)) {
    const note = renderSessionNote(view, { answerChars: opts.answerChars ?? DEFAULT_ANSWER_CHARS });
    if (readTextOrNull(notePath) !== note) {
      writeFileAtomic(notePath, note);
      changed = true;
    }
    // The name follows `started`; if it moved, the old note goes so the session is never duplicated.
    if (writtenNote !== null && writtenNote !== notePath) {
      rmSync(writtenNote, { force: true });
      changed = true;
    }
    writtenNote = notePath;
  }

  const nextState: IngestState = {
    version: STATE_VERSION,
    transcriptPath: path,
    offset: offset + consumed,
    firstLine,
    notePath: writtenNote,
    model,
  };
  writeFileAtomic(statePath, JSON.stringify(nextState));

  return {
    sessionId: view.sessionId,
    notePath,
    changed,
    prompts: view.prompts.filter((p) => p.n > 0).length,
  };
}
