/**
 * When captured exchanges are read. The proxy forwards first: reading waits for a quiet moment
 * (no exchange begun or ended for a few milliseconds — an upload trickling in or a reply held
 * open does not count as traffic), but never longer than DEADLINE_MS after an exchange ended,
 * whatever is in flight (a slow upload, a long poll, sustained load). Reading goes one exchange
 * per turn of the event loop (and readCapture yields between its phases), so the relay's I/O is
 * served between slices and other clients' exchanges go on while one is read. A long backlog is
 * worked off at once, so memory stays bounded.
 */

/**
 * How long an exchange may wait for a quiet moment: then it is read under load. Half the second
 * within which every exchange is shown, the other half for the reading itself; and longer than a
 * burst of the bench's inspector rows (BENCHMARKS.md), whose reading still comes after the burst.
 */
export const DEADLINE_MS = 500;

export class IdleQueue<T> {
  private readonly items: T[] = [];
  /** When each waiting item was pushed, in the same order. */
  private readonly since: number[] = [];
  private lastActivity = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly waiters: Array<() => void> = [];

  private backlogBytes = 0;

  constructor(
    private readonly work: (item: T) => Promise<void>,
    /** How much an item weighs in memory while it waits. */
    private readonly weigh: (item: T) => number,
    private readonly quietMs = 5,
    /** Past either bound, reading goes on under load (one item per turn) so memory stays bounded. */
    private readonly maxItems = 5000,
    private readonly maxBytes = 64 * 1024 * 1024,
    private readonly deadlineMs = DEADLINE_MS,
  ) {}

  private overfull(): boolean {
    return this.items.length > this.maxItems || this.backlogBytes > this.maxBytes;
  }

  begin(): void {
    this.lastActivity = Date.now();
  }

  end(): void {
    this.lastActivity = Date.now();
  }

  push(item: T): void {
    this.items.push(item);
    this.since.push(Date.now());
    this.backlogBytes += this.weigh(item);
    this.schedule();
  }

  get pending(): number {
    return this.items.length + (this.running ? 1 : 0);
  }

  /** Reads everything now, busy or not (tests, shutdown). */
  flush(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.run(true);
    });
  }

  /** Milliseconds until the next item must be read: 0 when it is due now. */
  private due(now: number): number {
    if (this.overfull()) return 0;
    const quiet = this.lastActivity + this.quietMs - now;
    const deadline = this.since[0] + this.deadlineMs - now;
    return Math.max(0, Math.min(quiet, deadline));
  }

  private schedule(): void {
    if (this.running || this.timer || !this.items.length) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run(false);
    }, this.due(Date.now()));
    this.timer.unref?.();
  }

  private run(force: boolean): void {
    if (this.running) return;
    if (!this.items.length) return this.settle();
    if (!force && this.due(Date.now()) > 0) return this.schedule();
    const item = this.items.shift()!;
    this.since.shift();
    this.backlogBytes -= this.weigh(item);
    this.running = true;
    void this.work(item).finally(() => {
      this.running = false;
      // One per turn: the relay's I/O that came meanwhile is served before the next reading.
      setImmediate(() => (this.items.length ? this.run(force || this.waiters.length > 0) : this.settle()));
    });
  }

  private settle(): void {
    if (this.items.length || this.running) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
