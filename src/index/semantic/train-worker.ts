// worker_threads entry, bundled to dist/semantic-worker.js: trains the semantic model from the index
// (src/index/semantic/background.ts) and posts the result back, its buffers transferred.
import { parentPort, workerData } from 'node:worker_threads';
import { trainFromIndex } from './background.js';

if (parentPort) {
  const r = trainFromIndex((workerData as { dbPath: string }).dbPath);
  const t = r.trained;
  const buffers = t ? [t.idf.buffer, t.wordBytes.buffer, t.sectionIds.buffer, t.hasVector.buffer, t.sectionBytes.buffer] : [];
  parentPort.postMessage(r, buffers as ArrayBuffer[]);
}
