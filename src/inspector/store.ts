/**
 * The recorded exchanges kept in memory, held by bytes as well as by count: a session of a few
 * large exchanges keeps only as many as fit, the oldest going first. Recording folders are not
 * affected — every exchange is written there whatever is kept here.
 */
import type { RecordedExchange } from './types';

/** Per object or array in a parsed reply, a rough price for its header and slots. */
const NODE_BYTES = 48;
/** What an exchange costs besides its texts: headers, timing, findings, the reading of the request. */
const EXCHANGE_BYTES = 4096;

/** Characters above U+00FF (the mask is one) make V8 keep the whole string at two bytes each. */
const stringBytes = (s: string) => (/[\u0100-\uffff]/.test(s) ? 2 : 1) * s.length;

/** Roughly how much memory an exchange holds: its body texts, documents and parsed reply. */
export function exchangeWeight(r: RecordedExchange): number {
  const x = r.exchange;
  let bytes = EXCHANGE_BYTES + stringBytes(x.request.body) + (x.reply ? stringBytes(x.reply.bodyText) : 0);
  for (const d of x.documents) bytes += d.base64.length;
  // The parsed reply is walked with a stack of its own: it nests as deep as the XML reader allows.
  const stack: unknown[] = [x.parsed, x.fault, r.recognition];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') bytes += stringBytes(v);
    else if (v !== null && typeof v === 'object') {
      bytes += NODE_BYTES;
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return bytes;
}

export class ExchangeStore {
  private items: Array<{ readonly recorded: RecordedExchange; readonly weight: number }> = [];
  private bytes = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  /** Keeps `r`, dropping the oldest until both bounds hold (an exchange heavier than the budget alone is kept by itself). */
  add(r: RecordedExchange): void {
    if (this.maxCount === 0) return;
    const weight = exchangeWeight(r);
    this.items.push({ recorded: r, weight });
    this.bytes += weight;
    let drop = 0;
    while (this.items.length - drop > 1 && (this.items.length - drop > this.maxCount || this.bytes > this.maxBytes)) {
      this.bytes -= this.items[drop].weight;
      drop++;
    }
    if (drop) this.items = this.items.slice(drop);
  }

  /** Oldest first. */
  list(): RecordedExchange[] {
    return this.items.map((i) => i.recorded);
  }

  get size(): number {
    return this.items.length;
  }

  /** Bytes held, as exchangeWeight counts them. */
  get weight(): number {
    return this.bytes;
  }

  clear(): void {
    this.items = [];
    this.bytes = 0;
  }
}
