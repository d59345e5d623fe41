/**
 * The sandbox's state: the seeded shipment history (a pure function of the start time, never
 * stored) plus the bills of lading and pickups clients create. With a data folder, the folder is
 * locked while the sandbox runs (lock.ts) and every change is appended to a journal and flushed
 * to disk before its reply goes out (persist.ts).
 *
 * Changes are made in a call's StoreChanges: visible at once, kept only when the call's reply has
 * been written (commit), taken back when it fails (rollback), so a request that ends in a fault
 * leaves nothing behind. Shipments are indexed by every trace number, so no lookup walks them all.
 */
import type { JsonObject } from '../../core';
import { formatUsDate, type Shipment, type TraceType } from '../carrier';
import { seededShipments } from '../history/seeded';
import { TraceIndex } from '../trace/find';
import { ownPickup, shipmentFromBol, traceKeysOf, type PickupAsked } from './bolShipment';
import { FIRST_COUNTERS, safeCounters } from './counters';
import { DataDirLock } from './lock';
import { setStateAside } from './names';
import { StateFiles } from './persist';
import type { Counters, CreatedBol, CreatedPickup, JournalEntry, PersistedState } from './records';

export { STATE_FILE } from './persist';
export { SandboxStateUnreadableError } from './unreadable';

/** BolID of the seeded sample bill of lading (the sample shipment, PRO 056391174). */
export const SEEDED_BOL_ID = 1;

/** 8-digit sequence plus a mod-7 check digit, the check most LTL PRO numbers carry. */
export function proFromSequence(sequence: number): string {
  const base = String(sequence).padStart(8, '0');
  return `${base}${sequence % 7}`;
}

/** What an operation handler may change; see OperationCall.changes. */
export interface StoreChanges {
  /** Records a new bill of lading (and its pickup number when one is asked for). */
  addBol(billOfLading: JsonObject, now: Date, pickupRequestInfo?: JsonObject): CreatedBol;
  addPickup(pickup: JsonObject, now: Date, linkedBolId: number | undefined, terminalCode: string | undefined): CreatedPickup;
}

export class SandboxStore {
  private seeded?: Shipment[];
  private seededIndex?: TraceIndex;
  private seededByBolId?: Map<number, Shipment>;
  private readonly createdIndex = new TraceIndex();
  private readonly bols = new Map<number, CreatedBol>();
  private readonly pickups = new Map<number, CreatedPickup>();
  /** Pickups that link each bill of lading, oldest first: the latest decides when it is collected. */
  private readonly pickupsByBol = new Map<number, number[]>();
  private readonly shipmentCache = new Map<number, Shipment>();
  /** Made by a call whose reply is not written yet: never in a snapshot, gone if the call fails. */
  private readonly uncommitted = new Set<CreatedBol | CreatedPickup>();
  private next: Counters = { ...FIRST_COUNTERS };
  /** Answers that are not kept (transit-time lookups) still get distinct ids. */
  private lookups = 880_001;

  private constructor(
    private readonly anchor: Date,
    private readonly files: StateFiles | undefined,
    private readonly lock: DataDirLock | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Without a data folder the state lives in memory. With one: locks it (SandboxLockedError when
   * another sandbox holds it), replays snapshot and journal (SandboxStateUnreadableError when one
   * does not read), and writes a fresh snapshot. `resetData` first moves the old state files into
   * a backup folder beside them, so the sandbox starts empty. Ids continue above every stored one
   * whatever the files' counters say (counters.ts).
   */
  static async open(anchor: Date, dataDir: string | undefined, log: (line: string) => void, resetData = false): Promise<SandboxStore> {
    if (!dataDir) return new SandboxStore(anchor, undefined, undefined, log);
    const lock = DataDirLock.acquire(dataDir, log);
    try {
      if (resetData) {
        const backup = setStateAside(dataDir);
        log(backup ? `state: starting empty; the old state files were moved to ${backup}` : `state: starting empty (there was no state in ${dataDir})`);
      }
      const { files, state } = StateFiles.open(dataDir, log);
      const store = new SandboxStore(anchor, files, lock, log);
      for (const b of state.bols) store.putBol(b);
      for (const p of state.pickups) store.putPickup(p);
      const { next, notes } = safeCounters(state.next, state.bols, state.pickups);
      store.next = next;
      for (const note of notes) log(`state: ${note}`);
      if (state.bols.length || state.pickups.length) log(`state: ${state.bols.length} bill(s) of lading and ${state.pickups.length} pickup(s) from ${dataDir}`);
      // One snapshot holding everything: the journals replayed above are folded in and removed.
      await files.compact((journal) => store.snapshot(journal));
      return store;
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /** Names the sandbox's address in the data folder's lock. */
  async listening(url: string): Promise<void> {
    this.lock?.setUrl(url);
  }

  private snapshot(journal: number): PersistedState {
    const bols: CreatedBol[] = [];
    const pickups: CreatedPickup[] = [];
    for (const b of this.bols.values()) if (!this.uncommitted.has(b)) bols.push(b);
    for (const p of this.pickups.values()) if (!this.uncommitted.has(p)) pickups.push(p);
    return { format: 2, journal, next: { ...this.next }, bols, pickups };
  }

  /** The seeded history; the sample shipment doubles as bill of lading 1. Built on first use. */
  seededShipments(): readonly Shipment[] {
    if (!this.seeded) {
      this.seeded = seededShipments(this.anchor);
      this.seeded[0] = { ...this.seeded[0]!, bolId: SEEDED_BOL_ID };
    }
    return this.seeded;
  }

  private seededLookups(): { index: TraceIndex; byBolId: Map<number, Shipment> } {
    if (!this.seededIndex || !this.seededByBolId) {
      const index = new TraceIndex();
      const byBolId = new Map<number, Shipment>();
      this.seededShipments().forEach((s, i) => {
        index.add(i, s);
        if (!byBolId.has(s.bolId)) byBolId.set(s.bolId, s);
      });
      this.seededIndex = index;
      this.seededByBolId = byBolId;
    }
    return { index: this.seededIndex, byBolId: this.seededByBolId };
  }

  createdShipment(bolId: number): Shipment | undefined {
    const bol = this.bols.get(bolId);
    if (!bol) return undefined;
    let s = this.shipmentCache.get(bolId);
    if (!s) {
      try {
        s = shipmentFromBol(bol, this.pickupInfoFor(bolId));
      } catch (e) {
        // A hand-edited or older state file must not break every trace: that one BOL is skipped.
        this.log(`state: bill of lading ${bolId} cannot be planned (${e instanceof Error ? e.message : String(e)}); skipped`);
        return undefined;
      }
      this.shipmentCache.set(bolId, s);
    }
    return s;
  }

  /** When the freight is to be picked up: the BOL's own pickup request, else the latest pickup that links it. */
  private pickupInfoFor(bolId: number): PickupAsked | undefined {
    const bol = this.bols.get(bolId);
    const own = bol && ownPickup(bol);
    if (own) return own;
    const ids = this.pickupsByBol.get(bolId);
    const linked = ids?.length ? this.pickups.get(ids[ids.length - 1]!) : undefined;
    const info = linked?.pickup.PickupInformation;
    return info && typeof info === 'object' && !Array.isArray(info) ? { info: info as JsonObject, requestedAt: new Date(linked!.createdAt) } : undefined;
  }

  /** The shipments a trace number refers to: the seeded history first, then the ones created here, each in its order. */
  findShipments(type: TraceType, number: string): Shipment[] {
    const { index } = this.seededLookups();
    const seeded = this.seededShipments();
    const out = index.find(type, number).map((i) => seeded[i]!);
    for (const bolId of this.createdIndex.find(type, number)) {
      const s = this.createdShipment(bolId);
      if (s) out.push(s);
    }
    return out;
  }

  shipmentByBolId(bolId: number): Shipment | undefined {
    return this.createdShipment(bolId) ?? this.seededLookups().byBolId.get(bolId);
  }

  shipmentByPro(pro: string): Shipment | undefined {
    const wanted = pro.trim().toUpperCase();
    if (!wanted) return undefined;
    // Leading zeros may be dropped from an all-digit PRO; nothing else is forgiven here.
    if (!/^\d+$/.test(wanted) && /^[\d\s-]+$/.test(wanted)) return undefined;
    return this.findShipments('PRO', wanted)[0];
  }

  /**
   * The pickup that already collects a bill of lading, in words, or undefined: its own pickup
   * request, a pickup linked to it since, or (for the seeded history, whose bills of lading were
   * all booked with their pickups) the pickup the history schedules.
   */
  pickupOf(bolId: number): string | undefined {
    const created = this.bols.get(bolId);
    if (created) {
      if (created.pickupRequestNumber) return `pickup request ${created.pickupRequestNumber}`;
      const ids = this.pickupsByBol.get(bolId);
      return ids?.length ? `pickup request ${ids[ids.length - 1]}` : undefined;
    }
    const seeded = this.seededLookups().byBolId.get(bolId);
    return seeded ? `a pickup scheduled for ${formatUsDate(seeded.pickupDay)}` : undefined;
  }

  createdBol(bolId: number): CreatedBol | undefined {
    return this.bols.get(bolId);
  }

  pickup(id: number): CreatedPickup | undefined {
    return this.pickups.get(id);
  }

  nextLookupId(): number {
    return this.lookups++;
  }

  /** A call's changes; see StoreChanges. */
  begin(log: (line: string) => void = this.log): StoreTransaction {
    return new StoreTransaction(this, log);
  }

  /** @internal StoreTransaction's */
  applyBol(billOfLading: JsonObject, now: Date, pickupRequestInfo: JsonObject | undefined): CreatedBol {
    // The counters start above every stored id (counters.ts); this keeps it so whatever happens.
    while (this.bols.has(this.next.bol)) this.next = { ...this.next, bol: this.next.bol + 1 };
    while (pickupRequestInfo && this.pickups.has(this.next.pickup)) this.next = { ...this.next, pickup: this.next.pickup + 1 };
    const bolId = this.next.bol;
    const bol: CreatedBol = {
      bolId,
      pro: proFromSequence(this.next.pro),
      createdAt: now.toISOString(),
      billOfLading,
      ...(pickupRequestInfo ? { pickupRequestNumber: String(this.next.pickup), pickupRequestInfo } : {}),
    };
    this.next = { bol: this.next.bol + 1, pro: this.next.pro + 1, pickup: this.next.pickup + (pickupRequestInfo ? 1 : 0) };
    this.uncommitted.add(bol);
    this.putBol(bol);
    return bol;
  }

  /** @internal StoreTransaction's */
  applyPickup(pickup: JsonObject, now: Date, linkedBolId: number | undefined, terminalCode: string | undefined): CreatedPickup {
    while (this.pickups.has(this.next.pickup)) this.next = { ...this.next, pickup: this.next.pickup + 1 };
    const record: CreatedPickup = {
      id: this.next.pickup,
      createdAt: now.toISOString(),
      pickup,
      ...(linkedBolId !== undefined ? { linkedBolId } : {}),
      ...(terminalCode ? { terminalCode } : {}),
    };
    this.next = { ...this.next, pickup: this.next.pickup + 1 };
    this.uncommitted.add(record);
    this.putPickup(record);
    return record;
  }

  private putBol(bol: CreatedBol): void {
    const before = this.bols.get(bol.bolId);
    if (before) this.createdIndex.remove(before.bolId, traceKeysOf(before));
    this.bols.set(bol.bolId, bol);
    this.shipmentCache.delete(bol.bolId);
    this.createdIndex.add(bol.bolId, traceKeysOf(bol));
  }

  private putPickup(p: CreatedPickup): void {
    this.pickups.set(p.id, p);
    if (p.linkedBolId !== undefined) {
      const ids = this.pickupsByBol.get(p.linkedBolId) ?? [];
      ids.push(p.id);
      this.pickupsByBol.set(p.linkedBolId, ids);
      // The linked bill of lading is now picked up on the pickup's day: plan it again.
      this.shipmentCache.delete(p.linkedBolId);
    }
  }

  /** @internal StoreTransaction's: a change that is not kept. Its ids stay used. */
  takeBack(record: { bol: CreatedBol } | { pickup: CreatedPickup }): void {
    if ('bol' in record) {
      const b = record.bol;
      this.uncommitted.delete(b);
      if (this.bols.get(b.bolId) !== b) return;
      this.bols.delete(b.bolId);
      this.shipmentCache.delete(b.bolId);
      this.createdIndex.remove(b.bolId, traceKeysOf(b));
      return;
    }
    const p = record.pickup;
    this.uncommitted.delete(p);
    if (this.pickups.get(p.id) !== p) return;
    this.pickups.delete(p.id);
    if (p.linkedBolId !== undefined) {
      const ids = this.pickupsByBol.get(p.linkedBolId);
      const i = ids?.lastIndexOf(p.id) ?? -1;
      if (ids && i >= 0) ids.splice(i, 1);
      if (ids && !ids.length) this.pickupsByBol.delete(p.linkedBolId);
      this.shipmentCache.delete(p.linkedBolId);
    }
  }

  /** @internal StoreTransaction's: the changes are kept; resolves once they are on disk. */
  async keep(entries: readonly { bol?: CreatedBol; pickup?: CreatedPickup }[]): Promise<void> {
    for (const e of entries) this.uncommitted.delete((e.bol ?? e.pickup)!);
    if (!this.files) return;
    const next = { ...this.next };
    await Promise.all(entries.map((e) => this.files!.append({ ...e, next } as JournalEntry)));
    if (this.files.dueForCompaction) void this.files.compact((journal) => this.snapshot(journal));
  }

  /** Finishes the writes under way, folds the journal into the snapshot and unlocks the data folder. */
  async close(): Promise<void> {
    try {
      await this.files?.close((journal) => this.snapshot(journal));
    } finally {
      this.lock?.release();
    }
  }
}

/** The changes of one operation call. */
export class StoreTransaction implements StoreChanges {
  private readonly made: ({ bol: CreatedBol } | { pickup: CreatedPickup })[] = [];
  private done = false;

  constructor(
    private readonly store: SandboxStore,
    private readonly log: (line: string) => void,
  ) {}

  addBol(billOfLading: JsonObject, now: Date, pickupRequestInfo?: JsonObject): CreatedBol {
    this.open();
    const bol = this.store.applyBol(billOfLading, now, pickupRequestInfo);
    this.made.push({ bol });
    return bol;
  }

  addPickup(pickup: JsonObject, now: Date, linkedBolId: number | undefined, terminalCode: string | undefined): CreatedPickup {
    this.open();
    const record = this.store.applyPickup(pickup, now, linkedBolId, terminalCode);
    this.made.push({ pickup: record });
    return record;
  }

  private open(): void {
    if (this.done) throw new Error('changes after the call was committed or taken back');
  }

  /** Keeps the changes; resolves once they are on disk (at once without a data folder). On failure they are taken back. */
  async commit(): Promise<void> {
    this.open();
    this.done = true;
    if (!this.made.length) return;
    try {
      await this.store.keep(this.made);
    } catch (e) {
      for (const m of [...this.made].reverse()) this.store.takeBack(m);
      throw e;
    }
    for (const m of this.made) {
      if ('bol' in m)
        this.log(`  created bill of lading ${m.bol.bolId}, PRO ${m.bol.pro}${m.bol.pickupRequestNumber ? `, pickup ${m.bol.pickupRequestNumber}` : ''}`);
      else this.log(`  created pickup ${m.pickup.id}${m.pickup.linkedBolId !== undefined ? ` for bill of lading ${m.pickup.linkedBolId}` : ''}`);
    }
  }

  /** Takes the changes back: the call failed, its reply is a fault. */
  rollback(): void {
    if (this.done) return;
    this.done = true;
    for (const m of [...this.made].reverse()) this.store.takeBack(m);
  }
}
