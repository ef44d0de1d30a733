// worker_threads entry, bundled to dist/svd-worker.js: the helper thread of a training (helper.ts). Runs
// each kernel task it is posted and signals the poster through the shared flag (1 done, 2 failed); cuts
// posted batches of texts into words with a word map of its own, answering on the port it was given.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { runTask, type KernelTask } from './kernels.js';
import type { CutWords } from './helper.js';
import { semanticWords } from './words.js';

if (parentPort) {
  let out: { port: MessagePort; answered: Int32Array } | null = null;
  const types = new Map<string, number>();
  let broken = false;
  parentPort.on('message', (m: { task?: KernelTask; flag?: Int32Array; setup?: { port: MessagePort; answered: Int32Array }; texts?: string[]; batch?: number }) => {
    if (m.setup) {
      out = m.setup;
      return;
    }
    if (m.texts && out) {
      let answer: CutWords;
      try {
        if (broken) throw new Error('an earlier batch failed');
        const newTypes: string[] = [];
        const lens = new Int32Array(m.texts.length);
        const ids: number[] = [];
        m.texts.forEach((text, i) => {
          const words = semanticWords(text);
          lens[i] = words.length;
          for (const w of words) {
            let id = types.get(w);
            if (id === undefined) {
              id = types.size;
              types.set(w, id);
              newTypes.push(w);
            }
            ids.push(id);
          }
        });
        answer = { batch: m.batch ?? 0, newTypes, lens, words: Int32Array.from(ids) };
      } catch {
        // The poster cuts this batch itself, and every later one: the words new in this batch are lost, so
        // the ids of later batches would not match the poster's copy of the map.
        broken = true;
        answer = { batch: m.batch ?? 0, newTypes: [], lens: new Int32Array(0), words: new Int32Array(0), failed: true };
      }
      out.port.postMessage(answer);
      Atomics.add(out.answered, 0, 1);
      Atomics.notify(out.answered, 0);
      return;
    }
    if (m.task && m.flag) {
      let ok = true;
      try {
        runTask(m.task);
      } catch {
        ok = false;
      }
      Atomics.store(m.flag, 0, ok ? 1 : 2);
      Atomics.notify(m.flag, 0);
    }
  });
}
