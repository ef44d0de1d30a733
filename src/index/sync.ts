// Brings the index in step with the vault: stat first, hash when size/mtime/ctime changed, parse what really
// changed (in worker threads for big batches), one transaction per note, purge what is gone, re-resolve links.
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { IndexWarning, NotTaken, SyncSummary, VaultFile } from '../core/types.js';
import type { ParseOptions } from '../parse/options.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { otherRunningWatcher } from '../vault/watcher-pid.js';
import { A_FOLDER, createAttachmentLookup, createNoteLookup, isFolderAt, type NoteAt } from '../vault/note-at.js';
import { existsNoFollow, findOnDisk, isNoteName, vaultRelative } from '../vault/paths.js';
import { scanVault } from '../vault/scan.js';
import { normalize } from '../text/normalize.js';
import { asIndexError, damagedError, IndexError, moveCorruptAside, openWriter, quickCheckFile, upgradeForRebuild, upgradeInPlace, writeTransactionAsync, type Database, type OpenedIndex } from './db.js';
import { shareReadByOlder } from './note-reading.js';
import { fileStatesOf, NoteWriter, type FileState } from './note-writer.js';
import { readParseOptions } from './parse-options.js';
import { changedReadingSettings, describeChangedSettings } from './reading-settings.js';
import type { PreparedLoad } from './prepared-load.js';
import { basenameKey } from './resolve-link.js';
import { hasSemanticModel, refreshSemantic, semanticStatus } from './semantic/refresh.js';

export interface SyncOptions {
  /** Re-read every file, as a fresh build would. */
  full?: boolean;
  /** Check only these paths (absolute or vault-relative); others are left as they are. */
  paths?: string[];
  /** With `paths`: vault-relative paths of files that are no notes, whose coming or going links may name (the watcher's). */
  attachments?: string[];
  /**
   * Folders a relative path of `paths` may also be relative to, tried in order when it names neither a file
   * nor an indexed note from the vault root (`--files-from-stdin`: the current folder, the git repository's root).
   */
  pathBases?: string[];
  onProgress?: (done: number, total: number) => void;
  /** Parser threads for big batches (default: one per core but the writer's, at least 1, at most 4). */
  threads?: number;
  /** Use this connection instead of opening one (the watcher keeps one open). */
  db?: Database;
  /** Leave a due retraining of the semantic model to the caller (the watcher's worker thread). */
  backgroundRetrain?: boolean;
  /** Leave an index a newer tsm wrote as it is rather than rebuild it (WriterOptions.keepNewer): a sync nobody asked for. */
  keepNewer?: boolean;
  /** Give up waiting for the index's write lock at this time (Date.now() ms): WriterOptions.waitUntil. */
  waitUntil?: number;
}

/** The share of notes to read again (an older tsm read them) from which a sync rebuilds the index instead (syncOnce). */
const REBUILD_SHARE = 0.9;
/**
 * The share of the index's notes written (by one sync or many, not a rebuild) from which a sync merges the
 * full-text indexes into one segment again after it, as a build leaves them (mergeIfMuchWritten). A
 * rewritten note's old rows stay in the segment that holds them, hidden by delete marks, until FTS5's
 * automerge merges that segment, and a build's one big segment is merged last. On the handbook (4,559
 * notes; sections_fts_data 18,510 rows built): a sync that rewrote 10 / 25 / 50 / 75 % of the notes left
 * 1.14 / 1.33 / 1.64 / 1.97 times the rows (7–13 segments), a second 50 % sync 2.3 times (a 283 MB file
 * against 179); ten syncs of 5 % 1.63 times; 3,000 one-note syncs (a watcher's, over 1,000 notes) 1.65
 * times, and growing. Ranked FTS5 queries took up to twice as long (1.1 ms against 0.5). Merged after a
 * 50 % sync: 18,553 rows, one segment, 232.7 MB (its free pages reused by later writes). The merge rewrites
 * the whole index, about 1.4 s there whatever was written: a 10 % sync's CPU (user + system, 3 runs each)
 * 6.4–6.7 → 7.3–7.6 s, a 50 % sync's 23–26 s both ways; for a watcher, once per 456 notes written (3 ms a
 * note, where its one-note syncs took 250 ms each).
 */
const COMPACT_SHARE = 0.1;
/**
 * Pages one merge step writes, each step a transaction of its own, so another writer (a hook's sync) waits
 * for one step, not the whole merge: on the handbook 71 steps, with a load of 7 on 2 cores the longest
 * 118–216 ms, and the whole merge 2.8–3.4 s, as long as in 10 steps of 2,000 pages (the longest 480–630 ms)
 * or one 'optimize' (1.4–1.9 s on a less busy machine, longer than any transaction of a 50 % sync: 0.5–1.7 s).
 */
const MERGE_STEP_PAGES = 250;
/** A bound on the steps of one sync, whatever other writers add meanwhile: the next sync goes on. */
const MAX_MERGE_STEPS = 1000;
/** Batches at least this big are parsed in worker threads. */
const PARALLEL_THRESHOLD = 200;
/** Notes written per transaction when a batch is large (each note is still all-or-nothing). */
const WRITE_BATCH = 500;
/** Fewest notes written at once while the parsers are ahead of the writer. */
const MIN_IDLE_WRITE = 32;

/**
 * SQLite errors come out as IndexErrors that name the fix. An index found damaged on the way is moved
 * aside and built again from the vault (markdown is the source of truth), unless the caller owns the
 * connection (the watcher), which then hears about it.
 */
export async function syncVault(cfg: TsmConfig, opts: SyncOptions = {}): Promise<SyncSummary> {
  try {
    return await syncOnce(cfg, opts);
  } catch (err) {
    const e = asIndexError(err, cfg.db);
    if (!(e instanceof IndexError && e.code === 'corrupt') || opts.db) throw e;
    moveCorruptAside(cfg.db);
    try {
      return await syncOnce(cfg, opts);
    } catch (again) {
      throw asIndexError(again, cfg.db);
    }
  }
}

/**
 * One sync, in the stages its header names: open (and begin a rebuild), list the files, plan what
 * changed, load and write, remove what is gone, finish (links, warnings, attachments, the bulk load),
 * then the semantic model.
 */
async function syncOnce(cfg: TsmConfig, opts: SyncOptions): Promise<SyncSummary> {
  const started = performance.now();
  const whole = opts.paths === undefined;
  const opened: OpenedIndex = opts.db
    ? { db: opts.db, fresh: false }
    : openWriter(cfg.db, { vault: cfg.vault, schemaChangeBlocked: () => otherWatcher(cfg), keepNewer: opts.keepNewer, waitUntil: opts.waitUntil, deferUpgrade: whole });
  try {
    // `--full` is the fix every reader names for a damaged index, and the rebuild below empties it row by row:
    // an index whose table and indexes disagree (a -wal of another index laid over it, wal-check.ts) stayed so
    // ("wrong # of entries in index notes_date" after the rebuild). Checked first, a damaged one is moved aside
    // (syncVault) and built anew. 0.3 s on the Obsidian Hub, whose `--full` takes 22 s.
    if (opts.full && !opts.db && !opened.fresh) {
      const bad = quickCheckFile(cfg.db);
      if (bad.length > 0) throw damagedError(cfg.db, `SQLite's integrity check: ${bad[0]}`);
    }
    // Every note an older tsm read (note-reading.ts), as after any upgrade of tsm, or all but a few (a Stop
    // hook's sync came first), by a sync of the whole vault on a connection of its own: rebuilt as `--full`
    // rebuilds (below), not rewritten note by note. On the handbook (4,559 notes) the notes' rewrite took
    // 19-20 s (30 s of CPU, about 6.5 ms a note) where a build takes 14 s (27 s of CPU, 6 of them the semantic
    // model's training): each note's old full-text rows deleted one by one, and merged as it went, which left
    // sections_fts twice a build's size (an index of 278 MB, not 179). So from REBUILD_SHARE of the notes on.
    // The vectors of unchanged sections are kept either way (vector-carry.ts); the semantic model is trained
    // again (svd.ts is seeded: from the same sections it learns the same vectors). The same when a setting the
    // notes were read with changed (reading-settings.ts): every note is read again (chunkChars on the
    // handbook: 35 s, 281 MB).
    const reading = readParseOptions(cfg);
    const rereadAll =
      whole && !opts.full && !opts.db && !opened.fresh && (shareReadByOlder(opened.db) >= REBUILD_SHARE || changedReadingSettings(opened.db, reading.opts).length > 0);
    const upgradeFrom = opened.upgradeFrom;
    // An older index that no rebuild follows is updated in place first (db.ts upgradeInPlace).
    if (upgradeFrom !== undefined && !opts.full && !rereadAll) upgradeInPlace(opened.db, upgradeFrom);
    // `--full` of an index that exists: one write transaction from its emptying to the semantic model's
    // training, so every reader sees the old index, whole, until the new one is (a search during a `--full`
    // of the handbook found 0 results, then a growing part of them, for 13 s, then 6 s of results ranked
    // without the semantic model), and a rebuild killed or failing anywhere leaves the old index as it was.
    // Other writers wait their turn meanwhile (writeTransactionAsync). Handbook `--full`, 4 runs each,
    // alternating with the build before: wall 13.13 → 13.14 s, CPU 21.0 → 21.5 s, peak RSS at most 354 →
    // 355 MB; the WAL peaks at 181 MB instead of 78 (db.ts cuts it back). Building a new file and renaming
    // it over the old one would keep writers free, but a `tsm watch` writes through a connection to the old
    // file (its edits would go where nobody reads), and an old -wal must never meet the new file. A first
    // build (a fresh file) has no old index to show: it commits as it goes, so searches find notes as they
    // come, and a killed one is finished by the next sync (mayEndBulkLoad). An older index is brought to this
    // schema inside that transaction (upgradeForRebuild): killed, it is the older index still, whole. (It was
    // migrated in place first: a `--full` of a schema-11 index of the handbook took 30 s, not 15.)
    const rebuild = (Boolean(opts.full) || rereadAll) && !opened.fresh;
    const upgradeInRebuild = rebuild && upgradeFrom !== undefined;
    const sync = () => {
      if (upgradeInRebuild) upgradeForRebuild(opened.db, upgradeFrom);
      return syncIn(cfg, opts, opened, new NoteWriter(opened.db, cfg.extensions), { rebuild, rereadAll, reading });
    };
    const summary = rebuild ? await writeTransactionAsync(opened.db, sync, { schemaChange: upgradeInRebuild }) : await sync();
    // Its commit included (a `--full`'s: 0.4 s more on the handbook, the checkpoint of its WAL).
    summary.seconds = Math.round((performance.now() - started) / 10) / 100;
    return summary;
  } finally {
    if (!opts.db) opened.db.close();
  }
}

/**
 * syncOnce's work on the opened index; `rebuild`: empty it first (a `--full`, or `rereadAll`: the notes an older tsm read are most
 * of them, or a reading setting changed); `reading`: how this run reads notes (parse-options.ts).
 */
async function syncIn(
  cfg: TsmConfig,
  opts: SyncOptions,
  opened: { db: Database; fresh: boolean },
  writer: NoteWriter,
  how: { rebuild: boolean; rereadAll: boolean; reading: ReturnType<typeof readParseOptions> },
): Promise<SyncSummary> {
  const { reading } = how;
  // What the index held before a rebuild that reads the notes again: the summary says what reading them
  // one by one said (updated, unchanged, removed), not a `--full`'s "added".
  const before = how.rereadAll ? writer.fileStates(reading.opts.dayFormats) : null;
  if (before !== null) rereadForSettings(before, writer.changedReadingSettings(reading.opts), true);
  const rebuild = beginRebuild(writer, how.rebuild, opened.fresh);
  const partial = opts.paths !== undefined && !rebuild;
  const states = writer.fileStates(reading.opts.dayFormats);
  if (!partial && !rebuild) rereadForSettings(states, writer.changedReadingSettings(reading.opts), true);
  // Notes an older tsm read (src/index/note-reading.ts): read again, once, by this run if it lists them all.
  const older = [...(before ?? (partial || rebuild ? new Map<string, FileState>() : states)).values()].filter((st) => st.olderReading).length;
  if (older > 0) process.stderr.write(`tsm: the index holds ${older} notes as an older tsm read them: reading them again, once\n`);
  const listing = partial
    ? { ...statPaths(cfg, opts.paths ?? [], opts.pathBases ?? [], states, writer), attachments: [] as string[], warnings: [] as IndexWarning[] }
    : { ...scanVault(cfg.vault, { extensions: cfg.extensions }), missing: [] as string[], notTaken: undefined, attachmentsNow: NO_ATTACHMENTS };
  const plan = planChanges(states, listing.files, partial ? listing.missing : null);
  const run: SyncRun = {
    cfg,
    parseOpts: reading.opts,
    writer,
    plan,
    before: before ?? undefined,
    summary: {
      added: 0,
      updated: 0,
      removed: before === null ? 0 : [...before].filter(([path, st]) => !st.skipped && !seen(listing.files, path)).length,
      unchanged: plan.unchanged,
      skipped: plan.stillSkipped,
      warnings: 0,
      seconds: 0,
      ...(listing.notTaken ? { notTaken: listing.notTaken, attachments: [...new Set(listing.attachmentsNow.listed)] } : {}),
    },
    links: new LinkWork(writer, plan.gone.length > 0),
  };
  await loadAndWrite(run, opts);
  removeGone(run);
  const attachments = partial ? withAttachments(attachmentsNow(cfg, opts.attachments ?? []), listing.attachmentsNow) : { listed: listing.attachments, gone: [] };
  finish(run, { rebuild, partial, scanWarnings: [...listing.warnings, ...reading.warnings], attachments });
  mergeIfMuchWritten(run, rebuild, opts.waitUntil);
  // The semantic model (src/index/semantic/): a rebuild trains it, on this thread once the build is done
  // (in a worker beside the build's last steps, peak RSS on the handbook rose from 352 to 480 MB: two
  // heaps); other syncs give new sections vectors at once. A sync that wrote nothing skips it (it would
  // scan every section for one without a vector) unless there is no model of this tsm's version (just
  // turned on, or left by an older tsm: its vectors are never read), a retrain is due (`tsm status` sends
  // the user to `tsm index` for one that a watcher stopped mid-training, or notes added while the model
  // was off, left due) or sections have no vector yet (added while it was off, too few for a retrain:
  // status said "not embedded yet" until some note changed). Checking costs a meta read and two counts.
  // A vault that has not turned it on skips it.
  const { added, updated, removed } = run.summary;
  if (cfg.semantic && (rebuild || added + updated + removed > 0 || !hasSemanticModel(opened.db) || semanticWorkLeft(opened.db))) {
    // A rebuild of an existing index (how.rebuild: an upgrade's, in one transaction) trains here even in a
    // watcher (backgroundRetrain), as `tsm index` does: given the old model's vectors first and retrained in
    // the background, a watcher's first sync after an upgrade of tsm (every handbook section embedded at once)
    // peaked at 611–674 MB, where `tsm index` of the same upgrade peaks at 347 MB; now 392 MB, and the sync
    // takes no longer (16.4 s). A watcher's first build of a new index still trains in the background.
    refreshSemantic(opened.db, { rebuild, background: opts.backgroundRetrain && !how.rebuild });
  }
  run.summary.warnings = writer.warningCount();
  return run.summary;
}

/**
 * What a sync would do now, without doing it (`tsm doctor`'s staleness check): the same listing and the
 * same stat rule as a sync, over a reader's connection.
 */
export function pendingChanges(
  cfg: TsmConfig,
  db: Database,
): { added: number; changed: number; removed: number; settings: string[]; olderReading: number } {
  const { opts } = readParseOptions(cfg);
  const states = fileStatesOf(db, opts.dayFormats);
  const settings = changedReadingSettings(db, opts);
  rereadForSettings(states, settings, false);
  const plan = planChanges(states, scanVault(cfg.vault, { extensions: cfg.extensions }).files, null);
  const added = plan.toLoad.filter((f) => !states.has(f.path)).length;
  // Of the changed: files as they were, read again because an older tsm read them (after an upgrade, all).
  const olderReading = plan.toLoad.filter((f) => {
    const st = states.get(f.path);
    return st?.olderReading === true && sameStat(st, f);
  }).length;
  return { added, changed: plan.toLoad.length - added, removed: plan.gone.length, settings, olderReading };
}

/**
 * Settings the notes were read with that config.json changes since (reading-settings.ts): every note is
 * read again, as its size and time say nothing of them; `say`: tell the user why on stderr.
 */
function rereadForSettings(states: Map<string, FileState>, changed: string[], say: boolean): void {
  if (changed.length === 0) return;
  if (say && states.size > 0) {
    process.stderr.write(`tsm: ${describeChangedSettings(changed)} since the notes were read: reading them all again, once\n`);
  }
  for (const st of states.values()) st.reread = true;
}

interface SyncPlan {
  /** What the index knew of every file before this run. */
  states: Map<string, FileState>;
  /** Files to read (with the hash the index holds, so an unchanged read skips parsing). */
  toLoad: VaultFile[];
  unchanged: number;
  /** Files skipped before (too large, binary, …) and not changed since: still skipped, counted so. */
  stillSkipped: number;
  /** Indexed paths no longer listed. */
  gone: string[];
}

interface SyncRun {
  cfg: TsmConfig;
  /** How this run reads notes (parse-options.ts): read once, recorded as read. */
  parseOpts: ParseOptions;
  writer: NoteWriter;
  plan: SyncPlan;
  summary: SyncSummary;
  links: LinkWork;
  /** Whether a path names a note now, by the listing's rules (made when first needed). */
  noteAt?: (rel: string) => NoteAt;
  /** What the index knew before a rebuild that reads every note again (syncIn): counted against it. */
  before?: Map<string, FileState>;
}

/** True when `path` names a note on disk now, by the rules that listed the files (src/vault/note-at.ts). */
function noteOnDisk(run: SyncRun, path: string): boolean {
  run.noteAt ??= createNoteLookup(run.cfg.vault, run.cfg.extensions);
  return run.noteAt(path).file !== undefined;
}

/**
 * `--full` empties the index (setting the neural vectors aside, given back in `finish`), inside the
 * transaction that holds its whole rebuild (syncOnce); a rebuild (that or a fresh file) resolves every link
 * and bulk-loads.
 */
function beginRebuild(writer: NoteWriter, full: boolean, fresh: boolean): boolean {
  if (!full && !fresh) return false;
  writer.inTransaction(() => {
    if (full) writer.clearAll();
    writer.addPendingLinks('all');
    writer.beginBulkLoad();
  });
  return true;
}

/** By stat alone: files whose size, mtime and ctime are as indexed are not read. `missing`: partial runs. */
function planChanges(states: Map<string, FileState>, files: VaultFile[], missing: string[] | null): SyncPlan {
  const toLoad: VaultFile[] = [];
  let unchanged = 0;
  let stillSkipped = 0;
  for (const f of files) {
    const st = states.get(f.path);
    if (!st || !sameStat(st, f) || st.reread) {
      // A new time alone (a checkout, a copy, a sync tool) is found out by the hash, before any parsing.
      toLoad.push(st && !st.skipped && st.hash && !st.reread ? { ...f, knownHash: st.hash } : f);
    } else if (st.skipped) {
      // Skipped still: counted as unchanged, a binary file beside one note made the second `tsm index` say
      // "2 unchanged, 0 skipped" where the first had said "1 added, 1 skipped".
      stillSkipped++;
    } else unchanged++;
  }
  const gone = missing ? missing.filter((p) => states.has(p)) : [...states.keys()].filter((p) => !seen(files, p));
  return { states, toLoad, unchanged, stillSkipped, gone };
}

/**
 * What the run did to the set of notes, for link resolution: each write transaction records its part as
 * pending link work (so a killed run's work is finished by the next), and the run's whole part decides
 * what `finish` resolves.
 */
class LinkWork {
  /** Keys (basenames, aliases) of notes added or renamed by the run. */
  readonly keys = new Set<string>();
  private txnChanged = false;
  private txnKeys: string[] = [];

  constructor(
    private readonly writer: NoteWriter,
    /** Notes appeared, vanished or became skipped: links may resolve differently. */
    public setChanged: boolean,
  ) {}

  /** Runs `fn` in a write transaction that records its link work with it. */
  write(fn: () => void): void {
    this.writer.inTransaction(() => {
      this.txnChanged = false;
      this.txnKeys = [];
      fn();
      this.writer.flushReadings();
      if (this.txnChanged) this.writer.addPendingLinks(this.txnKeys);
    });
  }

  /** A note vanished or became skipped. */
  noteSetChanged(): void {
    this.setChanged = this.txnChanged = true;
  }

  /** A note's links were written unresolved. */
  linksWritten(): void {
    this.txnChanged = true;
  }

  /** Links naming `key` may now resolve to a note. */
  key(key: string): void {
    this.keys.add(key);
    this.txnChanged = true;
    this.txnKeys.push(key);
  }
}

/** Writes one loaded file: a note, a skip, a touch, or a removal. */
function apply(run: SyncRun, file: VaultFile, result: PreparedLoad): void {
  const { writer, summary, links } = run;
  const prev = (run.before ?? run.plan.states).get(file.path);
  // Another writer (the watcher, a second `tsm index`) may have indexed a newer version since this run
  // read the file: write only what is still on disk, so an older read never overwrites a newer one.
  if (result.kind === 'gone' ? noteOnDisk(run, file.path) : !unchangedOnDisk(file)) return;
  if (result.kind === 'gone') {
    if (writer.removePath(file.path)) {
      summary.removed++;
      links.noteSetChanged();
    }
  } else if (result.kind === 'skipped' && result.retry) {
    // Left as it was (an indexed note keeps its last version) and not recorded by its stat, so that the next
    // sync reads it again. No warning: a read that works next time would leave it behind (an unchanged note's
    // warnings are not written again). A watcher reads it again a little later (watch-vault.ts).
    summary.skipped++;
    (summary.retry ??= []).push(file.path);
  } else if (result.kind === 'skipped') {
    writer.markSkipped(file, result.reason);
    summary.skipped++;
    if (prev && !prev.skipped) links.noteSetChanged();
  } else if (result.kind === 'unchanged') {
    writer.touchNote(file);
    summary.unchanged++;
  } else {
    const previousAliases = writer.writeNote(file, result.prepared, result.hash);
    links.linksWritten();
    // A rebuild for notes read again writes every note: one whose text and reading are as they were is unchanged, as a sync says.
    if (prev && !prev.skipped) summary[run.before && !prev.reread && prev.hash === result.hash ? 'unchanged' : 'updated']++;
    else {
      summary.added++;
      links.setChanged = true;
      links.key(basenameKey(file.path, run.cfg.extensions));
    }
    for (const a of [...result.prepared.note.aliases, ...previousAliases]) links.key(normalize(a));
  }
}

/** Reads and parses what changed (in worker threads for big batches) and writes it, one note at a time. */
async function loadAndWrite(run: SyncRun, opts: SyncOptions): Promise<void> {
  const { toLoad } = run.plan;
  const total = toLoad.length;
  if (total === 0) return; // a no-op sync never loads the markdown parser
  let done = 0;
  const progress = () => opts.onProgress?.(++done, total);
  const { parseOpts } = run;
  const { INDEX_JOB, loadForIndex } = await import('./prepared-load.js');
  if (total < PARALLEL_THRESHOLD || (opts.threads ?? 2) <= 1) {
    for (const file of toLoad) {
      const result = loadForIndex(file, parseOpts);
      run.links.write(() => apply(run, file, result));
      progress();
    }
    return;
  }
  const { runFileJob } = await import('../parse/pool.js');
  let pending: { file: VaultFile; result: PreparedLoad }[] = [];
  let idleCheck = false;
  // A write that fails in the idle check below runs outside the pool's callback: kept here and
  // thrown on the next result (or after the run), never left to become an uncaught exception.
  let failure: { err: unknown } | null = null;
  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length) run.links.write(() => batch.forEach((p) => apply(run, p.file, p.result)));
  };
  await runFileJob(
    INDEX_JOB,
    toLoad,
    parseOpts,
    (file, result) => {
      if (failure) throw failure.err;
      pending.push({ file, result });
      progress();
      if (pending.length >= WRITE_BATCH) flush();
      else if (!idleCheck) {
        // Runs once the results already waiting are taken in: if no more came, this thread would
        // only wait for the parsers (the whole first second of a build), so it writes what it has.
        idleCheck = true;
        setImmediate(() => {
          idleCheck = false;
          try {
            if (pending.length >= MIN_IDLE_WRITE && !failure) flush();
          } catch (err) {
            failure = { err };
          }
        });
      }
    },
    opts.threads,
  );
  if (failure) throw (failure as { err: unknown }).err;
  flush();
}

/** Forgets what is no longer listed, unless it was created again since the scan. */
function removeGone(run: SyncRun): void {
  const { writer, summary, links } = run;
  for (const path of run.plan.gone) {
    // Created again since the scan (an editor that deletes and rewrites): another writer has it or will.
    // Asked by the listing's own rules: a file there that they refuse (a symlink out of the vault, a second
    // path to a folder) is not a note, and the text indexed under its path must go.
    if (noteOnDisk(run, path)) continue;
    links.write(() => {
      if (writer.removePath(path)) {
        summary.removed++;
        links.linksWritten();
      }
    });
  }
}

/**
 * Resolves links (all on a rebuild), records the scan's warnings and attachments, gives back the vectors a
 * rebuild set aside, ends a bulk load.
 */
function finish(
  run: SyncRun,
  how: { rebuild: boolean; partial: boolean; scanWarnings: IndexWarning[]; attachments: { listed: string[]; gone: string[] } },
): void {
  const { writer, links } = run;
  writer.inTransaction(() => {
    // Pending work includes what a killed or concurrent sync left: resolving it converges on a clean build.
    const pending = writer.takePendingLinks();
    // Links an older tsm resolved since this tsm's last sync (note-reading.ts): all again, by a sync of the whole vault.
    const olderLinks = writer.linksResolvedByOlder();
    const all = how.rebuild || pending?.all || (olderLinks && !how.partial);
    if (all) writer.resolveLinks(null);
    else if (pending || links.setChanged || links.keys.size > 0) writer.resolveLinks(new Set([...links.keys, ...(pending?.keys ?? [])]));
    if (how.partial) writer.updateAttachments(how.attachments.listed, how.attachments.gone);
    else {
      writer.syncAttachments(how.attachments.listed);
      writer.recordReadingSettings(run.parseOpts);
      writer.pruneWarnings();
      // All of a path's at once: Periodic Notes' data.json can hold a wrong weekly and a wrong monthly format.
      const byPath = new Map<string, string[]>();
      for (const w of how.scanWarnings) byPath.set(w.path, [...(byPath.get(w.path) ?? []), w.message]);
      for (const [path, messages] of byPath) writer.replaceWarnings(path, messages);
    }
    // Days of notes dated by modification time, all in this run's zone (mtime-zone.ts): a run in another zone wrote some.
    writer.dateInThisZone();
    writer.markSynced(all || !olderLinks);
    writer.countWritten(run.summary.added + run.summary.updated + run.summary.removed);
  });
  // Vectors a rebuild set aside (or one killed before it got here), and those of removed notes, go back to
  // the sections whose input is unchanged, once every note is written, and the rest are dropped. A partial
  // run gives them only to the notes it wrote (a rename within a watcher's batch) and keeps the rest: it
  // would drop those of notes not yet rewritten.
  if (writer.hasCarriedVectors()) writer.inTransaction(() => (how.partial ? writer.carryVectorsToWritten() : writer.carryVectorsBack()));
  // This run's rebuild, or one that was stopped before it got here (note-writer.ts, mayEndBulkLoad).
  if (writer.bulkLoadUnfinished() && writer.mayEndBulkLoad(!how.partial)) writer.inTransaction(() => writer.finishBulkLoad());
}

/**
 * After a sync, once COMPACT_SHARE of the notes or more were written since the full-text indexes were last
 * one segment (by this sync or by many small ones: a watcher's): each merged into one segment again, in
 * short steps. A rebuild merged it already (finishBulkLoad); an unfinished one is left to the build that
 * finishes it. A sync with a deadline (a hook's) stops stepping at it and leaves the rest to the next sync.
 */
function mergeIfMuchWritten(run: SyncRun, rebuild: boolean, waitUntil: number | undefined): void {
  const { writer, summary } = run;
  if (rebuild || summary.added + summary.updated + summary.removed === 0 || writer.bulkLoadUnfinished()) return;
  if (writer.writtenSinceMerge() < COMPACT_SHARE * Math.max(1, writer.noteCount())) return;
  // Bounded: other writers' segments, written between the steps, are merged too, and are few.
  for (let step = 0; step < MAX_MERGE_STEPS; step++) {
    if (waitUntil !== undefined && Date.now() >= waitUntil) return;
    if (!writer.inTransaction(() => writer.mergeFullTextStep(MERGE_STEP_PAGES))) return;
  }
}

/** The file still has the size and time it had when this run listed it. */
function unchangedOnDisk(file: VaultFile): boolean {
  try {
    const st = statSync(file.absPath);
    return sameStat({ size: st.size, mtimeMs: Math.floor(st.mtimeMs), ctimeMs: Math.floor(st.ctimeMs) }, file);
  } catch {
    return false;
  }
}

/**
 * Size, mtime and ctime all as the index recorded them: the file is not read. ctime catches an edit that
 * keeps size and mtime (a tool that restores the mtime); a new ctime alone (chmod, a rename, a backup
 * tool's touch) costs one hash, never a parse. What remains: an edit that keeps all three, which only a
 * program setting the clock back can make; `tsm index --full` reads every file whatever its times say.
 */
function sameStat(known: { size: number; mtimeMs: number; ctimeMs: number }, file: VaultFile): boolean {
  return (
    known.size === file.size &&
    known.mtimeMs === Math.floor(file.mtimeMs) &&
    known.ctimeMs === Math.floor(file.ctimeMs ?? 0)
  );
}

function seen(files: VaultFile[], path: string): boolean {
  // files is sorted by path (scanVault sorts): binary search.
  let lo = 0;
  let hi = files.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = files[mid].path;
    if (p === path) return true;
    if (p < path) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * `--files-from-stdin` and the watcher: stat just these paths, by the rules a full scan applies
 * (src/vault/note-at.ts): the same vault-relative form, extensions, skipped folders, symlink policy, one
 * path per folder. A listed
 * path that names no note and no indexed note is not taken, with the reason (the CLI reports them); one
 * that names an indexed note that is gone or now ignored is missing (removed from the index). A path that
 * names an attachment the full scan would list, or one the index lists that is gone, is an attachment
 * (`git diff --name-only` lists the image pasted beside a note: it was "not a note", and a link to it
 * stayed unresolved until the next full `tsm index`).
 */
function statPaths(
  cfg: TsmConfig,
  paths: string[],
  bases: string[],
  states: Map<string, FileState>,
  writer: NoteWriter,
): { files: VaultFile[]; missing: string[]; notTaken: NotTaken[]; attachmentsNow: AttachmentsNow } {
  const files: VaultFile[] = [];
  const missing: string[] = [];
  const notTaken: NotTaken[] = [];
  const attachments: AttachmentsNow = { listed: [], gone: [] };
  const noteAt = createNoteLookup(cfg.vault, cfg.extensions);
  const attachmentAt = createAttachmentLookup(cfg.vault, cfg.extensions);
  // Read once, and only when a listed path is no note.
  let listed: Set<string> | undefined;
  const indexed = (rel: string) => states.has(rel) || (listed ??= writer.attachmentPaths()).has(rel);
  const seen = new Set<string>();
  for (const given of paths) {
    const abs = locate(cfg.vault, given, bases, indexed);
    const rel = vaultRelative(cfg.vault, abs);
    if (rel === null) {
      // The vault's own folder (`.`, as `find .` lists first) is in it, not "outside the vault".
      notTaken.push({ path: given, reason: resolve(abs) === resolve(cfg.vault) ? A_FOLDER : 'outside the vault' });
      continue;
    }
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (!isNoteName(name, cfg.extensions)) {
      const now = attachmentAt(rel);
      if (now === 'present') attachments.listed.push(rel);
      else if (now === 'gone' && indexed(rel)) attachments.gone.push(rel);
      else if (isFolderAt(cfg.vault, rel)) notTaken.push({ path: given, reason: A_FOLDER });
      else notTaken.push({ path: given, reason: name.startsWith('.') ? 'hidden (a name starting with "."): not a note' : `not a note (${cfg.extensions.join(', ')})` });
      continue;
    }
    const found = noteAt(rel);
    // A note listed twice (`./a.md` and `a.md`, an absolute path and a relative one, two git commands' output
    // concatenated) is one note: it was read and written once per listing, and counted so ("2 added").
    if (found.file) {
      if (!seen.has(found.file.path)) files.push(found.file);
      seen.add(found.file.path);
    } else if (states.has(rel)) missing.push(rel); // ignored, refused or gone now: forget it
    else notTaken.push({ path: given, reason: found.reason });
  }
  return { files, missing: [...new Set(missing)], notTaken, attachmentsNow: attachments };
}

/** Attachments a partial sync found there (`listed`) and gone (`gone`). */
interface AttachmentsNow {
  listed: string[];
  gone: string[];
}

const NO_ATTACHMENTS: AttachmentsNow = Object.freeze({ listed: [], gone: [] }) as AttachmentsNow;

const withAttachments = (a: AttachmentsNow, b: AttachmentsNow): AttachmentsNow =>
  b.listed.length + b.gone.length === 0 ? a : { listed: [...a.listed, ...b.listed], gone: [...a.gone, ...b.gone] };

/**
 * The attachments of a partial sync's list as they are now: those that are there, those that are gone (a
 * path the full scan would not list as one). One it cannot tell (below a symlinked folder) waits for the
 * next full scan.
 */
function attachmentsNow(cfg: TsmConfig, paths: string[]): AttachmentsNow {
  const listed: string[] = [];
  const gone: string[] = [];
  if (paths.length === 0) return NO_ATTACHMENTS;
  const at = createAttachmentLookup(cfg.vault, cfg.extensions);
  for (const rel of paths) {
    const now = at(rel);
    if (now === 'present') listed.push(rel);
    else if (now === 'gone') gone.push(rel);
  }
  return { listed, gone };
}

/**
 * Where a listed path lies: an absolute path as it is; a relative one from the vault root, else from each
 * of `bases` in turn, the first under which it names something on disk or a note the index holds (a
 * deleted note is still listed by `git diff --name-only`). Named nowhere: from the vault root.
 */
function locate(vault: string, given: string, bases: string[], indexed: (rel: string) => boolean): string {
  const trimmed = given.trim();
  // A name may start with a space (` draft.md`); a line padded by hand (an indented list) names nothing so,
  // and is read trimmed, as every line was.
  if (trimmed !== given) return locateAs(vault, given, bases, indexed) ?? locate(vault, trimmed, bases, indexed);
  return isAbsolute(given) ? given : (locateAs(vault, given, bases, indexed) ?? resolve(vault, given));
}

/** The first of the vault root and `bases` under which `given` names something (locate), or undefined. */
function locateAs(vault: string, given: string, bases: string[], indexed: (rel: string) => boolean): string | undefined {
  const candidates = isAbsolute(given) ? [given] : [vault, ...bases].map((base) => resolve(base, given));
  return candidates.find((abs) => {
    const rel = vaultRelative(vault, abs);
    return rel === null ? existsNoFollow(abs) : findOnDisk(vault, rel) !== null || indexed(rel);
  });
}

/** A `tsm watch` of this vault other than this process (which writes the index with its own tsm's code), as a reason; or null. */
function otherWatcher(cfg: TsmConfig): string | null {
  const pid = otherRunningWatcher(tsmDir(cfg));
  return pid !== null ? `\`tsm watch\` (pid ${pid}) writes to it` : null;
}

/** A retrain due, or sections without a vector: work for the model that a sync with nothing to write still does. */
function semanticWorkLeft(db: Database): boolean {
  const status = semanticStatus(db);
  return status.retrainDue || (status.state?.kind === 'trained' && status.unembedded > 0);
}
