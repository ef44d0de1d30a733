// The SQL of the neural embeddings (issue 17): which model made the stored vectors, which sections still
// lack one, storing a section's chunk vectors, and brute-force int8 cosine over every vector of a model.
// The runtime that makes the vectors is src/embed/; this file never loads it (search reads vectors here).
import type { Database } from './db.js';
import { quantize } from './semantic/quantize.js';
import { noteOfSection } from './section-ids.js';

/** What a section is embedded as: its heading path, a line break, its text (the PPMI model reads the same). */
const SECTION_TEXT_SQL = "s.heading_path || char(10) || s.text";

export interface SectionToEmbed {
  id: number;
  text: string;
}

/** A section by its best chunk's cosine with the query. */
export interface VectorHit {
  id: number;
  noteId: number;
  cos: number;
}

export interface VectorCounts {
  /** Sections with a vector of the model. */
  embedded: number;
  sections: number;
}

export class VectorStore {
  constructor(private readonly db: Database) {}

  /** The id under which vectors of this fingerprint are stored; null when there are none. */
  modelId(fingerprint: string): number | null {
    const row = this.db.prepare('SELECT id FROM embedding_models WHERE fingerprint = ?').pluck().get(fingerprint) as number | undefined;
    return row ?? null;
  }

  /** The id of the vectors of this fingerprint and size, for a query vector; null when there are none. */
  modelOf(fingerprint: string, dims: number): number | null {
    const row = this.db.prepare('SELECT id FROM embedding_models WHERE fingerprint = ? AND dims = ?').pluck().get(fingerprint, dims) as number | undefined;
    return row ?? null;
  }

  /**
   * The id of the model that embeds from now on. Any other model's vectors are deleted with it (in the
   * caller's write transaction): vectors of two models never mix, and the old ones are of no use to a
   * query embedded by the new model.
   */
  useModel(fingerprint: string, dims: number): number {
    this.db.prepare('DELETE FROM embedding_models WHERE fingerprint != ?').run(fingerprint);
    const known = this.db.prepare('SELECT id, dims FROM embedding_models WHERE fingerprint = ?').get(fingerprint) as { id: number; dims: number } | undefined;
    if (known && known.dims === dims) return known.id;
    if (known) this.db.prepare('DELETE FROM embedding_models WHERE id = ?').run(known.id);
    return Number(this.db.prepare('INSERT INTO embedding_models (fingerprint, dims) VALUES (?, ?)').run(fingerprint, dims).lastInsertRowid);
  }

  /** Sections without a vector of `model`, in id order from `afterId` (a job walks them in batches). */
  pending(model: number, limit: number, afterId = -1): SectionToEmbed[] {
    return this.db
      .prepare(
        `SELECT s.id, ${SECTION_TEXT_SQL} AS text FROM sections s
         WHERE s.id > ? AND NOT EXISTS (SELECT 1 FROM section_vectors v WHERE v.id = s.id AND v.model = ?)
         ORDER BY s.id LIMIT ?`,
      )
      .all(afterId, model, limit) as SectionToEmbed[];
  }

  /** How many sections lack a vector of `model`. */
  pendingCount(model: number): number {
    return this.db
      .prepare('SELECT count(*) FROM sections s WHERE NOT EXISTS (SELECT 1 FROM section_vectors v WHERE v.id = s.id AND v.model = ?)')
      .pluck()
      .get(model) as number;
  }

  counts(model: number | null): VectorCounts {
    const sections = this.db.prepare('SELECT count(*) FROM sections').pluck().get() as number;
    const embedded = model === null ? 0 : (this.db.prepare('SELECT count(*) FROM section_vectors WHERE model = ?').pluck().get(model) as number);
    return { embedded, sections };
  }

  /**
   * Stores a section's chunk vectors (unit float vectors) as int8, if the section still holds the text
   * they were made from: a sync may have rewritten it (same id, new text) while the model ran. Returns
   * whether it stored them.
   */
  put(model: number, section: SectionToEmbed, vectors: Float32Array[]): boolean {
    const now = this.db.prepare(`SELECT ${SECTION_TEXT_SQL} FROM sections s WHERE s.id = ?`).pluck().get(section.id) as string | undefined;
    if (now !== section.text) return false;
    // A section the model made no chunk of (no text) is stored empty: done, and never a hit.
    const { vecs, scales } = vectors.length ? packChunks(vectors) : { vecs: Buffer.alloc(0), scales: Buffer.alloc(0) };
    this.db.prepare('INSERT OR REPLACE INTO section_vectors (id, model, vecs, scales) VALUES (?, ?, ?, ?)').run(section.id, model, vecs, scales);
    return true;
  }

  /**
   * Every section with a vector of `model`, scored by its best chunk's cosine with the unit vector `q`;
   * the best `limit`, best first, one per note (a note by its best section) unless `perNote` is false.
   * Brute force over the model's vectors: ~60k × 384 int8 is read and scored in tens of milliseconds
   * (docs/search.md has the bench), so no vector index is kept.
   */
  nearest(model: number, q: Float32Array, limit: number, perNote = true): VectorHit[] {
    const best = new Map<number, VectorHit>();
    const all: VectorHit[] = [];
    for (const [id, vecs, scales] of this.db.prepare('SELECT id, vecs, scales FROM section_vectors WHERE model = ?').raw().iterate(model) as Iterable<
      [number, Buffer, Buffer]
    >) {
      const cos = bestChunkCosine(q, vecs, scales);
      if (cos === -Infinity) continue;
      const hit = { id, noteId: noteOfSection(id), cos };
      if (!perNote) all.push(hit);
      else {
        const b = best.get(hit.noteId);
        if (!b || cos > b.cos || (cos === b.cos && id < b.id)) best.set(hit.noteId, hit);
      }
    }
    const hits = perNote ? [...best.values()] : all;
    // Equal cosines by section id: within one note that is its order; across notes it only breaks exact ties.
    hits.sort((a, b) => b.cos - a.cos || a.id - b.id);
    return hits.slice(0, limit);
  }

  /** The best-chunk cosine of these sections with `q` (sections without a vector of `model` are absent). */
  cosines(model: number, q: Float32Array, ids: number[]): Map<number, number> {
    const out = new Map<number, number>();
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare('SELECT id, vecs, scales FROM section_vectors WHERE model = ? AND id IN (SELECT value FROM json_each(?))')
      .raw()
      .all(model, JSON.stringify(ids)) as [number, Buffer, Buffer][];
    for (const [id, vecs, scales] of rows) {
      const cos = bestChunkCosine(q, vecs, scales);
      if (cos !== -Infinity) out.set(id, cos);
    }
    return out;
  }
}

/** Chunk vectors as stored: int8 end to end, and one float32 (little-endian) 1/norm per chunk. */
export function packChunks(vectors: Float32Array[]): { vecs: Buffer; scales: Buffer } {
  const dims = vectors[0].length;
  const vecs = Buffer.alloc(dims * vectors.length);
  const scales = Buffer.alloc(4 * vectors.length);
  vectors.forEach((v, c) => {
    const b = quantize(v);
    vecs.set(b, c * dims);
    let norm = 0;
    for (let i = 0; i < dims; i++) {
      const x = (b[i] << 24) >> 24;
      norm += x * x;
    }
    scales.writeFloatLE(norm > 0 ? 1 / Math.sqrt(norm) : 0, c * 4);
  });
  return { vecs, scales };
}

/** The largest cosine of a unit query with any chunk of a stored section. */
export function bestChunkCosine(q: Float32Array, vecs: Buffer, scales: Buffer): number {
  const dims = q.length;
  const chunks = scales.length >> 2;
  if (vecs.length !== chunks * dims) return -Infinity; // not of this query's shape: never compared
  // A view, not a copy: int8 has no alignment to keep.
  const v = new Int8Array(vecs.buffer, vecs.byteOffset, vecs.length);
  let best = -Infinity;
  for (let c = 0, off = 0; c < chunks; c++, off += dims) {
    let dot = 0;
    for (let i = 0; i < dims; i++) dot += q[i] * v[off + i];
    const cos = dot * scales.readFloatLE(c * 4);
    if (cos > best) best = cos;
  }
  return best;
}
