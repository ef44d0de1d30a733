// `npm run eval -- --model DIR`: the neural ranker in the eval (issue 17). The model is loaded once; each
// set's cached index gets its sections' vectors by the same job as `tsm index --embed` (kept in the cached
// index, so a second run embeds nothing: only a new model, or changed sections, are embedded again), and each
// query is embedded (once per run) and handed to search as the request's query vector, as a resident model
// hands it to `tsm search`. A revision side is built with this harness, but this file is replaced there by
// a stub when the revision has no vector store (builds.ts): such a side runs lexically.
import { pathToFileURL } from 'node:url';
import type { QueryVector } from '../embed/socket-protocol.js';
import type { Embedder } from '../embed/types.js';
import { openWriter } from '../index/db.js';
import { embedPending } from '../index/embed-job.js';
import { VectorsInMemory } from '../index/vectors-in-memory.js';

export interface NeuralEval {
  /** Name and fingerprint of the model, for the report. */
  readonly label: string;
  /** Gives every section of the index at `db` a vector of the model (what it lacks only). */
  embedIndex(db: string): Promise<void>;
  /**
   * The query's vector as a resident process hands it to a search of the index at `db`: with the vault's
   * nearest notes from a copy of that index's vectors in memory (the neural ranker's added notes).
   */
  queryVector(query: string, db: string): Promise<QueryVector>;
  close(): Promise<void>;
}

export async function openNeural(modelDir: string): Promise<NeuralEval> {
  const { loadEmbedder } = await import('../embed/embedder.js');
  return neuralEval(await loadEmbedder(modelDir));
}

/**
 * `--embedder FILE`: an encoder that is not an ONNX model folder — a JavaScript module whose
 * `loadEmbedder()` resolves to an Embedder (src/embed/types.ts), such as bench/use-lite/ (the one trained
 * encoder the npm registry holds), for measuring the neural ranker where no model of our own can be had.
 */
export async function openNeuralModule(file: string): Promise<NeuralEval> {
  const mod = (await import(pathToFileURL(file).href)) as { loadEmbedder?: () => Promise<Embedder> };
  if (typeof mod.loadEmbedder !== 'function') throw new Error(`${file} exports no loadEmbedder(): see bench/use-lite/ for one that does`);
  const embedder = await mod.loadEmbedder();
  for (const key of ['embedQuery', 'embedPassage', 'close'] as const) {
    if (typeof embedder?.[key] !== 'function') throw new Error(`${file}: loadEmbedder() gave no ${key}() (an Embedder of src/embed/types.ts is wanted)`);
  }
  if (typeof embedder.fingerprint !== 'string' || !(embedder.spec?.dims > 0)) throw new Error(`${file}: loadEmbedder() gave no fingerprint or spec.dims`);
  return neuralEval(embedder);
}

function neuralEval(embedder: Embedder): NeuralEval {
  const vectors = new Map<string, Promise<QueryVector>>();
  const copies = new Map<string, VectorsInMemory>();
  return {
    label: `${embedder.spec.name} (${embedder.spec.dims} dims)`,
    async embedIndex(db: string) {
      const { db: writer } = openWriter(db);
      try {
        const s = await embedPending(writer, embedder);
        if (s.embedded > 0) process.stderr.write(`eval: embedded ${s.embedded} sections of ${db} in ${s.seconds} s\n`);
      } finally {
        writer.close();
      }
    },
    async queryVector(query: string, db: string) {
      let v = vectors.get(query);
      if (!v) {
        v = embedder.embedQuery(query).then((vector) => ({ fingerprint: embedder.fingerprint, vector }));
        vectors.set(query, v);
      }
      let copy = copies.get(db);
      if (!copy) {
        copy = new VectorsInMemory(db);
        copy.load();
        copies.set(db, copy);
      }
      const qv = await v;
      const nearest = copy.nearest(qv.fingerprint, qv.vector);
      return nearest ? { ...qv, nearest } : qv;
    },
    close: () => {
      for (const c of copies.values()) c.close();
      return embedder.close();
    },
  };
}
