// A resident process's copy of the index's section vectors (`tsm serve`, `tsm watch` with a model): the
// neural ranker's added notes (Tuning.neuralAdds) without reading every vector on every search. Read from
// SQLite, the vault's nearest notes cost 0.1 s a search on the Obsidian Hub (25k sections × 512 dims) and
// 0.4 s on the handbook; scored in memory, only the dot products are left (docs/search.md 2c).
//
// The copy is made off the query's path: a query while there is none, or while the index has changed
// since, is answered from what there is (nothing, or the copy as it was) and a reload is scheduled after
// it. Staleness is bounded by RELOAD_EVERY_MS, and harmless: an id the index no longer holds is dropped by
// search, and a section not yet in the copy is still found by the lexical rankers.
import { statSync } from 'node:fs';
import type { NearestList, NearestSource } from '../embed/socket-protocol.js';
import { fileIdentity } from '../vault/file-kind.js';
import { listKey } from './nearest-key.js';
import { withIndexReader } from './open-reader.js';
import { NEAREST_NOTES, nearestOf, VectorStore } from './vectors.js';

/** The soonest a changed index is read again after the last read (a running embedding job commits often). */
export const RELOAD_EVERY_MS = 10_000;

interface Copy {
  fingerprint: string;
  dims: number;
  /** listKey of the index read. */
  index: string;
  /** The index's change stamp when it was read (indexStamp). */
  stamp: string;
  rows: [number, Buffer][];
}

export class VectorsInMemory implements NearestSource {
  private copy: Copy | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastRead = -Infinity;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly onNotice: (message: string) => void = () => {},
    private readonly reloadEveryMs = RELOAD_EVERY_MS,
  ) {}

  /**
   * The best NEAREST_NOTES notes (each by its best section) for the unit vector `q` of the model
   * `fingerprint`; null while no copy of that model's vectors is held. Schedules a read when the index
   * changed since the copy was made (or there is none yet).
   */
  nearest(fingerprint: string, q: Float32Array, limit = NEAREST_NOTES): NearestList | null {
    if (this.copy === null || indexStamp(this.file) !== this.copy.stamp) this.readSoon();
    const c = this.copy;
    if (c === null || c.fingerprint !== fingerprint || c.dims !== q.length) return null;
    return { index: c.index, ids: nearestOf(c.rows, q, limit).map((h) => h.id) };
  }

  /** Reads the index's vectors now (a resident reads once at start; the eval before it searches). */
  load(): void {
    this.lastRead = performance.now();
    const stamp = indexStamp(this.file);
    if (fileIdentity(this.file) === null) {
      this.copy = null; // no index (yet): serve never makes one
      return;
    }
    try {
      this.copy = withIndexReader(this.file, (db) => {
        const index = listKey(db);
        if (index === null) return null;
        const store = new VectorStore(db);
        const held = store.heldModel();
        if (held === null || held.embedded === 0) return null;
        const model = store.modelOf(held.fingerprint, held.dims) as number;
        return { fingerprint: held.fingerprint, dims: held.dims, index, stamp, rows: [...store.rows(model)] };
      });
    } catch (err) {
      this.copy = null;
      this.onNotice(`the sections' vectors could not be read (${(err as Error).message}); the neural ranker reorders only`);
    }
  }

  /** How many sections the copy holds (for a status line and tests). */
  get size(): number {
    return this.copy?.rows.length ?? 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.copy = null;
  }

  /**
   * Reads the index's vectors once the event loop is free: not sooner than `reloadEveryMs` after the last
   * read, unless `now` (the resident's own embedding job has just stored vectors: one read per run).
   */
  readSoon(now = false): void {
    if (this.closed) return;
    if (this.timer && !now) return;
    if (this.timer) clearTimeout(this.timer);
    const wait = now ? 0 : Math.max(0, this.lastRead + this.reloadEveryMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) this.load();
    }, wait);
    this.timer.unref();
  }
}

/**
 * What changes when the index does: the file's identity and time, and its write-ahead log's time and size
 * (a commit writes the log; a checkpoint, the file). Two stat calls, no connection held open.
 */
export function indexStamp(file: string): string {
  const part = (p: string) => {
    try {
      const st = statSync(p, { bigint: true });
      return `${st.dev}:${st.ino}:${st.mtimeNs}:${st.size}`;
    } catch {
      return '-';
    }
  };
  return `${part(file)}|${part(`${file}-wal`)}`;
}
