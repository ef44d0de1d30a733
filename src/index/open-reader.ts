// The one way a surface (CLI, hooks, MCP) reads the index: open, run, close, with every SQLite error
// turned into an IndexError that names the fix. Surfaces never write the open/try/finally/close block.
import { asIndexError, checkIndexFiles, openReader, type Database } from './db.js';

export interface ReaderOptions {
  /** Upper bound of a wait on a locked index (SQLite's busy_timeout); default 10 s. */
  busyTimeoutMs?: number;
}

/**
 * Runs `fn` on a read-only connection to the index at `path` and closes it, whatever happens.
 * The index and its -wal/-shm companions must be plain files: SQLite's open() of a FIFO would block
 * the process (no timer can fire while it waits), so anything else is refused before opening.
 */
export function withIndexReader<T>(path: string, fn: (db: Database) => T, opts: ReaderOptions = {}): T {
  checkIndexFiles(path);
  const db = openReader(path, opts);
  try {
    return fn(db);
  } catch (err) {
    throw asIndexError(err, path);
  } finally {
    db.close();
  }
}
