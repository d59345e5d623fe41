/**
 * When captured exchanges are read: while requests are in flight the proxy only forwards, and
 * the reading waits for a quiet moment (no request for a few milliseconds), one exchange per turn
 * of the event loop, so a burst of traffic is never slowed by parsing. A long backlog is worked
 * off even under load, one at a time, so memory stays bounded.
 */
export class IdleQueue<T> {
  private readonly items: T[] = [];
  private inFlight = 0;
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
  ) {}

  private overfull(): boolean {
    return this.items.length > this.maxItems || this.backlogBytes > this.maxBytes;
  }

  begin(): void {
    this.inFlight++;
    this.lastActivity = Date.now();
  }

  end(): void {
    this.inFlight--;
    this.lastActivity = Date.now();
  }

  push(item: T): void {
    this.items.push(item);
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

  private quiet(): boolean {
    return this.inFlight === 0 && Date.now() - this.lastActivity >= this.quietMs;
  }

  private schedule(): void {
    if (this.running || this.timer || !this.items.length) return;
    const wait = this.overfull() ? 0 : this.quietMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run(false);
    }, wait);
    this.timer.unref?.();
  }

  private run(force: boolean): void {
    if (this.running) return;
    if (!force && !this.quiet() && !this.overfull()) return this.schedule();
    const item = this.items.shift();
    if (item === undefined) return this.settle();
    this.backlogBytes -= this.weigh(item);
    this.running = true;
    void this.work(item).finally(() => {
      this.running = false;
      // One per turn: a request that arrived meanwhile is handled before the next reading.
      setImmediate(() => (this.items.length ? this.run(force || this.waiters.length > 0) : this.settle()));
    });
  }

  private settle(): void {
    if (this.items.length || this.running) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
