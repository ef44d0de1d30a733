// The neural ranker's list (issue 17): the query's vector, made by a resident model and handed in with the
// search request, against the sections' stored vectors (src/index/vectors.ts) by best-chunk cosine. A
// vector of a model the index holds no vectors of (another fingerprint, another size) ranks nothing:
// vectors of two models are never compared.
import type { Database } from '../index/db.js';
import { NEAREST_NOTES, VectorStore } from '../index/vectors.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { listKey } from '../index/nearest-key.js';
import { descending } from '../core/order.js';

/**
 * The vault's nearest notes (section ids best first, each note by its best section) for the neural
 * ranker's added notes: the list the query vector brings when a resident made it for this very index file
 * and build of it (listKey),
 * else, when `scan`, read from every stored vector (0.1–0.4 s); null when neither (or no vectors of the
 * vector's model).
 */
export function nearestNotes(db: Database, qv: QueryVector, scan: boolean): number[] | null {
  if (qv.nearest && qv.nearest.index === listKey(db)) return qv.nearest.ids;
  if (!scan) return null;
  const store = new VectorStore(db);
  const model = store.modelOf(qv.fingerprint, qv.vector.length);
  return model === null ? null : store.nearest(model, qv.vector, NEAREST_NOTES).map((h) => h.id);
}

/**
 * `candidates` reordered by cosine (those without a vector dropped). Null when the index has no vectors of
 * the query vector's model.
 */
export function neuralList(db: Database, qv: QueryVector, candidates: number[]): number[] | null {
  const store = new VectorStore(db);
  const model = store.modelOf(qv.fingerprint, qv.vector.length);
  if (model === null) return null;
  const cos = store.cosines(model, qv.vector, candidates);
  // Equal cosines keep the candidates' (lexical) order: never ordered by row id.
  return candidates
    .map((id, i) => ({ id, i, cos: cos.get(id) }))
    .filter((c): c is { id: number; i: number; cos: number } => c.cos !== undefined)
    .sort((a, b) => descending(a.cos, b.cos) || a.i - b.i)
    .map((c) => c.id);
}
