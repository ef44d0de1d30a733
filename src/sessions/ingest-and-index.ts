// Transcript → session note → index, for the Stop/PreCompact/SessionEnd hooks and `tsm ingest-session`.
// The session code and the indexer (which loads remark) are imported only here, only when needed.
import { join } from 'node:path';
import type { SyncSummary } from '../core/types.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { withFileLock } from '../vault/file-lock.js';
import type { KeptNote, SkippedTranscriptLines } from './ingest.js';
import { count } from '../text/count.js';

export interface SessionIngest {
  transcript: string;
  sessionId: string;
  /** Absolute path of the session note. */
  notePath: string;
  changed: boolean;
  prompts: number;
  /** Session notes that disappeared while ingesting (a note renamed when its start date moved). */
  removed: string[];
  /** Session notes this ingest wrote (`notePath`, and any it closed at its size on the way). */
  written: string[];
  /** This session's notes tsm leaves alone because their user edited or deleted them. */
  kept?: KeptNote[];
  /** Lines of the transcript this ingest read that were not JSON objects, skipped; null when none was. */
  skipped: SkippedTranscriptLines | null;
  /** The transcript's last line, not read: it has no newline yet and is no JSON object (ingest.ts IngestResult). */
  unfinishedLine: number | null;
}

/**
 * The warning for skipped transcript lines, as `tsm ingest-session` (stderr) and the session hooks (hook log)
 * write it after the transcript's path: `2 lines are not JSON objects and were skipped (first: line 17)`.
 */
export function skippedLinesWarning(skipped: SkippedTranscriptLines): string {
  const what = skipped.count === 1 ? 'is not a JSON object and was' : 'are not JSON objects and were';
  return `${count(skipped.count, 'line')} ${what} skipped (first: line ${skipped.firstLine})`;
}

/**
 * The warning for a transcript's last line that is not read, as `tsm ingest-session` writes it after the
 * transcript's path: `its last line (line 96) is unfinished, so it was not read: …`. A transcript cut short
 * mid-line (Claude Code killed while writing it) lost that line without a word.
 */
export function unfinishedLineWarning(line: number): string {
  return `its last line (line ${line}) is unfinished, so it was not read: Claude Code may still be writing it (the next ingest reads it once it ends with a newline)`;
}

const SKIPPED_LINES_LOG = /: \d+ lines? (?:is not a JSON object and was|are not JSON objects and were) skipped \(first: line \d+\)$/;

/** Whether a hook.log line is a session hook's skippedLinesWarning: what it did with a transcript, not a hook failing. */
export function isSkippedLinesReport(line: string): boolean {
  return SKIPPED_LINES_LOG.test(line.trimEnd());
}

/** Waiting longer than this for another ingest of the same transcript means something is stuck. */
const LOCK_TIMEOUT_MS = 20_000;

export function ingestStateDir(cfg: TsmConfig): string {
  return join(tsmDir(cfg), 'sessions');
}

/** Waits of a caller with a deadline (the Stop hook): they give up at this time (`Date.now()` ms). */
export interface WaitLimit {
  waitUntil?: number;
}

/** Ingests one transcript into its session note (incrementally), holding a per-transcript lock. */
export async function ingestSession(cfg: TsmConfig, transcriptPath: string, limit: WaitLimit = {}): Promise<SessionIngest> {
  const { ingestTranscript, noRoomFor, stateKey, transcriptRealPath, NOTE_BYTES } = await import('./ingest.js');
  const transcript = transcriptRealPath(transcriptPath);
  const stateDir = ingestStateDir(cfg);
  // One lock per state file: two paths of one session's transcript (a copy, a link) share the state they rewrite.
  const lock = join(stateDir, `${stateKey(transcript)}.lock`);
  const timeoutMs = limit.waitUntil === undefined ? LOCK_TIMEOUT_MS : Math.max(0, Math.min(LOCK_TIMEOUT_MS, limit.waitUntil - Date.now()));
  try {
    return await withFileLock(lock, { vault: cfg.vault, timeoutMs }, () => {
      // A note the index would skip as too large is no note: it is closed well before (NOTE_BYTES), or at the vault's bound.
      const noteBytes = Math.min(NOTE_BYTES, cfg.maxFileBytes);
      const r = ingestTranscript(transcript, { vault: cfg.vault, sessionsDir: cfg.sessionsDir, stateDir, answerChars: cfg.answerChars, noteBytes });
      return { transcript, sessionId: r.sessionId, notePath: r.notePath, changed: r.changed, prompts: r.prompts, removed: r.removed, written: r.written, kept: r.kept, skipped: r.skipped, unfinishedLine: r.unfinishedLine };
    });
  } catch (err) {
    // The lock's own pid is the first thing written: on a full disk it fails before anything else.
    throw noRoomFor(err, `the session's lock ${lock}`) ?? err;
  }
}

/**
 * Brings these session notes (and removed ones) into the index; builds the index if there is none. With a
 * limit, a write lock held past it throws IndexError 'busy': the notes stay written, and the next sync of
 * the vault (`tsm index`, `tsm watch`, SessionStart's background sync) indexes them, as it does any changed file.
 */
export async function indexSessionNotes(cfg: TsmConfig, ingests: SessionIngest[], limit: WaitLimit = {}): Promise<SyncSummary | null> {
  // Every note written: a note closed at its size was rewritten too, and a long transcript read at once (a
  // first ingest, an upgrade) writes several. Only `notePath` was indexed: the others waited for the next sync.
  const paths = [...new Set(ingests.filter((i) => i.changed).flatMap((i) => [i.notePath, ...i.written, ...i.removed]))];
  if (paths.length === 0) return null;
  const { syncVault } = await import('../index/sync.js');
  return syncVault(cfg, { paths, waitUntil: limit.waitUntil });
}
