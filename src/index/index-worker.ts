// worker_threads entry, bundled to dist/index-worker.js: loads, parses and prepares the full-text rows of
// the batches of files that a big sync sends (src/parse/pool.ts).
import { serveFileJob } from '../parse/pool.js';
import { loadForIndex } from './prepared-load.js';

serveFileJob(loadForIndex);
