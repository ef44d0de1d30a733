// The prompt hook's hard deadline. It counts from the start of the process (process.uptime(); the global
// `performance` would load Node's perf_hooks), because Claude Code waits for the whole process, Node's own
// start included.

export class Deadline {
  constructor(
    /** Milliseconds allowed. */
    readonly ms: number,
    /** Clock reading the deadline counts from. */
    private readonly start = 0,
    private readonly clock: () => number = () => process.uptime() * 1000,
  ) {}

  elapsed(): number {
    return this.clock() - this.start;
  }

  remaining(): number {
    return Math.max(0, this.ms - this.elapsed());
  }

  passed(): boolean {
    return this.elapsed() >= this.ms;
  }
}
