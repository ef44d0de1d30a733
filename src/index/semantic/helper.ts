// A second thread for a training (model.ts). Training runs once the build is done, when the build's parser
// thread has finished and a core is idle. While the sections are read it cuts every other batch of them
// into words (postTexts / takeWords, answering through a port the calling thread reads synchronously);
// then, for the loops of kernels.ts, the calling thread posts one half of a kernel's rows, runs the other
// half, and blocks (Atomics.wait) until the helper is done. The loops' inputs and outputs live in
// SharedArrayBuffers (block32, block64), so posting a task copies nothing. Without a built worker (code
// running from sources, as under vitest), on one core, or when the helper fails, everything runs on the
// calling thread, with the same code: the result is the same either way.
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { findWorkerScript } from '../../parse/pool.js';
import { runTask, type KernelTask } from './kernels.js';

/** The bundled worker entry (src/index/semantic/helper-worker.ts). */
export const HELPER_WORKER = 'svd-worker.js';
/** Longest wait for the helper's half before the calling thread does it itself (a helper that died). */
const HELPER_TIMEOUT_MS = 60_000;
/** Least work (multiply-adds) worth a second thread: its start costs ~30 ms. */
export const MIN_HELPER_WORK = 100_000_000;

/** A batch of sections' words cut by the helper: ids of its own word map, and the words new to it. */
export interface CutWords {
  batch: number;
  /** Words the helper met first in this batch; its ids count up from 0 in the order met, over all batches. */
  newTypes: string[];
  /** Words per section. */
  lens: Int32Array;
  words: Int32Array;
  failed?: boolean;
}

export class Helper {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private dead = false;
  /** Batches of texts posted to be cut into words, and how many the helper has answered. */
  private words: { port: MessagePort; answered: Int32Array; posted: number } | null = null;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    // A worker that fails sets the flag, so that a wait ends at once (the error event itself cannot be
    // heard while the calling thread blocks; the worker's own catch handles what it can).
    worker.on('error', () => (this.dead = true));
  }

  /**
   * Whether a helper would be started for this much work (multiply-adds): enough of it, two cores, a built
   * worker. $TSM_TRAIN_THREADS=1 never starts one (a machine the user wants kept to one core); =2 starts one
   * for any work where a worker is built (how the tests run the two-thread path on a small vault).
   */
  static wanted(work: number, env: NodeJS.ProcessEnv = process.env): boolean {
    const threads = env.TSM_TRAIN_THREADS;
    if (threads === '1') return false;
    const enough = threads === '2' || (work >= MIN_HELPER_WORK && availableParallelism() >= 2);
    return enough && findWorkerScript(HELPER_WORKER) !== null;
  }

  /** A helper thread, or null (not wanted, or it could not be started). */
  static start(work: number): Helper | null {
    if (!Helper.wanted(work)) return null;
    const url = findWorkerScript(HELPER_WORKER);
    if (!url) return null;
    try {
      return new Helper(new Worker(url));
    } catch {
      return null;
    }
  }

  /** Runs `mine` here and `theirs` on the helper at once; returns when both are done. */
  split(mine: KernelTask, theirs: KernelTask): void {
    if (this.dead) {
      runTask(mine);
      runTask(theirs);
      return;
    }
    Atomics.store(this.flag, 0, 0);
    this.worker.postMessage({ task: theirs, flag: this.flag });
    runTask(mine);
    const waited = Atomics.wait(this.flag, 0, 0, HELPER_TIMEOUT_MS);
    if (waited === 'timed-out' || Atomics.load(this.flag, 0) !== 1) {
      // The helper failed (2) or never answered: its rows are done here (the same loop, the same values).
      this.dead = true;
      runTask(theirs);
    }
  }

  /** Posts a batch of texts to be cut into the model's words (the default splitter) on the helper. */
  postTexts(batch: number, texts: string[]): void {
    if (!this.words) {
      const { port1, port2 } = new MessageChannel();
      const answered = new Int32Array(new SharedArrayBuffer(4));
      this.worker.postMessage({ setup: { port: port2, answered } }, [port2]);
      this.words = { port: port1, answered, posted: 0 };
    }
    this.worker.postMessage({ texts, batch });
    this.words.posted++;
  }

  /**
   * The batches the helper has answered so far, or (`all`) once it has answered every batch posted (a
   * batch it failed, or never answered, the caller cuts itself).
   */
  takeWords(all: boolean): CutWords[] {
    const w = this.words;
    if (!w) return [];
    while (all && !this.dead) {
      const done = Atomics.load(w.answered, 0);
      if (done >= w.posted) break;
      if (Atomics.wait(w.answered, 0, done, HELPER_TIMEOUT_MS) === 'timed-out') this.dead = true;
    }
    const out: CutWords[] = [];
    for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) out.push(m.message as CutWords);
    return out;
  }

  close(): void {
    void this.worker.terminate();
  }
}

/** A Float32Array in shared memory when a helper will read or write it, else an ordinary one. */
export function block32(length: number, shared: boolean): Float32Array {
  return shared ? new Float32Array(new SharedArrayBuffer(length * 4)) : new Float32Array(length);
}

export function block64(length: number, shared: boolean): Float64Array {
  return shared ? new Float64Array(new SharedArrayBuffer(length * 8)) : new Float64Array(length);
}
