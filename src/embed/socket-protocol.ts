// The query-embedding socket (issue 17): a resident process that holds the model (`tsm serve`, `tsm watch`)
// answers a query's vector to per-process commands (`tsm search`), which never load a model themselves.
//
// One connection, one exchange, one JSON line each way:
//   → {"query": "how do I rotate the keys"}
//   ← {"fingerprint": "<Embedder.fingerprint>", "dims": 256, "vector": "<base64 of dims float32, little-endian>",
//      "nearest": {"index": "<dev:ino/build of the index>", "ids": [<section id>, …]}}
//   ← {"error": "…"}                                   (the server could not embed it)
// Where: <vault>/.tsm/run/embed.sock (src/vault/embed-socket.ts), the folder 0700 and the socket 0600 (owner
// only). Two vaults, two sockets. `tsm search` asks only when the socket file is there: a resident process
// listens only when the vault has a model, so the socket's presence is all the asking side needs to know.
// `nearest` (optional) is the vault's nearest notes by the resident's copy of the index's vectors
// (src/index/vectors-in-memory.ts), for the neural ranker's added notes; a search of another index file than
// the one named ignores them, and an older client ignores the field.
export { socketPath } from '../vault/embed-socket.js';

/** A resident's nearest notes for a query: section ids best first, and the index file they are ids of. */
export interface NearestList {
  /** Which index file, and which build of it, the ids come from (index/vectors-in-memory.ts listKey): a search of any other ignores them. */
  index: string;
  ids: number[];
}

/** Where a resident gets the nearest notes of a query vector (src/index/vectors-in-memory.ts). */
export interface NearestSource {
  /** The nearest notes for the unit vector `q` of the model `fingerprint`; null when there is no list to give. */
  nearest(fingerprint: string, q: Float32Array): NearestList | null;
  /** The index's vectors changed: read them again soon (`now`: without waiting out the reload interval). */
  readSoon(now?: boolean): void;
  close(): void;
}

/** A query's vector and the model that made it: only vectors of the same fingerprint are compared with it. */
export interface QueryVector {
  fingerprint: string;
  vector: Float32Array;
  /** The vault's nearest notes by a resident's copy of the vectors: what the neural ranker may add. */
  nearest?: NearestList;
}

/** Most ids a reply's nearest list may hold (a resident sends NEAREST_NOTES). */
export const MAX_NEAREST = 2000;

/** Longest request line read (a query is cut to MAX_QUERY_CHARS before it is sent). */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** Longest reply line read: a 4096-dimension vector in base64 is ~22 kB, MAX_NEAREST ids ~26 kB. */
export const MAX_REPLY_BYTES = 64 * 1024;
/** Characters of a query sent: the model reads at most a few hundred tokens of it anyway. */
export const MAX_QUERY_CHARS = 4000;

export function encodeVector(v: QueryVector): string {
  const bytes = Buffer.alloc(v.vector.length * 4);
  v.vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  const nearest = v.nearest ? { nearest: v.nearest } : {};
  return JSON.stringify({ fingerprint: v.fingerprint, dims: v.vector.length, vector: bytes.toString('base64'), ...nearest });
}

/** A reply line as a QueryVector, or the reason it is not one. */
export function decodeVector(line: string): QueryVector | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return { error: 'the reply is not JSON' };
  }
  const r = data as { fingerprint?: unknown; dims?: unknown; vector?: unknown; error?: unknown; nearest?: unknown };
  if (typeof r.error === 'string') return { error: `the server: ${r.error}` };
  if (typeof r.fingerprint !== 'string' || typeof r.vector !== 'string' || !Number.isInteger(r.dims) || (r.dims as number) < 1) {
    return { error: 'the reply lacks fingerprint, dims or vector' };
  }
  const bytes = Buffer.from(r.vector, 'base64');
  const dims = r.dims as number;
  if (bytes.length !== dims * 4) return { error: `the vector has ${bytes.length} bytes, not ${dims} × 4` };
  const vector = new Float32Array(dims);
  for (let i = 0; i < dims; i++) {
    vector[i] = bytes.readFloatLE(i * 4);
    if (!Number.isFinite(vector[i])) return { error: 'the vector holds a value that is not a finite number' };
  }
  if (r.nearest === undefined) return { fingerprint: r.fingerprint, vector };
  const nearest = decodeNearest(r.nearest);
  if ('error' in nearest) return nearest;
  return { fingerprint: r.fingerprint, vector, nearest };
}

function decodeNearest(data: unknown): NearestList | { error: string } {
  const n = data as { index?: unknown; ids?: unknown } | null;
  if (typeof n !== 'object' || n === null || typeof n.index !== 'string' || !Array.isArray(n.ids)) {
    return { error: 'the reply\'s nearest lacks index or ids' };
  }
  const ids = n.ids as unknown[];
  if (ids.length > MAX_NEAREST) return { error: `the reply's nearest holds ${ids.length} ids, more than ${MAX_NEAREST}` };
  if (!ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 0)) return { error: "the reply's nearest holds an id that is not a section id" };
  return { index: n.index, ids: ids as number[] };
}
