// The prompt hook's hard deadline. It counts from the start of the process (process.uptime(); the global
// `performance` would load Node's perf_hooks), because Claude Code waits for the whole process, Node's own
// start included.

export class Deadline {
  constructor(
    /** Milliseconds allowed (what the user configured: messages name this). */
    readonly ms: number,
    /** Clock reading the deadline counts from. */
    private readonly start = 0,
    private readonly clock: () => number = () => process.uptime() * 1000,
    /** Milliseconds kept back at the end for what follows the work (see shortenedBy). */
    private readonly margin = 0,
  ) {}

  elapsed(): number {
    return this.clock() - this.start;
  }

  remaining(): number {
    return Math.max(0, this.ms - this.margin - this.elapsed());
  }

  passed(): boolean {
    return this.elapsed() >= this.ms - this.margin;
  }

  /**
   * `work`'s result, or null once the deadline passes first (after calling `onLate`, once). A timer cannot
   * cut synchronous work short: it fires at the first await after the deadline.
   */
  async race<T>(work: Promise<T>, onLate: () => void): Promise<T | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        onLate();
        resolve(null);
      }, this.remaining());
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The same deadline with `ms` more kept back (at most half of it): room for printing and exiting. */
  shortenedBy(ms: number): Deadline {
    return new Deadline(this.ms, this.start, this.clock, Math.min(this.ms / 2, this.margin + ms));
  }
}
