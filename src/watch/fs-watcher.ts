// The chokidar side of `tsm watch`: native file-system events, and polling when the OS runs out of
// watch handles (or when asked for, e.g. on network drives where native events never arrive).
import { accessSync, constants, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { FSWatcher } from 'chokidar';
import { basename, join, resolve as resolvePath } from 'node:path';
import { fileKind } from '../vault/file-kind.js';
import { isAttachmentName } from '../vault/scan.js';
import { createIgnoredTest, watchFailureKind, type WatchEventName } from './classify.js';
import { createLoopTest, linkTarget } from './symlink-loop.js';

/** How often polling stats each note. Slower than chokidar's 100 ms default: a vault holds thousands of files. */
export const POLL_INTERVAL_MS = 1000;

export interface FsWatcherOptions {
  vault: string;
  extensions: string[];
  /** Start with polling instead of native events. */
  poll: boolean;
  onEvent(event: WatchEventName, absPath: string): void;
  /** Native watching failed for lack of handles; polling starts next. */
  onFallback(err: Error): void;
  /** Polling is running after a fallback: events may have been missed meanwhile. */
  onResumed(): void;
  /**
   * A folder or note this user may not read (EACCES, EPERM), so not watched: told once per path, until it is
   * readable again (readableAgain). Without it, such errors go to onError.
   */
  onUnreadable?(absPath: string): void;
  /** Any other watcher error: worth telling, not worth stopping for. */
  onError(err: Error): void;
}

const EVENTS = new Set<string>(['add', 'change', 'unlink', 'addDir', 'unlinkDir']);

/**
 * How many events the kernel keeps for a process before it drops the rest: inotify's
 * fs.inotify.max_queued_events (16,384 by default). Elsewhere that default stands in.
 */
export function kernelEventQueue(): number {
  try {
    const n = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : 16_384;
  } catch {
    return 16_384;
  }
}

/**
 * Whether an EMFILE from watching is the user's inotify instances used up, not this process's file
 * descriptors: on Linux all of a process's watches share one inotify instance (one descriptor), made at its
 * first watch, and inotify_init1 gives EMFILE for either. Measured: at `ulimit -n 48` tsm watch watched
 * 3,000 notes in 100 folders natively; with the user's instances at 0 (fs.inotify.max_user_instances is 128,
 * and every editor and watcher holds some) it said to raise `ulimit -n`, which changes nothing. Asked as
 * the error comes: a process out of descriptors then holds nearly its limit, and cannot even list them.
 */
export function inotifyInstancesOut(err: unknown): boolean {
  if (process.platform !== 'linux' || (err as NodeJS.ErrnoException | undefined)?.code !== 'EMFILE') return false;
  try {
    const open = readdirSync('/proc/self/fd').length;
    const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
    return Number.isInteger(limit) && open < limit / 2;
  } catch {
    return false;
  }
}

export class VaultFsWatcher {
  private current: FSWatcher | null = null;
  private switching: Promise<void> | null = null;
  private closed = false;
  private pollingNow = false;
  /** Watched paths that native events said were removed or moved themselves, since the last renewIfStale. */
  private selfRemoved = new Set<string>();
  /** Native events received in this turn of the event loop, and the most in one turn since takeLargestBurst. */
  private turnEvents = 0;
  private largestBurst = 0;

  private constructor(private readonly opts: FsWatcherOptions) {}

  /** Resolves once the vault is being watched (after a fallback to polling, when one was needed). */
  static async start(opts: FsWatcherOptions): Promise<VaultFsWatcher> {
    const watcher = new VaultFsWatcher(opts);
    await watcher.open(opts.poll);
    return watcher;
  }

  get polling(): boolean {
    return this.pollingNow;
  }

  /**
   * The most native events (of every watch, named or not) received in one turn of the event loop since the
   * last call: what the kernel held queued at once. Node reads the whole inotify queue in one go, each event
   * a synchronous callback, so a queue that overflowed arrives as one turn of at least its size. Counted by
   * turn, not in total: a log appended to steadily (10,000 writes in 12 s) arrives a few events a turn, and
   * counted in total until the next batch it made a rescan that nothing called for.
   */
  takeLargestBurst(): number {
    const n = Math.max(this.largestBurst, this.turnEvents);
    this.largestBurst = 0;
    return n;
  }

  private countNativeEvent(): void {
    if (this.turnEvents++ > 0) return;
    setImmediate(() => {
      this.largestBurst = Math.max(this.largestBurst, this.turnEvents);
      this.turnEvents = 0;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.switching;
    await this.current?.close();
    this.current = null;
  }

  /**
   * Replaces the native watcher when it may have lost folders, and says so (true: changes made meanwhile are
   * unseen, so the caller rescans). chokidar keys its native watches by path (its handler.js FsWatchInstances):
   * a folder deleted and made again before the watcher handled the deletion (`git checkout` or a rebase while
   * the watcher is busy with a batch: measured, a watcher stopped for that moment lost it every time) keeps the
   * deleted folder's watch, and nothing below the new folder is reported again (paulmillr/chokidar#917, #1059).
   * chokidar reports no removal then, only changes. The sign is a watched folder that inotify said went away
   * and is a folder again. A fresh watcher costs its walk of the vault: with the rescan that follows, 0.9–1.3 s
   * of CPU on the handbook (4,560 notes, 1,633 folders; a note deleted costs 0.08 s). A note deleted, moved
   * or saved (atomically too: a file, not a folder) and a folder deleted or moved never pay it. Polling stats
   * by path, so it sees a folder made again.
   */
  async renewIfStale(): Promise<boolean> {
    const gone = [...this.selfRemoved];
    this.selfRemoved.clear();
    if (this.closed || this.pollingNow || this.current === null) return false;
    if (!gone.some((path) => fileKind(path, { lstat: true }) === 'directory')) return false;
    return this.renew();
  }

  /**
   * Folders and notes whose watch failed for want of permission (`chmod 000`, `mkdir -m 000`), by absolute
   * path. chokidar counts them as watched all the same, with no watch on them, and nothing makes it look
   * again: made readable, a folder's notes stayed out of the index and their edits unseen until a restart
   * (its parent's watch reports the mode change, which chokidar takes for a folder it already has).
   */
  private readonly unreadable = new Set<string>();

  /**
   * The paths of `unreadable` this user can read now (a folder: list and enter), taken out of it; gone ones
   * are dropped. Asked every second by the caller, one access() per path, nothing when all were readable.
   * Any of them makes a `renew` (and a rescan) due.
   */
  readableAgain(): string[] {
    const now: string[] = [];
    for (const path of this.unreadable) {
      const kind = fileKind(path);
      if (kind === 'absent') this.unreadable.delete(path);
      else if (readable(path, kind === 'directory')) {
        this.unreadable.delete(path);
        now.push(path);
      }
    }
    return now;
  }

  /** Told once per path: every renewal walks the vault again and meets a folder that stays unreadable again. */
  private markUnreadable(path: string): void {
    const abs = resolvePath(this.opts.vault, path);
    if (this.unreadable.has(abs)) return;
    this.unreadable.add(abs);
    this.opts.onUnreadable?.(abs);
  }

  /**
   * The symlinked folders the current watcher entered, and the real path each led to then. chokidar follows
   * a symlink once and never looks at it again (node_modules/chokidar/handler.js `_handleSymlink`: "don't
   * follow the same symlink more than once"): after `ln -sfn /elsewhere/b vault/notes` its watches stayed on
   * the old target, whose notes stayed in the index, and of the new target's only those named differently at
   * the link's own level came in (none under --poll), their edits unseen. Filled as the walk enters folders:
   * one lstat per folder, beside the loop test's realpath.
   */
  private linkedFolders = new Map<string, string | null>();
  /**
   * The linkedFolders entered since the last relinked() or the walk that started the watcher: none of them was
   * there when it last looked.
   */
  private linkedSinceLook = new Set<string>();

  /**
   * The symlinked folders (linkedFolders) that lead elsewhere now, or are no symlink any more (a folder
   * renamed over one, one removed), taken as they are now. Asked every second by the caller: an lstat and a
   * realpath per such link, nothing in a vault without any. Any of them makes a `renew` (and a rescan) due.
   * One that came and went between two looks (nothing at its path now) changed nothing there is to see:
   * `ln -sfn b notes` makes its link under a random name beside `notes` and renames it over, and when the
   * watcher entered that name in between, the rescan line said `symlinked folder changed: notes, CuODd4YJ`.
   */
  relinked(): string[] {
    const now: string[] = [];
    for (const [abs, was] of this.linkedFolders) {
      const to = linkTarget(abs);
      if (to === was) continue;
      if (to === undefined) this.linkedFolders.delete(abs);
      else this.linkedFolders.set(abs, to);
      if (!this.linkedSinceLook.has(abs) || fileKind(abs, { lstat: true }) !== 'absent') now.push(abs);
    }
    this.linkedSinceLook.clear();
    return now;
  }

  /**
   * A fresh watcher in place of the current one (native or polling, as it is): it walks the vault and
   * watches what is there now. True when it replaced one; changes made meanwhile are unseen, so the caller
   * rescans after it.
   */
  async renew(): Promise<boolean> {
    const old = this.current;
    if (this.closed || old === null) return false;
    this.current = null;
    // Closed before the new one opens: a new watcher would join the old one's watches of the same paths.
    this.switching = old.close().then(() => (this.closed ? undefined : this.open(this.pollingNow)));
    await this.switching;
    return !this.closed;
  }

  /** The status time last reported for a file by statusOnlyNativeChange, so that it reports each one once. */
  private readonly statusSeen = new Map<string, number>();

  /**
   * An edit that keeps a note's size and sets its mtime back or keeps it (`cp -p`, `touch -m -r`, rsync -a, a
   * restore) where chokidar's native handler reports nothing: it drops a 'change' whose file was read after
   * its last write (atime past mtime) unless the mtime moved (node_modules/chokidar/handler.js
   * `_handleFile`), and tsm's own read of the note puts its atime past the mtime. Such an edit leaves the
   * status time (ctime) past the mtime, which a plain save does not (both are the write's time), so that is
   * the sign, reported once per ctime; the sync then compares size, mtime and ctime with the index and
   * reads the file only if they differ. Costs one stat per native 'change' of a watched file.
   */
  private statusOnlyNativeChange(path: string): boolean {
    let st: Stats;
    try {
      st = statSync(path);
    } catch {
      return false;
    }
    if (!st.isFile() || !(st.atimeMs > st.mtimeMs) || !(st.ctimeMs > st.mtimeMs + 1)) return false;
    if (this.statusSeen.get(path) === st.ctimeMs) return false;
    this.statusSeen.set(path, st.ctimeMs);
    return true;
  }

  private async open(poll: boolean): Promise<void> {
    const { watch } = await import('chokidar');
    if (this.closed) return;
    // This watcher's own: a closed one's late calls never write into its successor's.
    const links = new Map<string, string | null>();
    const since = new Set<string>();
    this.linkedFolders = links;
    this.linkedSinceLook = since;
    const isLoop = createLoopTest(this.opts.vault);
    const enters = (abs: string) => {
      if (!links.has(abs)) {
        const to = linkTarget(abs);
        if (to !== undefined) {
          links.set(abs, to);
          since.add(abs);
        }
      }
      return isLoop(abs);
    };
    const w = watch(this.opts.vault, {
      ignoreInitial: true,
      persistent: true,
      followSymlinks: true,
      usePolling: poll,
      interval: POLL_INTERVAL_MS,
      binaryInterval: POLL_INTERVAL_MS,
      ignored: createIgnoredTest(this.opts.vault, this.opts.extensions, enters),
    });
    this.current = w;
    this.pollingNow = poll;
    let failedOver = false;
    await new Promise<void>((resolve) => {
      w.on('ready', resolve);
      w.on('all', (event, path) => {
        if (this.current !== w || this.closed || !EVENTS.has(event)) return;
        // chokidar says a folder (or note) went when it could no longer list it: under --poll that is its only
        // word of a `chmod 000`, and its poller never reports the mode given back (no new mtime).
        // Only what can be looked at (stat'ed) is told: not the notes inside such a folder.
        if ((event === 'unlinkDir' || event === 'unlink') && this.opts.onUnreadable) {
          const folder = statKind(path);
          if (folder !== null && !readable(path, folder)) this.markUnreadable(path);
        }
        this.opts.onEvent(event as WatchEventName, path);
      });
      if (!poll) {
        // inotify's word that a watched path itself went (IN_DELETE_SELF, IN_MOVE_SELF): its own name, on its own watch.
        w.on('raw', (event, name, details) => {
          if (this.current === w) this.countNativeEvent();
          const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
          if (this.current === w && event === 'rename' && watched !== undefined && name === basename(watched)) this.selfRemoved.add(watched);
          else if (this.current === w && !this.closed && event === 'change' && watched !== undefined && name === basename(watched)) {
            if (this.statusOnlyNativeChange(watched)) this.opts.onEvent('change', watched);
          }
          // A name in a watched folder that came or went. Files that are no notes are not watched (one inotify
          // watch each), so this is the only word of an attachment added, moved or deleted: without it, a link
          // to an image pasted into the vault stayed unresolved for `tsm related` and `tsm doctor` (which said
          // "add that file to the vault") until the next rescan. Polling has no such word: its next rescan.
          // Dot-named files are no attachments (vault/paths.ts isEditorLeftover): editors' temporary files
          // (`.note.md.tmp-123`, vim's `.note.md.swp`, Emacs's `.#note.md`) come and go at every save.
          else if (this.current === w && !this.closed && event === 'rename' && watched !== undefined && typeof name === 'string') {
            if (isAttachmentName(name, this.opts.extensions)) this.opts.onEvent('entry', join(watched, name));
          }
        });
      } else {
        w.on('raw', (event, path, details) => {
          if (this.current === w && !this.closed && event === 'change' && statusOnlyChange(details)) this.opts.onEvent('change', path);
        });
      }
      w.on('error', (raw) => {
        const err = raw instanceof Error ? raw : new Error(String(raw));
        if (failedOver) return; // the rest of the burst from a watcher that is being replaced
        if (!poll && watchFailureKind(err) === 'handles') {
          failedOver = true;
          this.switching = this.failOver(w, err);
          resolve(); // stop waiting for this watcher; start() waits for the polling one below
        } else if (watchFailureKind(err) === 'permission' && typeof (err as NodeJS.ErrnoException).path === 'string' && this.opts.onUnreadable) {
          this.markUnreadable((err as NodeJS.ErrnoException).path as string);
        } else {
          this.opts.onError(err);
        }
      });
    });
    if (failedOver) await this.switching;
    // The walk was this watcher's first look: a link it entered and that goes is a removal.
    since.clear();
  }

  private async failOver(old: FSWatcher, err: Error): Promise<void> {
    this.opts.onFallback(err);
    this.current = null;
    try {
      await old.close();
      if (this.closed) return;
      await this.open(true);
      if (!this.closed) this.opts.onResumed();
    } catch (failure) {
      this.opts.onError(failure instanceof Error ? failure : new Error(String(failure)));
    }
  }
}

/** Whether `path` is a folder (true) or something else (false), or null when it cannot be stat'ed. */
function statKind(path: string): boolean | null {
  try {
    return statSync(path).isDirectory();
  } catch {
    return null;
  }
}

/** Whether this user may read `path` (a folder: list it and enter it), as a watch and a walk of it need. */
function readable(path: string, folder: boolean): boolean {
  try {
    accessSync(path, folder ? constants.R_OK | constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A poll that saw a file's status change (ctime) where chokidar's poller reports nothing: it reports a
 * change only for a new size or an mtime that moved forward (node_modules/chokidar/handler.js), so an edit
 * that keeps the size and sets the mtime back or keeps it (rsync -a, cp -p, a restore from a backup) went
 * unseen under `--poll`, while native events and `tsm index` see it by its ctime. Node's poller already
 * compares ctime (libuv's uv_fs_poll) and hands both stats to chokidar's 'raw' event: no stat is added.
 */
function statusOnlyChange(details: unknown): boolean {
  const { curr, prev } = (details ?? {}) as { curr?: Stats; prev?: Stats };
  if (!curr || !prev || curr.mtimeMs === 0) return false; // not a poll's stats, or the file is gone
  const chokidarReports = curr.size !== prev.size || curr.mtimeMs > prev.mtimeMs;
  return !chokidarReports && curr.ctimeMs !== prev.ctimeMs && curr.isFile();
}
