// Opening the SQLite index: pragmas, schema version, and what to do with a file that is not a usable index.
import { accessSync, closeSync, constants, existsSync, mkdirSync, readlinkSync, readSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { isExplained, TsmError } from '../core/errors.js';
import { fileKind, openRegularFile } from '../vault/file-kind.js';
import { makeVaultFolder, notAFolder } from '../vault/folders.js';
import { INDEX_FILE, TSM_DIR } from '../vault/config.js';
import { isInside } from '../vault/paths.js';
import { otherRunningWatcher } from '../vault/watcher-pid.js';
import { otherVaultMessage, otherVaultOf, recordVault } from './index-vault.js';
import { markBuildUnfinished } from './build-state.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';
import { canMigrate, migrate } from './migrate.js';
import { count } from '../text/count.js';

export type Database = BetterSqlite3.Database;

export type IndexErrorCode = 'missing' | 'corrupt' | 'version' | 'readonly' | 'io' | 'full' | 'foreign' | 'busy' | 'statement' | 'other-vault';

/** A problem with the index file itself, with a message that tells the user what to do. */
export class IndexError extends TsmError {
  override name = 'IndexError';
  constructor(
    readonly code: IndexErrorCode,
    message: string,
    /** For 'version' from a reader: the schema version the file has (older or newer than SCHEMA_VERSION). */
    readonly fileVersion?: number,
    /** The fix when it is not the one of its kind (INDEX_FIXES): a `-wal` or `-shm` file the user may not use. */
    private readonly ownFix?: string,
  ) {
    super(message);
  }

  /** A reader met an index an older tsm wrote: a sync of this tsm updates it (migrates it in place, or rebuilds it). */
  get olderSchema(): boolean {
    return this.code === 'version' && this.fileVersion !== undefined && this.fileVersion < SCHEMA_VERSION;
  }

  /**
   * What fixes it, in a line of its own (`tsm doctor`'s "fix:"): `tsm index` cannot help with a file tsm
   * refuses to touch or a folder it may not write, so the fix follows from the kind of problem.
   */
  get fix(): string {
    return this.ownFix ?? INDEX_FIXES[this.code](this);
  }
}

const INDEX_FIXES: Record<IndexErrorCode, (e: IndexError) => string> = {
  missing: () => 'run `tsm index`',
  corrupt: () => 'run `tsm index --full` to rebuild it (the notes are the source: nothing is lost)',
  version: (e) =>
    e.fileVersion !== undefined && e.fileVersion > SCHEMA_VERSION
      ? 'use the newer tsm that wrote it, or run `tsm index` with this one to rebuild it'
      : // An index too old to change in place is rebuilt, as the message says ("run `tsm index` to rebuild it").
        `run \`tsm index\` (once no other tsm process is writing the index), which ${e.fileVersion !== undefined && canMigrate(e.fileVersion, SCHEMA_VERSION) ? 'updates' : 'rebuilds'} it`,
  readonly: () => 'make the index file and its folder writable for you, or give --db (or TSM_DB) an index of your own',
  io: () => 'remove the cause the message names (a folder or pipe where the index belongs, a failing disk), then run `tsm index`',
  full: () => 'free some space on the disk that holds the index, then run `tsm index` (a running `tsm watch` tries again by itself)',
  foreign: () => 'give --db (or TSM_DB) a new file name, or the index of a vault: tsm leaves this file as it is',
  busy: () => 'wait for the other writer (`tsm index`, `tsm watch`) to finish, or stop one that hangs',
  statement: () => 'nothing in the index to fix: report it as a bug in tsm, with the command you ran',
  'other-vault': () => "give this vault an index of its own: --db or TSM_DB naming another file, or neither (the index then lives in the vault's .tsm/ folder, which must be no link to another vault's)",
};

const BUSY_TIMEOUT_MS = 10_000;

// The build bundles better-sqlite3's JavaScript; its native addon stays in the installed package. Naming
// the addon's file skips the `bindings` package's search of a dozen candidate paths on every start.
let addonPath: string | null | undefined;
function nativeBinding(): string | undefined {
  if (addonPath === undefined) {
    try {
      addonPath = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch {
      addonPath = null; // built elsewhere (a debug build): let better-sqlite3 look for it
    }
  }
  return addonPath ?? undefined;
}

export interface OpenedIndex {
  db: Database;
  /** True when the file was created or rebuilt from nothing by this open (a full build is due). */
  fresh: boolean;
  /**
   * With `deferUpgrade`: the schema version of an older index left as it was, for the caller to update in
   * a write transaction of its own (upgradeInPlace, or upgradeForRebuild inside a rebuild).
   */
  upgradeFrom?: number;
}

export interface WriterOptions {
  /**
   * Why the index's schema may not be changed (migrated or rebuilt) now, or null: another process writes to
   * it with the code of its own version (a `tsm watch` started before an upgrade), and would go on writing
   * rows of its schema into the new one.
   */
  schemaChangeBlocked?: () => string | null;
  /**
   * Leave an index a newer tsm wrote as it is (throw IndexError 'version') instead of rebuilding it: a sync
   * nobody asked for (the hook's background worker) must not undo a newer tsm's index, which that tsm would
   * then rebuild back. `tsm index` run by the user rebuilds it.
   */
  keepNewer?: boolean;
  /**
   * The vault, when the index lies inside it (its default place, `<vault>/.tsm/`): the index's folder is then
   * made only inside a vault that exists (src/vault/folders.ts), so a sync that outlives its vault never
   * brings it back. An index elsewhere (`--db`) gets its folder made as asked.
   */
  vault?: string;
  /**
   * Give up waiting for the write lock at this time (`Date.now()` ms), over every wait of the connection
   * (SQLite's busy_timeout and writeTransaction's retries): a caller with a deadline of its own (the Stop
   * hook). Default: WRITER_WAIT_MS from each BEGIN.
   */
  waitUntil?: number;
  /**
   * Leave an older index that can be updated in place (migrate.ts) as it is, and say its version
   * (OpenedIndex.upgradeFrom): a sync of the whole vault, which may write every row of the index anyway (a
   * `--full`, or the notes read again after an upgrade: sync.ts rereadAll) and then updates it inside its rebuild's one
   * transaction (upgradeForRebuild), not first in place (a migration that rewrites every full-text row
   * followed by the rewrite of every note: 33 s on the handbook, where a build takes 14 s).
   */
  deferUpgrade?: boolean;
}

/**
 * Opens the index for writing. A missing or empty file gets the schema; a file of an older schema version
 * is migrated in place when its change can be made exactly (migrate.ts), else emptied and rebuilt, as is one
 * of a newer version unless `keepNewer`; a file of tsm's that is not a usable database (corrupt) is moved
 * aside to `<db>.corrupt-<time>` and a new one is created — markdown is the source of truth, so nothing is
 * lost; any other file is refused (`replaceable`).
 */
export function openWriter(path: string, opts: WriterOptions = {}): OpenedIndex {
  const opened = openOrCreate(path, opts);
  if (opts.vault === undefined) return opened;
  try {
    const other = otherVaultOf(opened.db, path, opts.vault);
    if (other !== null) throw new IndexError('other-vault', otherVaultMessage(path, opts.vault, other));
    recordVault(opened.db, opts.vault);
  } catch (err) {
    const busy = opened.db.pragma('busy_timeout', { simple: true }) as number;
    opened.db.close();
    throw err instanceof IndexError ? err : asIndexError(err, path, busy);
  }
  return opened;
}

function openOrCreate(path: string, opts: WriterOptions): OpenedIndex {
  // A folder or a FIFO named by --db: say so (SQLite said "disk I/O error" or "unable to open database file").
  checkIndexFiles(path);
  try {
    if (opts.vault !== undefined && isInside(opts.vault, dirname(path))) makeVaultFolder(opts.vault, dirname(path));
    else mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    if (isExplained(err)) throw err;
    // A vault on a read-only disk or in a folder of someone else's can still be indexed and searched, elsewhere.
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const fix = ['EROFS', 'EACCES', 'EPERM'].includes(code) ? ': give --db (or TSM_DB) an index file in a folder you can write' : '';
    throw new IndexError(fix === '' ? 'io' : 'readonly', `cannot create the index folder ${dirname(path)}: ${(err as Error).message}${fix}`);
  }
  // SQLite takes a file of one byte for an empty database (one of 2 to 99 bytes is "not a database") and
  // writes an index over it: `--db` naming a one-line file of the user's (`x`, or just a newline) replaced it.
  if (!sqliteOrEmpty(path) && !replaceable(path)) throw notAnIndex(path);
  let db: Database;
  noteLockedCompanion(path, 'write');
  try {
    db = connect(path, false, opts.waitUntil === undefined ? BUSY_TIMEOUT_MS : busyFor(opts.waitUntil));
    if (opts.waitUntil !== undefined) waitLimits.set(db, opts.waitUntil);
    const owner = ownerOf(db);
    if (owner.kind === 'foreign') {
      db.close();
      throw foreignError(path, owner.tables);
    }
    // Before anything is set on the file (its journal mode included): it is the newer tsm's.
    if (opts.keepNewer && owner.kind === 'tsm' && owner.version !== null && owner.version > SCHEMA_VERSION) {
      db.close();
      throw new IndexError(
        'version',
        `the index at ${path} was written by a newer tsm (schema version ${owner.version}; this tsm writes ${SCHEMA_VERSION}): ` +
          'left as it is; use that tsm, or run `tsm index` with this one to rebuild it',
        owner.version,
      );
    }
    useWal(db);
    if (owner.kind === 'tsm' && owner.version === SCHEMA_VERSION) return { db, fresh: false };
    const blocked = owner.kind === 'tsm' ? (opts.schemaChangeBlocked?.() ?? null) : null;
    if (blocked !== null) {
      db.close();
      throw schemaChangeBlockedError(path, owner.kind === 'tsm' ? owner.version : null, blocked);
    }
    // An older index whose change can be made exactly from what it holds keeps everything (its vectors too).
    if (owner.kind === 'tsm' && owner.version !== null && canMigrate(owner.version, SCHEMA_VERSION)) {
      if (opts.deferUpgrade) return { db, fresh: false, upgradeFrom: owner.version };
      upgradeInPlace(db, owner.version);
      return { db, fresh: false };
    }
    // Only a file that is provably tsm's (or holds nothing at all) is emptied and given the schema.
    if (owner.kind === 'tsm') {
      // A rebuild reads every note again and drops every stored vector (hours of embedding with a model): said.
      const vectors = storedVectors(db);
      const why =
        owner.version !== null && owner.version > SCHEMA_VERSION
          ? `was written by a newer tsm (schema version ${owner.version}; this tsm writes ${SCHEMA_VERSION})`
          : `has schema version ${owner.version ?? 'none'}, which this tsm (schema version ${SCHEMA_VERSION}) cannot update in place`;
      process.stderr.write(
        `tsm: the index at ${path} ${why}: rebuilding it from the notes` +
          (vectors > 0 ? `; ${vectors === 1 ? 'its 1 stored vector is' : `its ${vectors} stored vectors are`} dropped (\`tsm index --embed\` makes them again)` : '') +
          '\n',
      );
      dropAll(db);
    }
    createSchema(db);
    return { db, fresh: true };
  } catch (err) {
    if (err instanceof IndexError) throw err;
    const kind = sqliteErrorKind(err);
    if (kind === 'corrupt') {
      if (!replaceable(path)) throw notAnIndex(path);
      const aside = `${path}.corrupt-${Date.now()}`;
      moveAside(path, aside);
      db = connect(path, false);
      useWal(db);
      createSchema(db);
      process.stderr.write(`tsm: the index was not a usable database; moved it to ${aside} and rebuilt\n`);
      return { db, fresh: true };
    }
    const e = asIndexError(err, path);
    if (e instanceof IndexError) throw e;
    throw new IndexError('io', `cannot open the index ${path}: ${(err as Error).message}`);
  }
}

/**
 * An index of another schema version that this tsm may not change now: `blocked` says who writes to it (a
 * `tsm watch` started by another tsm). Said alike by a writer that would change it and by a reader that
 * meets it (open-reader.ts), whose plain "run `tsm index`" would only be refused.
 */
export function schemaChangeBlockedError(path: string, version: number | null, blocked: string): IndexError {
  const prefix = `the index at ${path} has schema version ${version ?? '?'}, this tsm needs ${SCHEMA_VERSION}, and ${blocked}: `;
  // A newer tsm's watcher: this tsm would rebuild its index (dropping its vectors), not update it.
  if (version !== null && version > SCHEMA_VERSION) {
    return new IndexError('version', `${prefix}it is a newer tsm's index: use that tsm, or stop the watcher, then run \`tsm index\` with this one to rebuild it`, version);
  }
  const does = version !== null && canMigrate(version, SCHEMA_VERSION) ? 'updates' : 'rebuilds';
  return new IndexError('version', `${prefix}stop it, then run \`tsm index\` (or start \`tsm watch\` again), which ${does} the index`, version ?? undefined);
}

/**
 * Brings an older index (OpenedIndex.upgradeFrom) to this tsm's schema in place, in one transaction of its
 * own, keeping everything (its vectors, the trained model), and says so on stderr.
 */
export function upgradeInPlace(db: Database, from: number): void {
  const started = performance.now();
  let migrated = false;
  writeTransaction(
    db,
    () => {
      // Another writer of this version may have migrated it since the version was read.
      if (schemaVersion(db) !== from) return;
      migrate(db, from, SCHEMA_VERSION);
      setSchemaVersion(db);
      migrated = true;
    },
    { schemaChange: true },
  );
  // Seconds of a sync that reads nothing new: said, so they are not taken for a slow sync.
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (migrated) {
    const vectors = storedVectors(db);
    const kept = vectors > 0 ? ` (its ${count(vectors, 'stored vector')} kept)` : '';
    process.stderr.write(`tsm: updated the index at ${db.name} from schema version ${from} to ${SCHEMA_VERSION} in place in ${seconds} s${kept}\n`);
  }
}

/**
 * Brings an older index (OpenedIndex.upgradeFrom) to this tsm's schema inside the caller's write transaction
 * (writeTransactionAsync with `schemaChange`), which then empties it and writes every row from the vault (a
 * rebuild: its vectors set aside and given back, vector-carry.ts): only the tables change here, the rows the
 * rebuild writes anyway are not written twice (migrate's `rows: false`). Killed or failing before the commit,
 * the old index stays as it was. An index another writer has updated since is left to the rebuild; one of
 * any other version stops it (assertSchema).
 */
export function upgradeForRebuild(db: Database, from: number): void {
  if (schemaVersion(db) === from) {
    const vectors = storedVectors(db);
    process.stderr.write(
      `tsm: updating the index at ${db.name} from schema version ${from} to ${SCHEMA_VERSION} as it is rebuilt from the notes, in one transaction` +
        (vectors > 0 ? ` (its ${count(vectors, 'stored vector')} given back to the sections whose text is unchanged)` : '') +
        '\n',
    );
    migrate(db, from, SCHEMA_VERSION, { rows: false });
    setSchemaVersion(db);
  }
  assertSchema(db);
}

/**
 * Opens the index read-only (search, hooks, MCP). Every problem becomes an IndexError that says what to do.
 * `busyTimeoutMs` bounds the wait on a locked file (the prompt hook has a deadline; others wait 10 s).
 */
export function openReader(path: string, opts: { busyTimeoutMs?: number } = {}): Database {
  if (!existsSync(path)) throw new IndexError('missing', `no index at ${path}: run \`tsm index\` first`);
  let db: Database;
  noteLockedCompanion(path, 'read');
  try {
    db = connect(path, true, opts.busyTimeoutMs);
  } catch (err) {
    throw describe(err, path, opts.busyTimeoutMs);
  }
  let owner: Owner;
  try {
    owner = ownerOf(db);
  } catch (err) {
    db.close();
    if (!onReadOnlyMedia(err, path)) throw describe(err, path, opts.busyTimeoutMs);
    try {
      db = connect(immutableName(path), true, opts.busyTimeoutMs);
      realPaths.set(db, path);
      owner = ownerOf(db);
    } catch {
      if (db.open) db.close();
      throw describe(err, path, opts.busyTimeoutMs);
    }
  }
  if (owner.kind === 'foreign') {
    db.close();
    throw foreignError(path, owner.tables);
  }
  const version = owner.kind === 'tsm' ? owner.version : null;
  if (version === null) {
    db.close();
    // A file of one byte SQLite opens as an empty database (sqliteOrEmpty): no index, and not empty either.
    if (!sqliteOrEmpty(path)) throw replaceable(path) ? notUsable(path) : notAnIndex(path);
    throw new IndexError('missing', `the index at ${path} is empty: run \`tsm index\``);
  }
  if (version > SCHEMA_VERSION) {
    db.close();
    // Not "run `tsm index`": with the newer tsm on PATH it changes nothing, and with this one it rebuilds the
    // index the newer tsm wrote (dropping its vectors), which that tsm then migrates or rebuilds back.
    throw new IndexError(
      'version',
      `the index at ${path} was written by a newer tsm (schema version ${version}; this tsm reads ${SCHEMA_VERSION}): ` +
        'use that tsm (restart a `tsm serve` or a Claude Code session started before it was installed), or run `tsm index` with this one to rebuild it',
      version,
    );
  }
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new IndexError(
      'version',
      `the index at ${path} has schema version ${version}, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to ${canMigrate(version, SCHEMA_VERSION) ? 'update' : 'rebuild'} it`,
      version,
    );
  }
  return db;
}

/**
 * Whether the reader's open failed only because SQLite cannot make its `-shm` file beside an index on a
 * read-only file system (a backup, a read-only volume), with nothing in a `-wal` file: the index file then
 * holds every write, and SQLite reads it as read-only media (`immutable`), with no -shm and no locks.
 * Before, `tsm search`, `status`, `doctor`, the hooks and `tsm serve` refused a vault indexed before it
 * was mounted read-only. A -shm or a -wal with content there means a writer: SQLite's own way, or the error.
 */
function onReadOnlyMedia(err: unknown, path: string): boolean {
  const kind = sqliteErrorKind(err);
  if ((kind !== 'readonly' && kind !== 'readonly-folder') || unwritableFolder(path) !== 'read-only') return false;
  if (fileKind(`${path}-shm`) !== 'absent') return false;
  try {
    return statSync(`${path}-wal`).size === 0;
  } catch (walErr) {
    return (walErr as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** SQLite's URI of `path` as read-only media (https://sqlite.org/uri.html#uriimmutable); `%?#` escaped. */
function immutableName(path: string): string {
  return `file:${path.replace(/[%?#]/g, (c) => encodeURIComponent(c))}?immutable=1`;
}

/** The index file of a connection opened by a URI (immutableName); others are named by their path. */
const realPaths = new WeakMap<Database, string>();

/** The path of the index file `db` reads (its `name`, unless opened as read-only media). */
export function indexPathOf(db: Database): string {
  return realPaths.get(db) ?? db.name;
}

function connect(path: string, readonly: boolean, busyTimeoutMs = BUSY_TIMEOUT_MS): Database {
  // better-sqlite3 reads SQLITE_USE_URI once, when its addon loads (at the first open): URIs are then
  // understood, which only immutableName's `file:` names use (every index path tsm opens is absolute).
  const setUri = process.env.SQLITE_USE_URI === undefined;
  if (setUri) process.env.SQLITE_USE_URI = '1';
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly, fileMustExist: readonly, nativeBinding: nativeBinding() });
  } finally {
    if (setUri) delete process.env.SQLITE_USE_URI;
  }
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  db.pragma('foreign_keys = ON');
  return db;
}

/** WAL for a writer: set only once the file is known to be tsm's (it rewrites the file's header). */
function useWal(db: Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A `--full` writes the whole index through the WAL in one transaction (sync.ts): 181 MB on the handbook,
  // a file SQLite keeps at that size, reusing it, while any connection stays open (a `tsm watch`). With this
  // limit the next writer to start the WAL over cuts it back. Everyday transactions stay far below it.
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
}

/** Bytes a WAL file is cut back to when it starts over (SQLite's journal_size_limit). */
const WAL_SIZE_LIMIT = 16 * 1024 * 1024;

/**
 * Marks every index tsm creates (the SQLite header's application_id, "tsm1"), so a database of another
 * application is never taken for an old index and emptied (`--db` can name any file).
 */
export const TSM_APPLICATION_ID = 0x74736d31;

type Owner = { kind: 'empty' } | { kind: 'tsm'; version: number | null } | { kind: 'foreign'; tables: string[] };

/**
 * Whose database this is. tsm's: it carries TSM_APPLICATION_ID, or (written before the mark existed) it
 * has both tsm's `meta` row `schema_version` and a `notes` table with a `path` column. A file with nothing
 * in it (no table, view, index or trigger, no user_version) is free to use. Anything else belongs to someone else.
 */
function ownerOf(db: Database): Owner {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map(
    (t) => t.name,
  );
  const version = tables.includes('meta') ? schemaVersion(db) : null;
  if (appId === TSM_APPLICATION_ID) return { kind: 'tsm', version };
  // Empty: nothing in it at all. A file with views, indexes or triggers and no table, or a user_version (the
  // schema version applications keep in the header) is another application's: it was written into.
  if (appId === 0 && tables.length === 0) {
    const objects = Number(db.prepare('SELECT count(*) FROM sqlite_master').pluck().get());
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    return objects === 0 && userVersion === 0 ? { kind: 'empty' } : { kind: 'foreign', tables };
  }
  const oldTsm =
    appId === 0 &&
    version !== null &&
    tables.includes('notes') &&
    (db.prepare("SELECT 1 FROM pragma_table_info('notes') WHERE name = 'path'").get() !== undefined);
  return oldTsm ? { kind: 'tsm', version } : { kind: 'foreign', tables };
}

/**
 * The schema version in `meta`, or null (none, or a `meta` table of another shape). Only a statement SQLite
 * will not run (SQLITE_ERROR: no `key` or `value` column) means another shape; damage (SQLITE_CORRUPT), an
 * I/O error or a lock goes to the caller. Swallowed, a damaged `meta` page read as "no version": readers said
 * the index "is empty", doctor too, and `tsm index` said it "has schema version none" before moving it aside.
 */
function schemaVersion(db: Database): number | null {
  try {
    const n = Number(versionRead(db).get());
    return Number.isInteger(n) ? n : null;
  } catch (err) {
    if (sqliteErrorKind(err) === 'statement') return null; // a `meta` table of another shape
    throw err;
  }
}

function foreignError(path: string, tables: string[]): IndexError {
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
  return new IndexError(
    'foreign',
    `${path} is not a tsm index (it is a database of another application${tables.length ? `, with tables ${shown}` : ''}); ` +
      'tsm leaves it as it is: give --db a new file name, or the index of a vault',
  );
}

function createSchema(db: Database): void {
  // One transaction: a run killed half way leaves no half schema (the mark and the tables come together).
  writeTransaction(
    db,
    () => {
      db.pragma(`application_id = ${TSM_APPLICATION_ID}`);
      db.exec(SCHEMA_SQL);
      // A new index is a build not yet finished, until the build that comes next ends it (build-state.ts).
      markBuildUnfinished(db);
      setSchemaVersion(db);
    },
    { schemaChange: true },
  );
}

/**
 * A long-lived writer (`tsm watch`, `tsm serve`'s embedding) of one tsm version can outlive an upgrade: a
 * newer (or older) tsm may migrate or rebuild the index under it, and rows written by the old code would
 * then not be the rows the new one deletes (the full-text tables are contentless). So every write
 * transaction first checks the version it was opened for: one read of `meta`, a few microseconds.
 */
function assertSchema(db: Database): void {
  const version = schemaVersion(db);
  if (version !== SCHEMA_VERSION) {
    throw new IndexError(
      'version',
      `the index at ${db.name} is now schema version ${version ?? 'none'} (another tsm changed it), and this process writes ${SCHEMA_VERSION}: ` +
        'nothing was written; restart it with the tsm that changed the index (tsm --version)',
    );
  }
}
/** One prepared read of the version per connection: every write transaction asks it (assertSchema). */
const versionReads = new WeakMap<Database, BetterSqlite3.Statement>();

function versionRead(db: Database): BetterSqlite3.Statement {
  let stmt = versionReads.get(db);
  if (!stmt) {
    stmt = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck();
    versionReads.set(db, stmt);
  }
  return stmt;
}

function setSchemaVersion(db: Database): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
}

/** Section vectors the index holds (none in a table an older schema did not have). */
function storedVectors(db: Database): number {
  try {
    return Number(db.prepare('SELECT count(*) FROM section_vectors').pluck().get());
  } catch {
    return 0;
  }
}

function dropAll(db: Database): void {
  const objects = db
    .prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%'")
    .all() as { type: string; name: string }[];
  db.pragma('foreign_keys = OFF');
  writeTransaction(
    db,
    () => {
      // FTS5 shadow tables go with their virtual table; drop virtual tables first.
      for (const o of objects.filter((o) => o.name.endsWith('_fts'))) db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
      for (const o of objects.filter((o) => !o.name.includes('_fts'))) db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
    },
    { schemaChange: true },
  );
  db.pragma('foreign_keys = ON');
}

/**
 * What SQLite's quick_check finds wrong in the index, one line each (none when it is whole); of `table` and
 * its indexes only, when given. The whole index: 290 ms on the Obsidian Hub (6,571 notes, 38 MB); its notes table: 5 ms.
 */
export function quickCheck(db: Database, table?: 'notes'): string[] {
  const rows = db.pragma(table === undefined ? 'quick_check' : `quick_check(${table})`) as { quick_check: string }[];
  return rows.map((r) => r.quick_check.replace(/\s*\n\s*/g, ' ')).filter((r) => r !== 'ok');
}

/**
 * quickCheck of the whole index at `path`, on a read-only connection of its own, for a writer about to
 * rebuild it: run on the writer's connection, FTS5's part of the check (SQLite checks virtual tables too) left
 * the full-text tables' structure record another version number than a rebuild without it writes.
 */
export function quickCheckFile(path: string): string[] {
  const db = connect(path, true);
  try {
    return quickCheck(db);
  } finally {
    db.close();
  }
}

/**
 * The one message for an index found damaged, by a statement SQLite stopped (`detail`: its error) or by a
 * check of the index (wal-check.ts: what the check found).
 */
export function damagedError(path: string, detail: string): IndexError {
  return new IndexError('corrupt', `the index at ${path} is damaged (${detail}): run \`tsm index --full\` to rebuild it`);
}

/**
 * What a SQLite error met while reading or writing the index means for the user, as an IndexError that
 * names the fix; anything else is returned unchanged. A SQLITE_BUSY that reaches here is one statement's:
 * SQLite waited its busy_timeout (`busyWaitedMs`, 10 s unless the caller knows the connection's); the
 * writers' retries over WRITER_WAIT_MS end in busyError themselves.
 */
export function asIndexError(err: unknown, path: string, busyWaitedMs = BUSY_TIMEOUT_MS): unknown {
  if (err instanceof IndexError) return err;
  const kind = sqliteErrorKind(err);
  if (kind === null) return err;
  const detail = (err as Error).message;
  switch (kind) {
    case 'corrupt':
      return damagedError(path, detail);
    case 'full':
      return new IndexError(
        'full',
        `cannot write the index at ${path}: the disk is full (${detail}). It keeps every note written before; free some space, and the next sync writes the rest (\`tsm index\`; a running \`tsm watch\` tries again by itself)`,
      );
    case 'readonly':
    case 'readonly-folder':
      if (unwritableFolder(path) === 'read-only') {
        return new IndexError(
          'readonly',
          `cannot write the index at ${path}: its folder ${dirname(path)} is on a read-only file system (${detail}): remount it writable, or give --db (or TSM_DB) an index of your own`,
        );
      }
      return (
        lockedIndexError(path, 'write', detail) ??
        lockedCompanionError(path, detail, 'write') ??
        lockedFolderError(path, detail) ??
        new IndexError('readonly', `cannot write the index at ${path} (${detail}): check the permissions of the file and its folder`)
      );
    case 'busy':
      return busyError(path, busyWaitedMs);
    case 'io': {
      const watcher = otherWatcherBeside(path);
      if (watcher !== null) {
        return new IndexError(
          'io',
          `cannot read or write the index at ${path} (${detail}): \`tsm watch\` (pid ${watcher}) runs for this vault, and when the index ` +
            'file or its -wal is deleted under it, it keeps the old -wal and -shm files, which the new file shares, until it opens the index again ' +
            'within a second: run the command again, or stop the watcher',
        );
      }
      return new IndexError(
        'io',
        `cannot read or write the index at ${path} (${detail}; a full disk or a file size limit?). It keeps every note written before; run \`tsm index\` again once the cause is fixed`,
      );
    }
    case 'statement':
      return new IndexError(
        'statement',
        `the index at ${path} could not run a statement (${detail}): the index is not at fault; this is a bug in tsm, please report it with the command you ran`,
      );
  }
}

/**
 * The pid of a `tsm watch` other than this process on record beside the index (its default place, the
 * vault's `.tsm/`), or null. Read only when an I/O error is met: nothing on the way of a search that works.
 */
function otherWatcherBeside(path: string): number | null {
  return otherRunningWatcher(dirname(path));
}

type SqliteErrorKind = 'corrupt' | 'full' | 'readonly-folder' | 'readonly' | 'busy' | 'io' | 'statement';

/**
 * What a SQLite (or file system) error code means, in one table for every caller: opening for writing,
 * opening for reading, and errors met in the middle of a run. I/O errors are not damage (a full disk, a
 * file size limit): they never move the index aside.
 */
const SQLITE_ERRORS: [RegExp, SqliteErrorKind][] = [
  [/^SQLITE_(NOTADB|CORRUPT)/, 'corrupt'],
  [/^SQLITE_FULL$/, 'full'],
  [/^SQLITE_READONLY_(DIRECTORY|CANTINIT)$/, 'readonly-folder'],
  [/^(SQLITE_READONLY|SQLITE_PERM$|SQLITE_CANTOPEN|SQLITE_AUTH$|EACCES$|EPERM$|EROFS$)/, 'readonly'],
  [/^SQLITE_(BUSY|LOCKED)/, 'busy'],
  // SQLITE_ERROR (and its extended codes) is a statement SQLite would not run: tsm's own query, not the
  // file or the disk. Before, it fell under 'io', and a query of 16 phrases told the user to re-index.
  [/^SQLITE_ERROR/, 'statement'],
  [/^SQLITE_/, 'io'],
];

function sqliteErrorKind(err: unknown): SqliteErrorKind | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  for (const [pattern, kind] of SQLITE_ERRORS) if (pattern.test(code)) return kind;
  return null;
}

/** Longest a writer waits for its turn, over every retry (a `--full` of another writer may take minutes). */
const WRITER_WAIT_MS = 10 * 60_000;

/**
 * The one message for a write lock another writer held past the wait, with the time this process waited:
 * every SQLITE_BUSY said "for 10 minutes" (WRITER_WAIT_MS), even a statement's that SQLite gave up after its
 * 10 s busy_timeout.
 */
export function busyError(path: string, waitedMs: number): IndexError {
  const s = Math.round(waitedMs / 1000);
  const waited = s < 120 ? `${s} s` : `${Math.round(s / 60)} minutes`;
  return new IndexError(
    'busy',
    `the index at ${path} stayed locked by another writer (\`tsm index\`, \`tsm watch\`) for ${waited}: ` +
      'run `tsm index` again once it is done, or stop a writer that hangs',
  );
}

/**
 * A reader that waited its busy_timeout for a lock: in WAL mode only a process that holds the whole file
 * (a SQLite browser or `sqlite3` shell with `locking_mode = EXCLUSIVE`, a program writing it without WAL)
 * keeps readers out, never tsm's writers. It fell through to "cannot read the index at …: database is
 * locked", with no fix, and doctor's fix named a folder, a pipe or a failing disk and `tsm index`.
 */
export function readerBusyError(path: string, waitedMs: number): IndexError {
  const s = Math.round(waitedMs / 1000);
  const fix = 'close the program that holds the index file (a SQLite browser, a `sqlite3` shell) or stop a tsm that hangs, then run the command again';
  return new IndexError('busy', `the index at ${path} stayed locked by another process for ${s < 1 ? `${waitedMs} ms` : `${s} s`}, which keeps readers out: ${fix}`, undefined, fix);
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction. SQLite waits busy_timeout (10 s) for the write lock, which
 * another writer's long transaction (the end of a rebuild) can outlast: the BEGIN is then tried again
 * until WRITER_WAIT_MS, so any number of writers take turns instead of failing with "database is locked".
 * Only the BEGIN is retried; an error inside `fn` goes to the caller as it is. The index must still be of
 * this tsm's schema (assertSchema), except for the transactions that make it so (`schemaChange`).
 */
export function writeTransaction<T>(db: Database, fn: () => T, opts: { schemaChange?: boolean } = {}): T {
  const limit = waitLimits.get(db);
  const started = Date.now();
  const deadline = limit ?? started + WRITER_WAIT_MS;
  const txn = db.transaction((began: { yes: boolean }) => {
    began.yes = true;
    if (!opts.schemaChange) assertSchema(db);
    return fn();
  });
  for (;;) {
    const began = { yes: false };
    // A caller's limit: SQLite's own wait (which blocks the process) ends with it too.
    if (limit !== undefined) db.pragma(`busy_timeout = ${busyFor(limit)}`);
    try {
      return txn.immediate(began);
    } catch (err) {
      if (began.yes) throw err;
      waitAgainOrThrow(db, err, deadline, limit, started);
    }
  }
}

/**
 * writeTransaction without blocking the process while another writer holds the lock, for two callers:
 * - work that awaits between its writes (a `--full` rebuild: its parsers run in worker threads): one BEGIN
 *   IMMEDIATE held across the awaits, then COMMIT; any error rolls everything back. The writeTransaction
 *   calls made inside become savepoints (better-sqlite3 nests them when a transaction is open), so the
 *   connection must be the caller's alone meanwhile: another task's write on it would join this transaction.
 * - a resident process (`tsm serve`, `tsm watch`) whose event loop must keep answering: SQLite's busy wait
 *   blocks the whole thread, and a `--full` holds the lock for its whole rebuild (13 s on the handbook;
 *   minutes on a larger vault), so `tsm serve`'s embedding job froze the server for that long — its tools and
 *   the warm prompt hook answered nothing, and Claude Code held the prompt until the hook's 5 s timeout. Its
 *   `fn` is synchronous, so nothing else of the process joins the transaction.
 * The BEGIN is tried without SQLite's wait; between tries the process awaits a timer (50 ms, doubling to
 * 1 s), up to writeTransaction's deadline, with its errors. `stopped()` (asked after a failed try) gives up
 * the wait: WaitStopped, nothing written. Readers keep reading what was committed before (WAL). As with
 * writeTransaction, the index must be of this tsm's schema, except for a transaction that makes it so
 * (`schemaChange`: a rebuild that updates an older index, upgradeForRebuild).
 */
export async function writeTransactionAsync<T>(db: Database, fn: () => T | Promise<T>, opts: { stopped?: () => boolean; schemaChange?: boolean } = {}): Promise<T> {
  if (!(await writeTurn(db, opts.stopped))) throw new WaitStopped();
  try {
    if (!opts.schemaChange) assertSchema(db);
    const result = await fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    // Some errors (a full disk, an I/O error) have SQLite roll back the transaction itself.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** writeTransactionAsync's caller stopped (`stopped()` said so) while it waited: nothing was written. */
export class WaitStopped extends Error {
  constructor() {
    super('stopped while waiting for the write lock');
  }
}

/**
 * Waits, yielding to the event loop, until this connection holds the write lock (BEGIN IMMEDIATE, left
 * open for the caller to end): true; false when a try failed and `stopped()` says so (no lock held);
 * writeTransaction's error at its deadline. Between tries: a timer.
 */
async function writeTurn(db: Database, stopped: () => boolean = () => false): Promise<boolean> {
  const limit = waitLimits.get(db);
  const started = Date.now();
  const deadline = limit ?? started + WRITER_WAIT_MS;
  const busy = db.pragma('busy_timeout', { simple: true }) as number;
  for (let pause = 50; ; pause = Math.min(1000, pause * 2)) {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return true;
    } catch (err) {
      waitAgainOrThrow(db, err, deadline, limit, started);
    } finally {
      db.pragma(`busy_timeout = ${busy}`);
    }
    // Asked after a try, not before: a caller that stops still stores what it holds when the lock is free.
    if (stopped()) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
  }
}

/**
 * Waits, yielding, until no other writer holds the index's write lock (then lets go of it at once): true;
 * false once `stopped()` says so. A resident's sync (`tsm watch`'s batches), whose writes are many short
 * synchronous transactions, waits here for a `tsm index --full` instead of inside SQLite, so its socket, its
 * file events and its Ctrl-C are served meanwhile. Another writer may still come in between; the batch then
 * waits in SQLite as before.
 */
export async function writerFree(db: Database, stopped?: () => boolean): Promise<boolean> {
  if (!(await writeTurn(db, stopped))) return false;
  db.exec('ROLLBACK');
  return true;
}

/** After a BEGIN failed: returns to try again while another writer holds the lock and time is left; else throws. */
function waitAgainOrThrow(db: Database, err: unknown, deadline: number, limit: number | undefined, started: number): void {
  if (sqliteErrorKind(err) !== 'busy') throw err;
  if (Date.now() < deadline) return;
  if (limit === undefined) throw busyError(indexPathOf(db), Date.now() - started);
  throw new IndexError(
    'busy',
    `the index at ${db.name} stayed locked by another writer (\`tsm index\`, \`tsm watch\`) past this run's deadline: ` +
      'what was not indexed is indexed by the next `tsm index`, a running `tsm watch` or the next session\'s start',
  );
}

/** The `waitUntil` of connections opened with one (openWriter): writeTransaction gives up there. */
const waitLimits = new WeakMap<Database, number>();

/** SQLite's busy_timeout for a wait that must end at `until`: what is left of it, at most BUSY_TIMEOUT_MS. */
function busyFor(until: number): number {
  return Math.max(0, Math.min(BUSY_TIMEOUT_MS, until - Date.now()));
}

/** Throws an IndexError when the index or its -wal/-shm is there but is not a plain file (readers and writers). */
export function checkIndexFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    const kind = fileKind(p);
    // fileKind says 'other' for a path it may not stat: a folder of the index's this user may not enter (another
    // user's) was "not a plain file (a folder, FIFO or device?): move it aside".
    if (kind === 'other') notPermitted(path, p);
    // An absent index is the opener's to report or create; absent companions are normal.
    if (kind === 'absent' && p === path) {
      checkIndexFolder(path);
      checkDanglingLink(path);
    }
    if (kind === 'file' || kind === 'absent') continue;
    throw new IndexError('io', `${p} is not a plain file (a folder, FIFO or device?): move it aside and run \`tsm index\``);
  }
}

/** Throws the permission error when `p` (the index or a companion) cannot be looked at for want of permission. */
function notPermitted(path: string, p: string): void {
  try {
    statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new IndexError('readonly', `cannot reach the index at ${path} (${code}: permission denied on ${p}): check the permissions of the folders it is in, or give --db (or TSM_DB) an index of your own`);
    }
  }
}

/**
 * An absent index whose folder cannot be: a file (or a link to nothing) where `.tsm/` or a folder of `--db`'s
 * path belongs. Named as the writer names it (folders.ts notAFolder); a reader said "no index: run `tsm index`
 * first", and that `tsm index` then stopped at the file.
 */
function checkIndexFolder(path: string): void {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const kind = fileKind(dir);
    if (kind === 'directory') return;
    if (kind !== 'absent' || fileKind(dir, { lstat: true }) !== 'absent') throw new IndexError('io', notAFolder(dir).message);
  }
}

/**
 * An index path that is a symbolic link to nothing (its target moved, or a link made before the disk it
 * leads to was mounted): SQLite follows the link and creates the file where it leads when that folder
 * exists, which is what the link asks for; when it does not, SQLite said only "unable to open database
 * file", a search and `tsm index` said to "check the permissions of the file and its folder", and
 * `tsm status` and `tsm doctor` said there was no index and to run `tsm index`, which then failed so.
 */
function checkDanglingLink(path: string): void {
  let target: string;
  try {
    target = resolve(dirname(path), readlinkSync(path));
  } catch {
    return; // no link there: the opener reports or creates the file
  }
  const folder = dirname(target);
  if (fileKind(folder) === 'directory') return;
  const fix = 'make that folder (or mount its disk), or remove the link, then run `tsm index`';
  throw new IndexError('io', `${path} is a symbolic link to ${target}, whose folder ${folder} does not exist (moved, or a disk not mounted?): ${fix}`, undefined, fix);
}

/**
 * Writes what the connection's -wal holds into the index file, as far as no reader's snapshot needs it
 * (SQLite's checkpoint), for a writer whose -wal was deleted under it (the watcher, before it opens the index
 * again): the file it still has open is the only copy of those pages. A failure leaves them to the caller's
 * rescan, which writes the notes again.
 */
export function checkpointWal(db: Database): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // the rescan that follows writes again what was not kept
  }
}

/** Moves a damaged index out of the way (kept as `<db>.corrupt-<time>`, never deleted) so it can be rebuilt. */
export function moveCorruptAside(path: string): void {
  if (!replaceable(path)) throw notAnIndex(path);
  const aside = `${path}.corrupt-${Date.now()}`;
  moveAside(path, aside);
  process.stderr.write(`tsm: the index was damaged; moved it to ${aside} and rebuilt it\n`);
}

function moveAside(path: string, aside: string): void {
  try {
    renameSync(path, aside);
  } catch (err) {
    throw new IndexError('io', `the index ${path} is corrupt and cannot be moved aside: ${(err as Error).message}`);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
}

/**
 * Whether a file SQLite cannot use may be moved aside and replaced by a new index: only one that is tsm's —
 * its header carries tsm's mark (an index damaged past its first page), or it lies in a `.tsm` folder,
 * tsm's own place, as its index (`index.db`) or a SQLite file. `--db` can name any file, and a user's file
 * there is never moved: `--db README.md` used to turn the note into an index (its text kept only as
 * `README.md.corrupt-<time>`), and `--db .tsm/config.json` did so to the vault's settings, after which every
 * command stopped at a config.json that was SQLite.
 */
function replaceable(path: string): boolean {
  const head = fileHead(path, 72);
  const sqlite = head !== null && head.length >= 16 && head.toString('latin1', 0, 16) === SQLITE_HEADER;
  if (basename(dirname(path)) === TSM_DIR) return basename(path) === INDEX_FILE || sqlite;
  return sqlite && head.length === 72 && head.readUInt32BE(68) === TSM_APPLICATION_ID;
}

/** How every SQLite database file begins (its header's first 16 bytes). */
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Whether the index file was overwritten in place with something that is no database (`head -c … >
 * index.db`, a sync tool writing another version into the same file): it holds bytes, and they do not
 * begin as SQLite's do. A connection open on it learns nothing (same file, same identity) until it reads
 * a page; one read of 16 bytes. An empty file or none is not this: SQLite writes a new file's header itself.
 */
export function overwrittenIndex(path: string): boolean {
  const head = fileHead(path, SQLITE_HEADER.length);
  return head !== null && head.length > 0 && head.toString('latin1') !== SQLITE_HEADER.slice(0, head.length);
}

/**
 * Whether the file at `path` is absent, empty, or begins as a SQLite database does: anything else is no
 * database, whatever SQLite makes of it (it opens a file of one byte as an empty database). One read of 16 bytes.
 */
function sqliteOrEmpty(path: string): boolean {
  const head = fileHead(path, SQLITE_HEADER.length);
  return head === null || head.length === 0 || head.toString('latin1') === SQLITE_HEADER;
}

/** The first `bytes` bytes of a plain file (fewer if it is shorter), or null when it cannot be read. */
function fileHead(path: string, bytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, readSync(fd, head, 0, bytes, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function notAnIndex(path: string): IndexError {
  return new IndexError(
    'foreign',
    `${path} is not a tsm index (not a database tsm wrote); tsm leaves it as it is: give --db a new file name, or the index of a vault`,
  );
}

/**
 * Why the index's folder cannot be written, if it cannot: a read-only file system (EROFS) or no permission.
 * SQLite does not tell them apart: on a read-only mount it gives SQLITE_CANTOPEN, the code of any file it
 * cannot open, and the message said only `unable to open database file`.
 */
function unwritableFolder(path: string): 'read-only' | 'permission' | null {
  try {
    accessSync(dirname(path), constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EROFS' ? 'read-only' : code === 'EACCES' || code === 'EPERM' ? 'permission' : null;
  }
}

/**
 * The index's `-wal` or `-shm` file when it is there and this user may not use it: not read it (`read`), or not
 * read and write it (`write`; a reader needs to read them only). A `sudo tsm index` killed, or another user's
 * `tsm watch`, leaves them owned by another user; SQLite then said only "attempt to write a readonly database"
 * or "unable to open database file", and tsm's "check the permissions of the file and its folder" pointed at
 * two that were fine. Looked at before each open (noteLockedCompanion: a stat and an access call per file
 * that is there, microseconds), and named only once SQLite has refused (a reader works beside a -wal it may
 * not write).
 */
function lockedCompanion(path: string, use: 'read' | 'write'): string | null {
  for (const p of [`${path}-wal`, `${path}-shm`]) {
    if (fileKind(p) !== 'file') continue;
    try {
      accessSync(p, use === 'write' ? constants.R_OK | constants.W_OK : constants.R_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') return p;
    }
  }
  return null;
}

/**
 * The -wal or -shm file the user could not use when the index at `path` was last opened. SQLite, opening a
 * -shm or -wal of the user's own of mode 444, fails and then gives it the index file's mode (fchmod): looked
 * at after the error, it is writable, and the error named nothing. Noted at each open (two stats; rarely a file).
 */
const lockedAtOpen = new Map<string, string>();

function noteLockedCompanion(path: string, use: 'read' | 'write'): void {
  const p = lockedCompanion(path, use);
  if (p === null) lockedAtOpen.delete(path);
  else lockedAtOpen.set(path, p);
}

/** The error that names a `-wal` or `-shm` file the user may not `use` (lockedCompanion) and its fix; null when none is. */
function lockedCompanionError(path: string, detail: string, use: 'read' | 'write'): IndexError | null {
  const p = lockedCompanion(path, use) ?? lockedAtOpen.get(path) ?? null;
  if (p === null) return null;
  let uid: number | null = null;
  try {
    uid = statSync(p).uid;
  } catch {
    // gone since: the fix below still names it
  }
  const mine = uid === null || process.getuid === undefined || uid === process.getuid();
  const fix = mine
    ? `make it readable and writable for you (\`chmod u+rw ${p}\`)`
    : `it belongs to another user (uid ${uid}: a \`sudo tsm\` run, or their \`tsm watch\`): once no tsm of theirs runs on this index, give it to you (\`sudo chown $USER ${p}\`)`;
  return new IndexError(
    'readonly',
    `cannot ${use} the index at ${path}: SQLite keeps ${p} beside it, which you may not ${use === 'read' ? 'read' : 'write'} (${detail}): ${fix}`,
    undefined,
    fix,
  );
}

/**
 * The error for an index file this user may not `use`: not write (`chmod 444`, another user's) or not read
 * (`chmod 000`), or null. Asked before the -wal and -shm (lockedCompanionError): SQLite makes them with the
 * index file's mode, so a read-only index has read-only companions too, and the message named the -wal with
 * `chmod u+rw` on it, which SQLite undid at the next open (it gives a companion the index's mode again), so
 * `tsm index` failed the same way; an unreadable index gave readers only "unable to open database file".
 * `tsm doctor` asks it of an index it could read (its searches work; its syncs would fail).
 */
export function lockedIndexError(path: string, use: 'read' | 'write', detail?: string): IndexError | null {
  let uid: number | null = null;
  try {
    uid = statSync(path).uid;
    accessSync(path, use === 'write' ? constants.R_OK | constants.W_OK : constants.R_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') return null;
  }
  let readable = true;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    readable = false;
  }
  const [what, mode, made] = readable
    ? ['not writable for you', 'u+w', 'writable']
    : use === 'write'
      ? ['not readable for you', 'u+rw', 'readable and writable']
      : ['not readable for you', 'u+r', 'readable'];
  const files = [path, `${path}-wal`, `${path}-shm`].filter((p) => fileKind(p) === 'file').join(' ');
  const mine = uid === null || process.getuid === undefined || uid === process.getuid();
  const fix = mine
    ? `make it ${made} for you (\`chmod ${mode} ${files}\`), or give --db (or TSM_DB) an index of your own`
    : `it belongs to another user (uid ${uid}: a \`sudo tsm\` run?): give it to you (\`sudo chown $USER ${files}\`), or give --db (or TSM_DB) an index of your own`;
  return new IndexError('readonly', `cannot ${use} the index at ${path}: the file is ${what}${detail === undefined ? '' : ` (${detail})`}: ${fix}`, undefined, fix);
}

/**
 * The error for an index whose folder this user may not write (`chmod 555 .tsm`), the file and its -wal and
 * -shm being fine, or null: SQLite makes the -wal and -shm there. It said "check the permissions of the file
 * and its folder", naming neither.
 */
function lockedFolderError(path: string, detail: string): IndexError | null {
  if (unwritableFolder(path) !== 'permission') return null;
  const folder = dirname(path);
  const fix = `make the folder writable for you (\`chmod u+w ${folder}\`), or give --db (or TSM_DB) an index of your own`;
  return new IndexError('readonly', `cannot write the index at ${path}: its folder ${folder} is not writable for you, and SQLite keeps the index's -wal and -shm files there (${detail}): ${fix}`, undefined, fix);
}

/** Whether the disk holding the index has no room left (asked only once an I/O error is met). */
function diskFull(path: string): boolean {
  try {
    return statfsSync(dirname(path)).bavail === 0;
  } catch {
    return false;
  }
}

/** A file of tsm's (replaceable) that is no usable database, for a reader: `tsm index` moves it aside and rebuilds. */
function notUsable(path: string): IndexError {
  return new IndexError('corrupt', `the index at ${path} is not a usable database: run \`tsm index\` to rebuild it`);
}

function describe(err: unknown, path: string, busyWaitedMs = BUSY_TIMEOUT_MS): IndexError {
  const kind = sqliteErrorKind(err);
  if (kind === 'busy') return readerBusyError(path, busyWaitedMs);
  if (kind === 'corrupt' && !replaceable(path)) return notAnIndex(path);
  if (kind === 'corrupt') return notUsable(path);
  if ((err as { code?: unknown }).code === 'SQLITE_READONLY_ROLLBACK') {
    // A program that switched the index to SQLite's rollback journal (a SQLite browser, `sqlite3`) and stopped
    // half way through a write leaves a hot `-journal`, which only a writer may roll back. It said "cannot open
    // the index at …: attempt to write a readonly database"; `tsm index` opens it for writing and rolls it back.
    const fix = 'run `tsm index`, which rolls it back';
    return new IndexError(
      'io',
      `the index at ${path} holds a write left half done in ${basename(path)}-journal (a program that wrote it stopped), which a reader may not undo: ${fix}`,
      undefined,
      fix,
    );
  }
  const folder = kind === 'readonly' || kind === 'readonly-folder' ? unwritableFolder(path) : null;
  if (kind === 'readonly-folder' || folder !== null) {
    // WAL: even a reader keeps a small <db>-shm file next to the index, which needs a writable folder.
    const [why, fix] = folder === 'read-only' ? ['is on a read-only file system', 'remount it writable'] : ['is not writable for you', 'make the folder writable'];
    return new IndexError(
      'readonly',
      `cannot read the index at ${path}: its folder ${dirname(path)} ${why}, and SQLite needs to keep a ` +
        `small ${basename(path)}-shm file there while reading; ${fix}, or use an index of your own (--db)`,
    );
  }
  if (kind === 'readonly') {
    const detail = (err as Error).message;
    return lockedIndexError(path, 'read', detail) ?? lockedCompanionError(path, detail, 'read') ?? new IndexError('readonly', `cannot open the index at ${path}: ${detail}`);
  }
  if (kind === 'io' && otherWatcherBeside(path) !== null) return asIndexError(err, path) as IndexError;
  if (kind === 'io' && diskFull(path)) {
    // Measured on a filled tmpfs: SQLite gave only `disk I/O error` (SQLITE_IOERR_SHMSIZE), and the search failed.
    return new IndexError(
      'io',
      `cannot read the index at ${path}: its disk is full, and SQLite needs room for a small ${basename(path)}-shm file ` +
        'beside the index even to read it; free some space',
    );
  }
  return new IndexError('io', `cannot read the index at ${path}: ${(err as Error).message}`);
}
