// worker_threads entry, bundled to dist/parse-worker.js: loads and parses the batches of files that
// pool.ts sends and answers each with its results.
import { parentPort, workerData } from 'node:worker_threads';
import { loadSafely, type BatchRequest, type BatchResponse } from './batch.js';
import type { ParseOptions } from './options.js';

if (parentPort) {
  const port = parentPort;
  const opts = (workerData as { opts: ParseOptions }).opts;
  port.on('message', (req: BatchRequest) => {
    const response: BatchResponse = { batch: req.batch, results: req.files.map((f) => loadSafely(f, opts)) };
    port.postMessage(response);
  });
}
