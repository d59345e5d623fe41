/**
 * Replies read once per distinct reply (docs/load.md, "Judged as carrier run judges"). Under load one
 * test gets byte-identical replies again and again; reading each (decoding, the one reader,
 * redaction) cost more than the rest of the exchange. A memo per prepared request keeps its last
 * few replies — status, status text, Content-Type and body bytes — with what send() made of them:
 * the reply, fault, parsed result, findings and documents, redacted, and the verdict, which these
 * decide. A reply byte-identical to one of them is that very reading; each exchange is still
 * judged on its own (expect, contract, captures, its own timing).
 *
 * What is kept is shared between exchanges, so it is frozen, deeply: nothing downstream may
 * change it (the Exchange is read-only throughout). Bounded: a few replies per memo, none larger
 * than MAX_REPLY_BYTES, and the body bytes held by all the memos of one ReplyMemos at most its
 * budget.
 */
import type { PreparedRequest } from './envelope/prepare';
import type { DecodedDocument, Finding, HttpReply, Judgement, SoapFault } from './exchange';

/** What send() made of one reply body: the same for every byte-identical reply of one prepared request. */
export interface ReadReply {
  readonly reply: HttpReply;
  readonly fault?: SoapFault;
  readonly parsed?: unknown;
  readonly findings: readonly Finding[];
  readonly documents: readonly DecodedDocument[];
  readonly judgement: Judgement;
}

interface Entry {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string | undefined;
  /** A copy of the body: the transport's buffer may be a slice of a shared pool. */
  readonly bytes: Buffer;
  readonly read: ReadReply;
}

/** Replies kept per prepared request. */
export const MAX_REPLIES = 4;
/** A reply larger than this is read each time (documents, long lists): rarely the same twice, and large to hold. */
export const MAX_REPLY_BYTES = 256 * 1024;
/** Body bytes all the memos of one run hold at most. */
export const DEFAULT_BUDGET_BYTES = 16 * 1024 * 1024;

/** The memos of one run (one backend), one per prepared request, sharing a budget of bytes held. */
export class ReplyMemos {
  private readonly memos = new WeakMap<PreparedRequest, ReplyMemo>();
  /** Body bytes held now, across the memos. */
  held = 0;

  constructor(readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  for(prepared: PreparedRequest): ReplyMemo {
    let memo = this.memos.get(prepared);
    if (!memo) this.memos.set(prepared, (memo = new ReplyMemo(this)));
    return memo;
  }
}

export class ReplyMemo {
  /** Most recently used first. */
  private readonly entries: Entry[] = [];

  constructor(private readonly owner: { held: number; readonly budgetBytes: number }) {}

  /** The reading of a byte-identical reply, when one is kept. */
  find(status: number, statusText: string, contentType: string | undefined, body: Buffer): ReadReply | undefined {
    const entries = this.entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.status !== status || e.bytes.length !== body.length || e.statusText !== statusText || e.contentType !== contentType || !e.bytes.equals(body))
        continue;
      if (i > 0) {
        entries.splice(i, 1);
        entries.unshift(e);
      }
      return e.read;
    }
    return undefined;
  }

  /** Keeps a reply's reading (frozen from now on), the least recently used one going when full; returns it. */
  keep(status: number, statusText: string, contentType: string | undefined, body: Buffer, read: ReadReply): ReadReply {
    if (body.length > MAX_REPLY_BYTES) return read;
    const entries = this.entries;
    if (entries.length >= MAX_REPLIES) this.owner.held -= entries.pop()!.bytes.length;
    if (this.owner.held + body.length > this.owner.budgetBytes) return read;
    deepFreeze(read);
    entries.unshift({ status, statusText, contentType, bytes: Buffer.from(body), read });
    this.owner.held += body.length;
    return read;
  }

  /** How many replies are kept (tests). */
  get size(): number {
    return this.entries.length;
  }
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  // A typed array's elements cannot be frozen; none is in a reading (documents are base64 text).
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
