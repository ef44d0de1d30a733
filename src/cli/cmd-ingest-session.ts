// tsm ingest-session <file.jsonl|dir>…: Claude Code transcripts → session notes (layout: sessions/note-format.ts), then those
// notes into the index. Idempotent and incremental: a transcript that has not grown changes nothing.
import { existsSync } from 'node:fs';
import { indexSessionNotes, ingestSession, skippedLinesWarning, unfinishedLineWarning, type SessionIngest } from '../sessions/ingest-and-index.js';
import { findTranscripts } from '../sessions/transcript-files.js';
import { SubAgentTranscriptError } from '../sessions/ingest.js';
import type { TsmConfig } from '../vault/config.js';
import { isInside, vaultRelative } from '../vault/paths.js';
import { configFrom, printJson } from './args.js';
import { UserError } from './run.js';
import { writeErr, writeOut } from './stdio.js';
import { count } from '../text/count.js';
import { oneLine } from '../text/controls.js';
import type { SyncSummary } from '../core/types.js';

interface Row {
  transcript: string;
  session_id: string | null;
  note: string | null;
  prompts: number;
  changed: boolean;
  /** Notes of this session left alone because their user edited or deleted them. */
  kept: { note: string; reason: string }[];
  /** The notes this run wrote: `note`, and those it closed at their size on the way (a long session). */
  written: string[];
  /**
   * Lines read this time that are not JSON objects, skipped (the rest of the transcript is ingested): null
   * when none was. Each run tells only the lines it read, so a line is reported once.
   */
  skipped_lines: { count: number; first_line: number } | null;
  error: string | null;
}

export async function run(argv: Record<string, unknown>): Promise<void> {
  const cfg = configFrom(argv);
  const args = ((argv.transcripts as unknown[] | undefined) ?? []).map(String);
  const { files, named, problems } = findTranscripts(args, process.cwd());
  for (const p of problems) writeErr(`tsm: ${oneLine(p.arg)}: ${p.message}\n`);
  if (files.length === 0) throw new UserError('no transcripts to ingest');

  const rows: Row[] = [];
  const done: SessionIngest[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    try {
      const r = await ingestSession(cfg, file);
      done.push(r);
      const exists = existsSync(r.notePath);
      const kept = (r.kept ?? []).map((k) => ({ note: shown(cfg, k.path), reason: k.reason }));
      const skipped = r.skipped && { count: r.skipped.count, first_line: r.skipped.firstLine };
      if (r.skipped) warnings.push(`tsm: ${oneLine(file)}: ${skippedLinesWarning(r.skipped)}\n`);
      // Not in the hook log: while Claude Code writes the transcript, a Stop often finds its last line unfinished.
      if (r.unfinishedLine !== null) warnings.push(`tsm: ${oneLine(file)}: ${unfinishedLineWarning(r.unfinishedLine)}\n`);
      const written = r.written.map((p) => shown(cfg, p));
      rows.push({ transcript: file, session_id: r.sessionId, note: exists ? shown(cfg, r.notePath) : null, prompts: r.prompts, changed: r.changed, kept, written, skipped_lines: skipped, error: null });
    } catch (err) {
      // A sub-agent's transcript found in a folder under another name than `agent-*.jsonl` is skipped as those
      // are: its session's own transcript holds what it did. It failed the run (exit 1), telling to ingest the
      // session's transcript that the same run had just ingested from the same folder.
      if (err instanceof SubAgentTranscriptError && !named.has(file)) continue;
      rows.push({ transcript: file, session_id: null, note: null, prompts: 0, changed: false, kept: [], written: [], skipped_lines: null, error: (err as Error).message });
    }
  }

  // Warnings, in either mode as the index line below: the rest of each transcript is in its note, and the exit
  // code stays 0. Written before indexing, which may fail: the lines are read, and no later run tells of them.
  for (const w of warnings) writeErr(w);
  let summary: SyncSummary | null = null;
  let indexFailure: unknown = null;
  try {
    summary = isInside(cfg.vault, cfg.sessionsDir) ? await indexSessionNotes(cfg, done) : null;
  } catch (err) {
    // The notes are written whatever the index does: their rows are printed, then the index's error, last.
    indexFailure = err;
  }
  if (argv.json) {
    printJson({ transcripts: rows, index: summary });
  } else {
    // A transcript that failed has its one line on stderr (below), with the reason and the fix.
    for (const r of rows) if (r.error === null) writeOut(`${line(r)}\n`);
  }
  if (!isInside(cfg.vault, cfg.sessionsDir)) {
    writeErr(`tsm: the sessions folder ${cfg.sessionsDir} is outside the vault, so its notes are not indexed\n`);
  } else if (summary) {
    writeErr(`tsm: index: ${summary.added} added, ${summary.updated} updated, ${summary.removed} removed\n`);
  }
  const failed = rows.filter((r) => r.error !== null);
  for (const r of failed) writeErr(`tsm: ${oneLine(r.transcript)}: ${r.error}\n`);
  if (failed.length > 0 || problems.length > 0) process.exitCode = 1;
  if (indexFailure) throw indexFailure;
}

/**
 * A transcript's line of text output, its paths shown as status and doctor show them (oneLine): a transcript
 * named `a\nb\e[31m.jsonl` (a file name may hold anything) printed a forged second line and coloured the
 * terminal or the pipe. The --json rows keep the paths exact.
 */
function line(row: Row): string {
  const r = { ...row, transcript: oneLine(row.transcript), note: row.note === null ? null : oneLine(row.note) };
  r.kept = row.kept.map((k) => ({ ...k, note: oneLine(k.note) }));
  r.written = row.written.map(oneLine);
  const deleted = r.kept.find((k) => k.reason === 'deleted');
  if (deleted) return `${r.transcript}: ${deleted.note} was deleted, so tsm writes nothing more for this session`;
  // A file with no prompt line: a session that has not had one yet, or no Claude Code transcript at all.
  if (r.note === null) return `${r.transcript}: no prompt in it (a session with none yet, or not a Claude Code transcript), no note written`;
  const edited = r.kept.filter((k) => k.reason === 'edited').map((k) => k.note);
  const left = edited.length > 0 ? `; left alone, edited since tsm wrote it: ${edited.join(', ')}` : '';
  const others = r.written.filter((n) => n !== r.note);
  const also = others.length > 0 ? `; also written: ${others.join(', ')}` : '';
  return `${r.transcript} → ${r.note} (${count(r.prompts, 'prompt')}, ${r.changed ? 'written' : 'unchanged'}${also}${left})`;
}

function shown(cfg: TsmConfig, path: string): string {
  return vaultRelative(cfg.vault, path) ?? path;
}
