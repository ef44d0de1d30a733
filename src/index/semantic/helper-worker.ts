// worker_threads entry, bundled to dist/svd-worker.js: the helper thread of the eigen-decomposition
// (helper.ts). Runs each task it is posted and signals the poster through the shared flag: 1 done, 2 failed.
import { parentPort } from 'node:worker_threads';
import { runTask, type KernelTask } from './kernels.js';

if (parentPort) {
  parentPort.on('message', (m: { task: KernelTask; flag: Int32Array }) => {
    let ok = true;
    try {
      runTask(m.task);
    } catch {
      ok = false;
    }
    Atomics.store(m.flag, 0, ok ? 1 : 2);
    Atomics.notify(m.flag, 0);
  });
}
