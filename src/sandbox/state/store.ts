/**
 * The sandbox's state: the seeded shipment history (a pure function of the start time, never
 * stored) plus the bills of lading and pickups clients create (in memory, and with a data folder
 * persisted atomically after every change, before the reply goes out).
 */
import * as path from 'node:path';
import { seededShipments, type Shipment } from '../data/shipments';
import type { JsonObject } from '../../core';
import { shipmentFromBol } from './bolShipment';
import { AtomicJsonFile } from './persist';
import type { CreatedBol, CreatedPickup, PersistedState } from './records';

/** BolID of the seeded sample bill of lading (the sample shipment, PRO 056391174). */
export const SEEDED_BOL_ID = 1;

const FIRST_BOL_ID = 1001;
const FIRST_PRO_SEQUENCE = 20_000_001;
const FIRST_PICKUP_ID = 7_000_001;

export const STATE_FILE = 'sandbox-state.json';

/** 8-digit sequence plus a mod-7 check digit, the check most LTL PRO numbers carry. */
export function proFromSequence(sequence: number): string {
  const base = String(sequence).padStart(8, '0');
  return `${base}${sequence % 7}`;
}

export class SandboxStore {
  private seeded?: Shipment[];
  private readonly bols = new Map<number, CreatedBol>();
  private readonly pickups = new Map<number, CreatedPickup>();
  private readonly shipmentCache = new Map<number, Shipment>();
  private next = { bol: FIRST_BOL_ID, pro: FIRST_PRO_SEQUENCE, pickup: FIRST_PICKUP_ID };
  private readonly file?: AtomicJsonFile;
  /** Answers that are not kept (transit-time lookups) still get distinct ids. */
  private lookups = 880_001;

  private constructor(private readonly anchor: Date, dataDir: string | undefined, private readonly log: (line: string) => void) {
    if (!dataDir) return;
    this.file = new AtomicJsonFile(path.join(dataDir, STATE_FILE), () => this.snapshot());
    const loaded = this.file.load(log) as PersistedState | undefined;
    if (loaded?.format === 1) {
      for (const b of loaded.bols) this.bols.set(b.bolId, b);
      for (const p of loaded.pickups) this.pickups.set(p.id, p);
      this.next = { ...this.next, ...loaded.next };
      log(`state: ${this.bols.size} bill(s) of lading and ${this.pickups.size} pickup(s) from ${this.file.file}`);
    }
  }

  static open(anchor: Date, dataDir: string | undefined, log: (line: string) => void): SandboxStore {
    return new SandboxStore(anchor, dataDir, log);
  }

  private snapshot(): PersistedState {
    return { format: 1, next: { ...this.next }, bols: [...this.bols.values()], pickups: [...this.pickups.values()] };
  }

  /** The seeded history; the sample shipment doubles as bill of lading 1. Built on first use. */
  seededShipments(): readonly Shipment[] {
    if (!this.seeded) {
      this.seeded = seededShipments(this.anchor);
      this.seeded[0] = { ...this.seeded[0]!, bolId: SEEDED_BOL_ID };
    }
    return this.seeded;
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
  private pickupInfoFor(bolId: number): JsonObject | undefined {
    const own = this.bols.get(bolId)?.pickupRequestInfo;
    if (own) return own;
    const linked = [...this.pickups.values()].filter((p) => p.linkedBolId === bolId).pop();
    const info = linked?.pickup.PickupInformation;
    return info && typeof info === 'object' && !Array.isArray(info) ? (info as JsonObject) : undefined;
  }

  /** Every shipment a trace can find: the seeded history, then the ones created here. */
  allShipments(): Shipment[] {
    const created = [...this.bols.keys()].map((id) => this.createdShipment(id)).filter((s): s is Shipment => s !== undefined);
    return [...this.seededShipments(), ...created];
  }

  shipmentByBolId(bolId: number): Shipment | undefined {
    return this.createdShipment(bolId) ?? this.seededShipments().find((s) => s.bolId === bolId);
  }

  shipmentByPro(pro: string): Shipment | undefined {
    const wanted = pro.trim().toUpperCase();
    if (!wanted) return undefined;
    return this.allShipments().find((s) => s.proNumber.toUpperCase() === wanted || (/^\d+$/.test(wanted) && s.proNumber.replace(/^0+/, '') === wanted.replace(/^0+/, '')));
  }

  createdBol(bolId: number): CreatedBol | undefined {
    return this.bols.get(bolId);
  }

  pickup(id: number): CreatedPickup | undefined {
    return this.pickups.get(id);
  }

  /** Records a new bill of lading (and its pickup number when one is asked for). Call commit() before replying. */
  addBol(billOfLading: JsonObject, now: Date, pickupRequestInfo?: JsonObject): CreatedBol {
    const bolId = this.next.bol++;
    const pro = proFromSequence(this.next.pro++);
    const bol: CreatedBol = {
      bolId,
      pro,
      createdAt: now.toISOString(),
      billOfLading,
      ...(pickupRequestInfo ? { pickupRequestNumber: String(this.next.pickup++), pickupRequestInfo } : {}),
    };
    this.bols.set(bolId, bol);
    return bol;
  }

  addPickup(pickup: JsonObject, now: Date, linkedBolId: number | undefined, terminalCode: string | undefined, id?: number): CreatedPickup {
    const record: CreatedPickup = {
      id: id ?? this.next.pickup++,
      createdAt: now.toISOString(),
      pickup,
      ...(linkedBolId !== undefined ? { linkedBolId } : {}),
      ...(terminalCode ? { terminalCode } : {}),
    };
    this.pickups.set(record.id, record);
    // The linked bill of lading is now picked up on the pickup's day: plan it again.
    if (linkedBolId !== undefined) this.shipmentCache.delete(linkedBolId);
    return record;
  }

  nextLookupId(): number {
    return this.lookups++;
  }

  /** Resolves when every change made so far is on disk (at once without a data folder). */
  commit(): Promise<void> {
    return this.file ? this.file.save() : Promise.resolve();
  }

  async close(): Promise<void> {
    await this.file?.flush();
  }
}
