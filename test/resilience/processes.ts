// Real `tsm` processes for the resilience suite: run one and SIGKILL it after a delay, or keep a loop of
// them going for a while and collect every outcome.
import { spawn, spawnSync } from 'node:child_process';
import { assertBuilt, cleanEnv, TSM, tsmAsync, type RunOptions, type RunResult } from '../helpers/cli.js';

export interface KillOutcome {
  /** True when the process was still running when SIGKILL was sent. */
  killed: boolean;
  code: number | null;
  stderr: string;
  /** Milliseconds from spawn to the kill (or to the exit, when it finished first). */
  ms: number;
}

/** Starts `tsm args` and sends SIGKILL after `delayMs` (unless it has ended by then). */
export function runAndKill(args: string[], delayMs: number, opts: { env?: Record<string, string> } = {}): Promise<KillOutcome> {
  assertBuilt();
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [TSM, ...args], { env: cleanEnv(opts.env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let killedAt: number | null = null;
    let exited = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      if (exited) return;
      killedAt = performance.now();
      child.kill('SIGKILL');
    }, delayMs);
    child.on('exit', () => (exited = true));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const killed = killedAt !== null && signal === 'SIGKILL';
      resolve({ killed, code, stderr, ms: Math.round((killed ? (killedAt as number) : performance.now()) - started) });
    });
  });
}

/**
 * Starts `tsm args` and sends SIGKILL as soon as `ready()` says so (polled every `pollMs`), or after
 * `timeoutMs`. For kills at a precise stage, e.g. once the first note of an update has been written.
 */
export function runAndKillWhen(args: string[], ready: () => boolean, opts: { pollMs?: number; timeoutMs?: number } = {}): Promise<KillOutcome> {
  assertBuilt();
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [TSM, ...args], { env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let killedAt: number | null = null;
    let exited = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const poll = setInterval(() => {
      if (exited || killedAt !== null) return;
      if (ready() || performance.now() - started > (opts.timeoutMs ?? 30_000)) {
        killedAt = performance.now();
        child.kill('SIGKILL');
      }
    }, opts.pollMs ?? 10);
    child.on('exit', () => (exited = true));
    child.on('close', (code, signal) => {
      clearInterval(poll);
      const killed = killedAt !== null && signal === 'SIGKILL';
      resolve({ killed, code, stderr, ms: Math.round((killed ? (killedAt as number) : performance.now()) - started) });
    });
  });
}

export interface LoopStats {
  runs: number;
  failures: { args: string[]; result: RunResult }[];
  results: RunResult[];
}

/**
 * Runs `next()`'s command again and again (one at a time) until `until()` says stop, keeping every
 * result whose `ok` check fails.
 */
export async function loop(
  next: (i: number) => { args: string[]; opts?: RunOptions },
  ok: (r: RunResult) => boolean,
  until: () => boolean,
): Promise<LoopStats> {
  const stats: LoopStats = { runs: 0, failures: [], results: [] };
  for (let i = 0; !until(); i++) {
    const { args, opts } = next(i);
    const r = await tsmAsync(args, opts);
    stats.runs++;
    stats.results.push(r);
    if (!ok(r)) stats.failures.push({ args, result: r });
  }
  return stats;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface RunAsOptions {
  env?: Record<string, string>;
  input?: string;
  /** Run as this user (needs root): permission checks do not apply to root. */
  user?: { uid: number; gid: number };
  /** A shell line that ends by running the command given as "$@" (e.g. `ulimit -f 64; exec "$@"`). */
  shell?: string;
}

/** Runs the built `tsm` synchronously, optionally as another user or under a shell wrapper. */
export function runTsm(args: string[], opts: RunAsOptions = {}): RunResult {
  assertBuilt();
  const command = [process.execPath, TSM, ...args];
  const [file, ...rest] = opts.shell ? ['bash', '-c', opts.shell, 'tsm-wrapper', ...command] : command;
  const r = spawnSync(file, rest, {
    env: cleanEnv(opts.env),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
    uid: opts.user?.uid,
    gid: opts.user?.gid,
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export interface Watcher {
  stderr(): string;
  /** Resolves once `tsm watch` has printed its "watching" line (rejects if it ends first). */
  ready: Promise<void>;
  /** Sends a signal and resolves once the process has ended, with its exit code (null when killed). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts `tsm watch --vault dir` as a real process. */
export function startWatcher(dir: string, extraArgs: string[] = [], opts: { env?: Record<string, string> } = {}): Watcher {
  assertBuilt();
  const child = spawn(process.execPath, [TSM, 'watch', '--vault', dir, ...extraArgs], {
    env: cleanEnv(opts.env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (/tsm watch: watching /.test(err)) resolve();
    });
    void exited.then((code) => reject(new Error(`tsm watch ended (exit ${code}) before it was ready:\n${err}`)));
  });
  ready.catch(() => undefined); // a caller that never waits for readiness must not see an unhandled rejection
  return {
    stderr: () => err,
    ready,
    exited,
    stop: async (signal) => {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}
