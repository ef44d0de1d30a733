// The SQL of the neural embeddings (issue 17): which model made the stored vectors, which sections still
// lack one, storing a section's chunk vectors, and brute-force int8 cosine over every vector of a model.
// The runtime that makes the vectors is src/embed/; this file never loads it (search reads vectors here).
import type { Database } from './db.js';
import { quantize } from './semantic/quantize.js';
import { noteOfSection } from './section-ids.js';

/**
 * What a section is embedded as: its heading path, a line break, its text (the PPMI model reads the same).
 * vector-carry.ts keys the vectors a `--full` rebuild keeps by this same expression.
 */
export const SECTION_TEXT_SQL = "s.heading_path || char(10) || s.text";

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

  /** Another model's fingerprint than this one, when the index holds that model's vectors; else null. */
  otherModel(fingerprint: string): string | null {
    const row = this.db.prepare('SELECT fingerprint FROM embedding_models WHERE fingerprint != ? LIMIT 1').pluck().get(fingerprint) as string | undefined;
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

  /**
   * The model whose vectors the index holds (there is at most one: useModel deletes the others) and how many
   * sections have one; null when nothing was ever embedded. For `tsm status`.
   */
  heldModel(): ({ fingerprint: string; dims: number } & VectorCounts) | null {
    const row = this.db.prepare('SELECT id, fingerprint, dims FROM embedding_models ORDER BY id DESC LIMIT 1').get() as
      | { id: number; fingerprint: string; dims: number }
      | undefined;
    return row ? { fingerprint: row.fingerprint, dims: row.dims, ...this.counts(row.id) } : null;
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
    this.db.prepare('INSERT OR REPLACE INTO section_vectors (id, model, vec) VALUES (?, ?, ?)').run(section.id, model, packChunks(vectors));
    return true;
  }

  /**
   * Every section with a vector of `model`, scored by its best chunk's cosine with the unit vector `q`;
   * the best `limit`, best first, one per note (a note by its best section) unless `perNote` is false.
   * Brute force over the model's vectors, no vector index: for 60k sections, reading the rows costs more
   * than scoring them (~20 ms at 384 dimensions); the whole is ~0.1–0.4 s (docs/search.md has the bench).
   * Search pays it only under neuralAdds 'always'; a resident process scores its copy in memory instead
   * (vectors-in-memory.ts), and without one the default reorders ≤ 30 sections (`cosines`).
   */
  nearest(model: number, q: Float32Array, limit: number, perNote = true): VectorHit[] {
    // NOT INDEXED: one table scan in row id order (the index on model would fetch each row by id), and an
    // index holds one model's vectors but for the moment a new one replaces the old.
    return nearestOf(this.rows(model), q, limit, perNote);
  }

  /** Every vector of `model` as [section id, blob], in section id order (a resident's copy: vectors-in-memory.ts). */
  rows(model: number): IterableIterator<[number, Buffer]> {
    return this.db.prepare('SELECT id, vec FROM section_vectors NOT INDEXED WHERE model = ?').raw().iterate(model) as IterableIterator<[number, Buffer]>;
  }

  /** The best-chunk cosine of these sections with `q` (sections without a vector of `model` are absent). */
  cosines(model: number, q: Float32Array, ids: number[]): Map<number, number> {
    const out = new Map<number, number>();
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare('SELECT id, vec FROM section_vectors WHERE model = ? AND id IN (SELECT value FROM json_each(?))')
      .raw()
      .all(model, JSON.stringify(ids)) as [number, Buffer][];
    for (const [id, vec] of rows) {
      const cos = bestChunkCosine(q, vec);
      if (cos !== -Infinity) out.set(id, cos);
    }
    return out;
  }
}

/**
 * How many notes a search's neural list brings at most (neuralAdds): the lexical rankers' depth. The
 * resident's copy in memory answers this many (vectors-in-memory.ts), so both ways rank alike.
 */
export const NEAREST_NOTES = 300;

/**
 * Sections (rows in section id order) scored by their best chunk's cosine with the unit vector `q`; the best
 * `limit`, best first, one per note (a note by its best section) unless `perNote` is false. The one ranking
 * of the stored vectors and of a resident's copy of them.
 */
export function nearestOf(rows: Iterable<[number, Buffer]>, q: Float32Array, limit: number, perNote = true): VectorHit[] {
  const hits: VectorHit[] = [];
  // Rows come by section id, so a note's sections are consecutive: its best is kept without a map.
  let last: VectorHit | null = null;
  for (const [id, vec] of rows) {
    const cos = bestChunkCosine(q, vec);
    if (cos === -Infinity) continue;
    const noteId = noteOfSection(id);
    if (perNote && last !== null && last.noteId === noteId) {
      if (cos > last.cos) {
        last.id = id;
        last.cos = cos;
      }
      continue;
    }
    last = { id, noteId, cos };
    hits.push(last);
  }
  // Equal cosines by section id: within one note that is its order; across notes it only breaks exact ties.
  hits.sort((a, b) => b.cos - a.cos || a.id - b.id);
  return hits.slice(0, limit);
}

/** Chunk vectors as stored: per chunk, a float32 (little-endian) 1/norm, then the int8 vector. */
export function packChunks(vectors: Float32Array[]): Buffer {
  if (vectors.length === 0) return Buffer.alloc(0);
  const dims = vectors[0].length;
  const out = Buffer.alloc((4 + dims) * vectors.length);
  vectors.forEach((v, c) => {
    const b = quantize(v);
    const at = c * (4 + dims);
    let norm = 0;
    for (let i = 0; i < dims; i++) {
      const x = (b[i] << 24) >> 24;
      norm += x * x;
    }
    out.writeFloatLE(norm > 0 ? 1 / Math.sqrt(norm) : 0, at);
    out.set(b, at + 4);
  });
  return out;
}

/** The largest cosine of a unit query with any chunk of a stored section; -Infinity for none (or another size). */
export function bestChunkCosine(q: Float32Array, vec: Buffer): number {
  const dims = q.length;
  const stride = 4 + dims;
  if (vec.length % stride !== 0) return -Infinity; // not of this query's shape: never compared
  // A view, not a copy: int8 has no alignment to keep.
  const v = new Int8Array(vec.buffer, vec.byteOffset, vec.length);
  let best = -Infinity;
  const tail = dims & ~3;
  for (let at = 0; at < vec.length; at += stride) {
    // Four running sums, so the additions do not wait on each other: 60k × 384 scored in 16–21 ms instead
    // of 70–116 ms (plain node, min–median of 15 runs, on the shared 2-core machine).
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    const o = at + 4;
    let i = 0;
    for (; i < tail; i += 4) {
      d0 += q[i] * v[o + i];
      d1 += q[i + 1] * v[o + i + 1];
      d2 += q[i + 2] * v[o + i + 2];
      d3 += q[i + 3] * v[o + i + 3];
    }
    for (; i < dims; i++) d0 += q[i] * v[o + i];
    const cos = (d0 + d1 + d2 + d3) * vec.readFloatLE(at);
    if (cos > best) best = cos;
  }
  return best;
}
