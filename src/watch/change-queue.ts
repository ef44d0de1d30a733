// Collects the changes seen since the last batch, and decides when the next batch is due.

export interface Batch {
  /** Vault-relative note paths to re-check (empty when the batch is a rescan). */
  paths: string[];
  /** Why the whole vault must be looked at again; empty when only `paths` need checking. */
  rescanReasons: string[];
  /** Vault-relative paths of files that are no notes (attachments) that came or went; empty for a rescan. */
  attachments: string[];
}

/** The set of pending changes. A rescan covers every path, so paths are dropped once one is asked for. */
export class ChangeQueue {
  private paths = new Set<string>();
  private attachments = new Set<string>();
  private reasons: string[] = [];

  addPath(rel: string): void {
    if (this.reasons.length === 0) this.paths.add(rel);
  }

  addAttachment(rel: string): void {
    if (this.reasons.length === 0) this.attachments.add(rel);
  }

  requestRescan(reason: string): void {
    this.reasons.push(reason);
    this.paths.clear();
    this.attachments.clear();
  }

  /** Puts a batch back (it failed); changes seen since are kept. */
  putBack(batch: Batch): void {
    for (const reason of batch.rescanReasons) this.requestRescan(reason);
    for (const rel of batch.paths) this.addPath(rel);
    for (const rel of batch.attachments) this.addAttachment(rel);
  }

  get size(): number {
    return this.paths.size + this.attachments.size + this.reasons.length;
  }

  take(): Batch | null {
    if (this.size === 0) return null;
    const batch: Batch = { paths: [...this.paths].sort(), rescanReasons: this.reasons, attachments: [...this.attachments].sort() };
    this.paths = new Set();
    this.attachments = new Set();
    this.reasons = [];
    return batch;
  }
}

/**
 * Calls `fire` once events have been quiet for `quietMs`, or `maxWaitMs` after the first of a stream
 * of events that never goes quiet (a long `git checkout`), whichever comes first.
 */
export class Debouncer {
  private quietTimer: NodeJS.Timeout | null = null;
  private maxTimer: NodeJS.Timeout | null = null;
  /**
   * No firing before this time (performance.now() ms): a failed batch backs off even while events keep coming.
   * A monotonic clock: measured by Date.now(), a wall clock set back an hour after a failed batch held every
   * later batch back that hour.
   */
  private notBefore = 0;

  constructor(
    private readonly quietMs: number,
    private readonly maxWaitMs: number,
    private readonly fire: () => void,
  ) {}

  /** True while a call to `fire` is scheduled. */
  get pending(): boolean {
    return this.quietTimer !== null;
  }

  poke(): void {
    const hold = Math.max(0, this.notBefore - performance.now());
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.trigger(), Math.max(this.quietMs, hold));
    if (hold === 0) this.maxTimer ??= setTimeout(() => this.trigger(), this.maxWaitMs);
  }

  /** Fires after `ms` at the earliest, whatever events come meanwhile (retry after a failed batch). */
  pokeAfter(ms: number): void {
    this.cancel();
    this.notBefore = performance.now() + ms;
    this.quietTimer = setTimeout(() => this.trigger(), ms);
  }

  cancel(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    if (this.maxTimer) clearTimeout(this.maxTimer);
    this.quietTimer = null;
    this.maxTimer = null;
  }

  private trigger(): void {
    this.cancel();
    this.fire();
  }
}
