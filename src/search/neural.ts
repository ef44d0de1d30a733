// The neural ranker's list (issue 17): the query's vector, made by a resident model and handed in with the
// search request, against the sections' stored vectors (src/index/vectors.ts) by best-chunk cosine. A
// vector of a model the index holds no vectors of (another fingerprint, another size) ranks nothing:
// vectors of two models are never compared.
import type { Database } from '../index/db.js';
import { VectorStore } from '../index/vectors.js';
import type { QueryVector } from '../embed/socket-protocol.js';

/**
 * Section ids best first: `candidates` reordered by cosine (those without a vector dropped), or, when
 * `candidates` is null, the best `depth` notes of the whole vault, each by its best section. Null when the
 * index has no vectors of the query vector's model.
 */
export function neuralList(db: Database, qv: QueryVector, candidates: number[] | null, depth: number): number[] | null {
  const store = new VectorStore(db);
  const model = store.modelOf(qv.fingerprint, qv.vector.length);
  if (model === null) return null;
  if (candidates === null) return store.nearest(model, qv.vector, depth).map((h) => h.id);
  const cos = store.cosines(model, qv.vector, candidates);
  // Equal cosines keep the candidates' (lexical) order: never ordered by row id.
  return candidates
    .map((id, i) => ({ id, i, cos: cos.get(id) }))
    .filter((c): c is { id: number; i: number; cos: number } => c.cos !== undefined)
    .sort((a, b) => b.cos - a.cos || a.i - b.i)
    .map((c) => c.id);
}
