// What pool.ts and its worker threads exchange, and the crash-proof load.
import type { VaultFile } from '../core/types.js';
import { loadNote, type LoadResult } from './load-note.js';
import type { ParseOptions } from './options.js';

export interface BatchRequest {
  batch: number;
  files: VaultFile[];
}

export interface BatchResponse<R> {
  batch: number;
  /** One result per requested file, in the same order. */
  results: R[];
}

/** loadNote never throws by contract; a bug must still cost one file, not the whole build. */
export function loadSafely(file: VaultFile, opts: ParseOptions): LoadResult {
  try {
    return loadNote(file, opts);
  } catch (err) {
    return { kind: 'skipped', reason: `parser crashed: ${err instanceof Error ? err.message : String(err)}`, hash: null };
  }
}
