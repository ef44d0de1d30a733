// Loading a file for the index: parse it, then prepare its full-text rows, in one crash-proof step that
// runs on a parser thread during big syncs (index-worker.ts), so the thread that writes the index only
// writes.
import type { VaultFile } from '../core/types.js';
import { loadSafely } from '../parse/batch.js';
import type { LoadResult } from '../parse/load-note.js';
import type { ParseOptions } from '../parse/options.js';
import type { FileJob } from '../parse/pool.js';
import { prepareNote, type PreparedNote } from './fts-rows.js';

export type PreparedLoad = Exclude<LoadResult, { kind: 'note' }> | { kind: 'note'; prepared: PreparedNote; hash: string };

export function loadForIndex(file: VaultFile, opts: ParseOptions): PreparedLoad {
  const loaded = loadSafely(file, opts);
  if (loaded.kind !== 'note') return loaded;
  try {
    return { kind: 'note', prepared: prepareNote(file.path, loaded.note), hash: loaded.hash };
  } catch (err) {
    // A bug must still cost one file, not the whole build (like loadSafely).
    return { kind: 'skipped', reason: `analysis crashed: ${err instanceof Error ? err.message : String(err)}`, hash: loaded.hash };
  }
}

export const INDEX_JOB: FileJob<PreparedLoad> = { workerScript: 'index-worker.js', run: loadForIndex };
