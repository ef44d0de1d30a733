// The one line `tsm watch` logs per batch: what changed, how long it took, and what set it off.
import type { SyncSummary } from '../core/types.js';
import { count } from '../text/count.js';

export interface BatchReport {
  /** Note paths the batch checked (vault-relative); empty for a rescan. */
  paths: string[];
  /** Why the whole vault was rescanned; empty for a batch of paths. */
  rescanReasons: string[];
  /** Attachments (files that are no notes) the batch checked. */
  attachments?: string[];
  summary: SyncSummary;
  /** Wall time of the batch in milliseconds. */
  ms: number;
}

const SHOWN = 3;

export function formatBatchLine(report: BatchReport): string {
  const s = report.summary;
  const counts = (
    [
      [s.added, 'added'],
      [s.updated, 'updated'],
      [s.removed, 'removed'],
      [s.skipped, 'skipped'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n} ${word}`);
  const checked = report.attachments?.length ?? 0;
  if (checked > 0) counts.push(`${count(checked, 'attachment')} checked`);
  const what = counts.length > 0 ? counts.join(', ') : 'no changes';
  return `tsm watch: ${what} in ${Math.round(report.ms)} ms (${cause(report)})`;
}

function cause(report: BatchReport): string {
  if (report.rescanReasons.length > 0) return `rescan: ${listSome(unique(report.rescanReasons))}`;
  return listSome([...report.paths, ...(report.attachments ?? [])]);
}

function listSome(items: string[]): string {
  const shown = items.slice(0, SHOWN).join(', ');
  return items.length > SHOWN ? `${shown}, +${items.length - SHOWN} more` : shown;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

export function formatInitialLine(summary: SyncSummary): string {
  const s = summary;
  return (
    `tsm watch: indexed ${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged` +
    `${s.skipped ? `, ${s.skipped} skipped` : ''} in ${s.seconds.toFixed(2)} s`
  );
}
