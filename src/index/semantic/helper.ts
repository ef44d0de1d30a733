// A second thread for the eigen-decomposition's loops (kernels.ts). Training runs once the build is done,
// when the build's parser thread has finished and a core is idle: the calling thread posts one half of a
// kernel's rows to the helper, runs the other half, and blocks (Atomics.wait) until the helper is done.
// The inputs and outputs live in SharedArrayBuffers (sharedBlock), so posting a task copies nothing.
// Without a built worker (code running from sources, as under vitest), on one core, or when the helper
// fails, every row runs on the calling thread, with the same loops: the result is the same either way.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { findWorkerScript } from '../../parse/pool.js';
import { runTask, type KernelTask } from './kernels.js';

/** The bundled worker entry (src/index/semantic/helper-worker.ts). */
export const HELPER_WORKER = 'svd-worker.js';
/** Longest wait for the helper's half before the calling thread does it itself (a helper that died). */
const HELPER_TIMEOUT_MS = 60_000;

export class Helper {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private dead = false;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    // A worker that fails sets the flag, so that a wait ends at once (the error event itself cannot be
    // heard while the calling thread blocks; the worker's own catch handles what it can).
    worker.on('error', () => (this.dead = true));
  }

  /** Whether a helper would be started for this much work (multiply-adds): enough of it, two cores, a built worker. */
  static wanted(work: number): boolean {
    return work >= 100_000_000 && availableParallelism() >= 2 && findWorkerScript(HELPER_WORKER) !== null;
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
