// Running a per-file job on every core: batches of files go to worker_threads, whose entry script serves
// the same job (serveFileJob); results come back to the calling thread. Without a built worker (code
// running from TypeScript sources, as under vitest) or when workers fail, the job runs on the calling
// thread instead.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { VaultFile } from '../core/types.js';
import type { ParseOptions } from './options.js';
import type { BatchRequest, BatchResponse } from './batch.js';

/** What each file becomes. Must never throw: a file that fails is a result saying so. */
export type FileWork<R> = (file: VaultFile, opts: ParseOptions) => R;

export interface FileJob<R> {
  /** The bundled worker entry serving `run` (with serveFileJob), a file name next to this module in dist/. */
  workerScript: string;
  run: FileWork<R>;
}

export type OnResult<R> = (file: VaultFile, result: R) => void;

/** Files per message: enough to keep postMessage overhead low, few enough to balance the threads. */
const BATCH_SIZE = 32;
/**
 * Batches queued at each worker. The thread that receives results also writes the index, and a write
 * transaction (sync.ts: 500 notes) blocks it for about a second: each worker holds enough work not to idle
 * waiting for the next batch (2 in flight left the parser idle ~40% of a build). Every batch a worker is
 * ahead waits parsed in memory until the writer takes it, so more costs memory and buys no speed: a full
 * handbook build (4,560 notes, one parser) took 12.1 s with 32 and with 8 (six interleaved runs each), and
 * its parse-phase peak RSS was 257–422 MB with 32 (ten runs, three above 360; at 422 the whole build
 * crossed its 400 MB bound) against 269–322 with 8 (six runs).
 */
const IN_FLIGHT = 8;
const MAX_DEFAULT_THREADS = 4;

export async function runFileJob<R>(
  job: FileJob<R>,
  files: VaultFile[],
  opts: ParseOptions,
  onResult: OnResult<R>,
  threads?: number,
): Promise<void> {
  return runFileJobWithWorker(findWorkerScript(job.workerScript), job.run, files, opts, onResult, threads);
}

/**
 * A bundled worker entry next to the running bundle. With code splitting this module may sit in
 * dist/chunks/, so the folder above is tried as well.
 */
export function findWorkerScript(name: string): URL | null {
  for (const candidate of [`./${name}`, `../${name}`]) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

/** In a worker entry: answers each batch the pool sends with `run` of its files. */
export function serveFileJob<R>(run: FileWork<R>): void {
  if (!parentPort) return;
  const port = parentPort;
  const opts = (workerData as { opts: ParseOptions }).opts;
  port.on('message', (req: BatchRequest) => {
    const response: BatchResponse<R> = { batch: req.batch, results: req.files.map((f) => run(f, opts)) };
    port.postMessage(response);
  });
}

/** runFileJob with an explicit worker script (null: run on the calling thread). */
export async function runFileJobWithWorker<R>(
  workerUrl: URL | null,
  run: FileWork<R>,
  files: VaultFile[],
  opts: ParseOptions,
  onResult: OnResult<R>,
  threads?: number,
): Promise<void> {
  const batches: VaultFile[][] = [];
  for (let i = 0; i < files.length; i += BATCH_SIZE) batches.push(files.slice(i, i + BATCH_SIZE));
  // One core stays with the calling thread, which writes the index (the slower half of a full build):
  // on two cores, two parsers beside the writer only take turns (measured: 12.2 s with one, 12.8–15 s with two).
  const wanted =
    threads !== undefined && Number.isFinite(threads)
      ? Math.floor(threads)
      : Math.max(1, Math.min(availableParallelism() - 1, MAX_DEFAULT_THREADS));
  const count = Math.min(Math.max(0, wanted), batches.length);
  if (workerUrl === null || count === 0) {
    await runInThread(batches, run, opts, onResult);
    return;
  }
  await new WorkerPool(workerUrl, count, run, opts, onResult).run(batches);
}

async function runInThread<R>(batches: VaultFile[][], run: FileWork<R>, opts: ParseOptions, onResult: OnResult<R>): Promise<void> {
  for (const batch of batches) {
    for (const file of batch) onResult(file, run(file, opts));
    // Let timers and I/O callbacks run between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

class WorkerPool<R> {
  private readonly workers: Worker[] = [];
  private readonly inFlight = new Map<Worker, number[]>();
  private queue: number[] = [];
  private batches: VaultFile[][] = [];
  private remaining = 0;
  private settled = false;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;

  constructor(
    private readonly url: URL,
    private readonly count: number,
    private readonly work: FileWork<R>,
    private readonly opts: ParseOptions,
    private readonly onResult: OnResult<R>,
  ) {}

  run(batches: VaultFile[][]): Promise<void> {
    this.batches = batches;
    this.queue = batches.map((_, i) => i);
    this.remaining = batches.length;
    const done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    for (let i = 0; i < this.count; i++) this.start();
    // Deal the first batches round-robin, so a short run still spreads over every worker.
    for (let round = 0; round < IN_FLIGHT; round++) for (const w of this.workers) this.feed(w);
    this.fallBackIfNoWorkers();
    return done.finally(() => this.stopAll());
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = new Worker(this.url, { workerData: { opts: this.opts } });
    } catch {
      return; // run() falls back to this thread when no worker started
    }
    this.workers.push(worker);
    this.inFlight.set(worker, []);
    worker.on('message', (msg: BatchResponse<R>) => this.received(worker, msg));
    worker.on('error', () => this.lost(worker));
    worker.on('exit', () => this.lost(worker));
  }

  private feed(worker: Worker): void {
    const next = this.queue.shift();
    if (next === undefined) return;
    this.inFlight.get(worker)?.push(next);
    const request: BatchRequest = { batch: next, files: this.batches[next] };
    worker.postMessage(request);
  }

  private received(worker: Worker, msg: BatchResponse<R>): void {
    if (this.settled) return;
    const pending = this.inFlight.get(worker);
    pending?.splice(pending.indexOf(msg.batch), 1);
    const files = this.batches[msg.batch];
    try {
      files.forEach((file, i) => this.onResult(file, msg.results[i]));
    } catch (err) {
      this.finish(err);
      return;
    }
    this.batchDone();
    this.feed(worker);
  }

  /** A worker died: its batches go back to the queue, and without workers the rest runs here. */
  private lost(worker: Worker): void {
    const index = this.workers.indexOf(worker);
    if (index === -1 || this.settled) return;
    this.workers.splice(index, 1);
    const pending = this.inFlight.get(worker) ?? [];
    this.inFlight.delete(worker);
    this.queue.unshift(...pending);
    // The survivors may be idle by now: give them the returned work.
    for (const w of this.workers) {
      const queued = this.inFlight.get(w) ?? [];
      while (queued.length < IN_FLIGHT && this.queue.length > 0) this.feed(w);
    }
    this.fallBackIfNoWorkers();
  }

  private fallBackIfNoWorkers(): void {
    if (this.workers.length > 0 || this.settled) return;
    const rest = this.queue;
    this.queue = [];
    try {
      for (const b of rest) {
        for (const file of this.batches[b]) this.onResult(file, this.work(file, this.opts));
        this.batchDone();
      }
    } catch (err) {
      this.finish(err);
    }
  }

  private batchDone(): void {
    if (--this.remaining === 0) this.finish();
  }

  private finish(err?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (err === undefined) this.resolve();
    else this.reject(err);
  }

  private async stopAll(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
