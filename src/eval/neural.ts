// `npm run eval -- --model DIR`: the neural ranker in the eval (issue 17). The model is loaded once; each
// set's cached index gets its sections' vectors by the same job as `tsm index --embed` (kept in the cached
// index, so a second run embeds nothing: only a new model, or changed sections, are embedded again), and each
// query is embedded (once per run) and handed to search as the request's query vector, as a resident model
// hands it to `tsm search`. A revision side is built with this harness, but this file is replaced there by
// a stub when the revision has no vector store (builds.ts): such a side runs lexically.
import type { QueryVector } from '../embed/socket-protocol.js';
import { openWriter } from '../index/db.js';
import { embedPending } from '../index/embed-job.js';

export interface NeuralEval {
  /** Name and fingerprint of the model, for the report. */
  readonly label: string;
  /** Gives every section of the index at `db` a vector of the model (what it lacks only). */
  embedIndex(db: string): Promise<void>;
  queryVector(query: string): Promise<QueryVector>;
  close(): Promise<void>;
}

export async function openNeural(modelDir: string): Promise<NeuralEval> {
  const { loadEmbedder } = await import('../embed/embedder.js');
  const embedder = await loadEmbedder(modelDir);
  const vectors = new Map<string, Promise<QueryVector>>();
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
    queryVector(query: string) {
      let v = vectors.get(query);
      if (!v) {
        v = embedder.embedQuery(query).then((vector) => ({ fingerprint: embedder.fingerprint, vector }));
        vectors.set(query, v);
      }
      return v;
    },
    close: () => embedder.close(),
  };
}
