// The one way a surface (CLI, hooks, MCP) reads the index: open, run, close, with every SQLite error
// turned into an IndexError that names the fix. Surfaces never write the open/try/finally/close block.
import { asIndexError, checkIndexFiles, IndexError, openReader, schemaChangeBlockedError, type Database } from './db.js';
import { fileKind } from '../vault/file-kind.js';
import { vaultGoneMessage } from '../vault/folders.js';
import { otherRunningWatcher } from '../vault/watcher-pid.js';
import { otherVaultMessage, otherVaultOf } from './index-vault.js';
import { damageBehindNothing } from './wal-check.js';

export interface ReaderOptions {
  /** Upper bound of a wait on a locked index (SQLite's busy_timeout); default 10 s. */
  busyTimeoutMs?: number;
  /**
   * The vault's `.tsm/` folder, where a running `tsm watch` is on record. An index of an older schema is
   * updated by the next `tsm index`, unless a watcher started by the older tsm writes to it (`tsm index`
   * then leaves it as it is, db.ts openWriter): the reader's message then names the watcher to stop.
   */
  tsmDir?: string;
  /** The vault the caller reads for: an index that holds another vault's notes is refused (index-vault.ts). */
  vault?: string;
}

export interface SearchReaderOptions<T> extends ReaderOptions {
  /**
   * Whether `fn`'s result found nothing (a search with no hit): the index is then checked for damage a -wal
   * of another index brings (wal-check.ts), which reads as "nothing found", and the damage is thrown.
   */
  foundNothing?: (result: T) => boolean;
  /**
   * Check for that damage before `fn` runs, whatever it finds: `tsm status`, whose counts of a damaged index
   * were shown as if true (`notes 30 (… knowledge 3 …)` of a 3-note vault) with nothing said.
   */
  checkWalFirst?: boolean;
}

/**
 * Runs `fn` on a read-only connection to the index at `path` and closes it, whatever happens.
 * The index and its -wal/-shm companions must be plain files: SQLite's open() of a FIFO would block
 * the process (no timer can fire while it waits), so anything else is refused before opening.
 */
export function withIndexReader<T>(path: string, fn: (db: Database) => T, opts: SearchReaderOptions<T> = {}): T {
  checkIndexFiles(path);
  let db: Database;
  try {
    db = openReader(path, opts);
  } catch (err) {
    if (err instanceof IndexError && err.code === 'missing' && opts.vault !== undefined && fileKind(opts.vault) !== 'directory') throw vaultGone(path, opts.vault);
    throw opts.tsmDir !== undefined && err instanceof IndexError && err.olderSchema ? withWatcher(err, path, opts.tsmDir) : err;
  }
  try {
    const other = opts.vault === undefined ? null : otherVaultOf(db, path, opts.vault);
    if (other !== null) throw new IndexError('other-vault', otherVaultMessage(path, opts.vault as string, other));
    const before = opts.checkWalFirst ? damageBehindNothing(db, path, opts.vault) : null;
    if (before !== null) throw before;
    const result = fn(db);
    const damage = opts.foundNothing?.(result) ? damageBehindNothing(db, path, opts.vault) : null;
    if (damage !== null) throw damage;
    return result;
  } catch (err) {
    throw asIndexError(err, path);
  } finally {
    db.close();
  }
}

/**
 * A process that outlives its vault (`tsm serve`, started with it, the folder deleted or moved since) found no
 * index: "run `tsm index` first" named a fix that fails, as `tsm index` stops at a vault that is not there.
 */
function vaultGone(path: string, vault: string): IndexError {
  return new IndexError('missing', `no index at ${path}: ${vaultGoneMessage(vault)}`);
}

/** An older-schema error as it stands, or, while a `tsm watch` of the vault runs, one that says to stop it first. */
function withWatcher(err: IndexError, path: string, tsmDir: string): IndexError {
  const pid = otherRunningWatcher(tsmDir);
  return pid !== null ? schemaChangeBlockedError(path, err.fileVersion ?? null, `\`tsm watch\` (pid ${pid}) writes to it`) : err;
}
