/** What the sandbox keeps of the things clients create: exactly what is persisted. */
import type { JsonObject } from '../../core';

export interface CreatedBol {
  readonly bolId: number;
  /** The WebProNumber: 9 digits. */
  readonly pro: string;
  /** ISO instant of creation (the sandbox clock). */
  readonly createdAt: string;
  /** The BillOfLading record as bound from the request: echoed in replies, printed on PDFs. */
  readonly billOfLading: JsonObject;
  /** Set when the BOL was created with AddPickupRequest. */
  readonly pickupRequestNumber?: string;
  readonly pickupRequestInfo?: JsonObject;
}

export interface CreatedPickup {
  /** PickupRequestID and Pickup.Id (text), Result.Id (int). */
  readonly id: number;
  readonly createdAt: string;
  /** The Pickup record as bound from the request (or built from a BOL's PickupRequestInfo). */
  readonly pickup: JsonObject;
  readonly linkedBolId?: number;
  readonly terminalCode?: string;
}

/** The next BolID, PRO sequence and pickup id to hand out. */
export interface Counters {
  readonly bol: number;
  readonly pro: number;
  readonly pickup: number;
}

/**
 * `sandbox-state.json`. Format 1 (before the journal) is read as a snapshot with no journal
 * after it; format 2 names the first journal generation it does not hold.
 */
export type PersistedState =
  | { readonly format: 1; readonly next: Counters; readonly bols: readonly CreatedBol[]; readonly pickups: readonly CreatedPickup[] }
  | { readonly format: 2; readonly journal: number; readonly next: Counters; readonly bols: readonly CreatedBol[]; readonly pickups: readonly CreatedPickup[] };

/** One line of a journal: one change, and the counters as they stood after it. */
export interface JournalEntry {
  readonly bol?: CreatedBol;
  readonly pickup?: CreatedPickup;
  readonly next: Counters;
}
