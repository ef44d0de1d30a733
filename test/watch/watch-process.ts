import { afterEach } from 'vitest';
// Runs the built `tsm watch` as a real process on a temporary vault, and asks the index questions
// through `tsm search` / `tsm related` processes, the way a user (or a hook) would.
import { spawn, type ChildProcess } from 'node:child_process';
import { assertBuilt, cleanEnv, makeVault, tsm, tsmAsync, TSM, waitFor } from '../helpers/cli.js';

export interface WatchProcess {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code when the process ends by itself. */
  exited: Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Starts `tsm watch` (optionally through a wrapper command) and waits for its `watching` line. */
export async function startWatch(
  vault: string,
  extraArgs: string[] = [],
  opts: { wrapper?: string[]; readyTimeoutMs?: number; waitReady?: boolean } = {},
): Promise<WatchProcess> {
  assertBuilt();
  const args = [process.execPath, TSM, 'watch', '--vault', vault, ...extraArgs];
  const [cmd, ...rest] = opts.wrapper ? [...opts.wrapper, ...args] : args;
  const child = spawn(cmd, rest, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const proc: WatchProcess = {
    child,
    stderr: () => err,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
  if (opts.waitReady !== false) {
    await waitFor(() => {
      if (ended) throw new Error(`tsm watch ended before it was ready:\n${err}`);
      return /tsm watch: watching /.test(err);
    }, opts.readyTimeoutMs ?? 30_000);
  }
  return proc;
}

/** Kills every watcher a test left running (by its own pid). */
export async function killWatchers(): Promise<void> {
  const left = [...running];
  for (const child of left) child.kill('SIGKILL');
  await Promise.all(left.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.on('close', r)))));
}

/** The vault paths `tsm search` returns for a query (all sections, up to 2000). */
export async function searchPaths(vault: string, query: string, extra: string[] = []): Promise<string[]> {
  const r = await tsmAsync(['search', '--vault', vault, '-f', 'json', '-n', '2000', ...extra, query]);
  if (r.code !== 0) throw new Error(`tsm search failed (${r.code}): ${r.stderr}`);
  const hits = JSON.parse(r.stdout) as { path: string }[];
  return [...new Set(hits.map((h) => h.path))].sort();
}

/** Waits until a search for `query` returns exactly `paths`. */
export async function waitForSearch(vault: string, query: string, paths: string[], timeoutMs = 15_000): Promise<void> {
  let last: string[] = [];
  try {
    await waitFor(async () => {
      last = await searchPaths(vault, query);
      return JSON.stringify(last) === JSON.stringify([...paths].sort());
    }, timeoutMs);
  } catch (err) {
    // A search that failed ends the wait at once: its error is the one to tell, not "gave 0 paths".
    const failed = err instanceof Error && err.message.startsWith('tsm search failed') ? `; ${err.message.trim()}` : '';
    throw new Error(`search "${query}" ${describeDifference(last, paths)}${failed}`);
  }
}

/** Waits until `read()` gives `want` (compared as JSON); the error shows the last value seen. */
export async function waitForValue<T>(read: () => T | Promise<T>, want: T, timeoutMs = 15_000): Promise<void> {
  let last: T | undefined;
  try {
    await waitFor(async () => {
      last = await read();
      return JSON.stringify(last) === JSON.stringify(want);
    }, timeoutMs);
  } catch {
    throw new Error(`wanted ${JSON.stringify(want)}, last saw ${JSON.stringify(last)}`);
  }
}

function describeDifference(got: string[], wanted: string[]): string {
  const missing = wanted.filter((p) => !got.includes(p));
  const extra = got.filter((p) => !wanted.includes(p));
  const some = (list: string[]) => JSON.stringify(list.slice(0, 5)) + (list.length > 5 ? ` (+${list.length - 5} more)` : '');
  return `gave ${got.length} paths, wanted ${wanted.length}; missing ${some(missing)}, unexpected ${some(extra)}`;
}

/** Notes in the index, from `tsm status --json`. */
export function noteCount(vault: string): number {
  const r = tsm(['status', '--vault', vault, '--json']);
  if (r.code !== 0) throw new Error(`tsm status failed (${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { notes: number }).notes;
}

/** What `tsm index` still finds to do: nothing, when the watcher has kept the index in step. */
export function indexChanges(vault: string): { added: number; updated: number; removed: number } {
  const r = tsm(['index', '--vault', vault, '--json']);
  if (r.code !== 0) throw new Error(`tsm index failed (${r.code}): ${r.stderr}`);
  const s = JSON.parse(r.stdout) as { added: number; updated: number; removed: number };
  return { added: s.added, updated: s.updated, removed: s.removed };
}

export function relatedJson(vault: string, note: string): {
  path: string;
  outgoing: { targetPath: string | null; attachmentPath: string | null; target: string }[];
  backlinks: { sourcePath: string }[];
} {
  const r = tsm(['related', '--vault', vault, '--json', note]);
  if (r.code !== 0) throw new Error(`tsm related failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A vault with a `.tsm/` folder, so nothing is looked up above it. */
/**
 * For a test file: after each test every watcher is stopped, the vaults made by `vault` are removed and
 * whatever was handed to `later` runs.
 */
export function useWatchVaults(): { vault: (files?: Record<string, string>) => string; later: (fn: () => void) => void } {
  let cleanups: (() => void)[] = [];
  afterEach(async () => {
    await killWatchers();
    for (const c of cleanups) c();
    cleanups = [];
  });
  return {
    vault: (files = {}) => {
      const v = makeWatchVault(files);
      cleanups.push(v.cleanup);
      return v.dir;
    },
    later: (fn) => cleanups.push(fn),
  };
}

export function makeWatchVault(files: Record<string, string> = {}): { dir: string; cleanup: () => void } {
  return makeVault({ '.tsm/.keep': '', ...files });
}

/** A unique search token per call, so tests never match each other's notes. */
let counter = 0;
export function token(label: string): string {
  counter++;
  return `${label}${counter}x${Math.random().toString(36).slice(2, 8)}`;
}
