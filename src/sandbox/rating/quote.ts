/**
 * A rate quote from one input: the tariff's charge lines (one per item, then GROSS, DISCNT,
 * DISCNF, accessorials, FUEL, NET) and a price per service level. Pure and deterministic: the
 * same request always gets the same amounts and quote numbers.
 */
import { ACCESSORIAL_CHARGES_CENTS, freightCharges, type ChargeLine } from '../data/tariff';
import { stableHash } from '../json';
import { laneBetween, type Lane } from './lane';
import type { RateInput } from './rateInput';
import { serviceLevelsFor, type ServiceLevelOffer } from './serviceLevels';

export const DEFAULT_DISCOUNT_PERCENT = 68;
export const FUEL_PERCENT = 24.5;

/** Request accessorials that mean a tariff entry under another name. */
const ALIASES: Readonly<Record<string, string>> = { Freezable: 'KeepFromFreezing', FZ: 'KeepFromFreezing' };

/** Charges the shared tariff does not list, for accessorials only rate requests name. */
const RATE_ONLY_CHARGES: Readonly<Record<string, { title: string; cents: number }>> = {
  AirportPickup: { title: 'Airport Pickup', cents: 8_500 },
  AirportDelivery: { title: 'Airport Delivery', cents: 8_500 },
  Tradeshow: { title: 'Trade Show Delivery', cents: 15_000 },
  DishMachineInsideDelivery: { title: 'Dish Machine Inside Delivery', cents: 20_000 },
};

export interface PricedServiceLevel {
  readonly offer: ServiceLevelOffer;
  readonly quoteNumber: string;
  /** What the level adds to standard service. */
  readonly chargeCents: number;
  readonly netCents: number;
}

export interface Quote {
  readonly lane: Lane;
  readonly lines: readonly ChargeLine[];
  readonly netCents: number;
  readonly discountPercent: number;
  readonly fuelPercent: number;
  readonly serviceLevels: readonly PricedServiceLevel[];
  readonly notes: readonly string[];
}

function extraLines(input: RateInput): ChargeLine[] {
  const lines: ChargeLine[] = [];
  for (const a of input.accessorials) {
    const extra = RATE_ONLY_CHARGES[a];
    if (extra) lines.push({ Type: 'ACC', Title: extra.title, amountCents: extra.cents });
  }
  if (input.codAmount > 0 || input.accessorials.includes('COD')) {
    // A flat fee plus 1.5 % of the amount to collect.
    lines.push({ Type: 'ACC', Title: 'COD Fee', amountCents: 3_500 + Math.round(input.codAmount * 1.5) });
  }
  const odPieces = Math.max(input.overDimensionPieces, input.accessorials.includes('OverDimension') ? 1 : 0);
  if (odPieces > 0) lines.push({ Type: 'ACC', Title: `Over Dimension (${odPieces} pcs)`, amountCents: 4_000 * odPieces });
  if (input.declaredValue > 0) {
    // Excess liability: 50 cents per 100 dollars declared.
    lines.push({ Type: 'ACC', Title: 'Excess Liability Coverage', amountCents: Math.round(input.declaredValue * 0.5) });
  }
  return lines;
}

export function quote(input: RateInput): Quote {
  const lane = laneBetween(input.origin, input.destination);
  const notes: string[] = [];
  const palletWeight = input.pallets.reduce((s, p) => s + p.weight * p.quantity, 0);
  if (palletWeight > 0) notes.push(`Pallet weight of ${palletWeight} lb is rated with the first item.`);
  const items = input.items.map((i, n) => ({ freightClass: i.freightClass, weight: i.weight + (n === 0 ? palletWeight : 0) }));
  const discountPercent = input.customerDiscount ?? DEFAULT_DISCOUNT_PERCENT;
  const fuelPercent = input.accessorials.includes('ZeroFuelSurcharge') ? 0 : FUEL_PERCENT;
  const tariffAccessorials = input.accessorials.map((a) => ALIASES[a] ?? a).filter((a) => ACCESSORIAL_CHARGES_CENTS[a]);
  const base = freightCharges({ items, miles: lane.miles, accessorials: tariffAccessorials, discountPercent, fuelPercent });

  const extras = extraLines(input);
  const fuelAt = base.lines.findIndex((l) => l.Type === 'FUEL');
  const extraCents = extras.reduce((s, l) => s + l.amountCents, 0);
  const netCents = base.netCents + extraCents;
  const lines = [...base.lines.slice(0, fuelAt), ...extras, ...base.lines.slice(fuelAt, -1), { ...base.lines[base.lines.length - 1]!, amountCents: netCents }];

  const seed = JSON.stringify([input.version, input.quoteType, input.origin.place, input.destination.place, input.items, input.accessorials, input.codAmount, input.declaredValue, input.overDimensionPieces, input.pallets]);
  const serviceLevels = serviceLevelsFor(lane).map((offer) => {
    const chargeCents = Math.round((netCents * offer.surchargePercent) / 100);
    return { offer, quoteNumber: String(1_000_000 + (stableHash(`${seed}|${offer.code}`) % 9_000_000)), chargeCents, netCents: netCents + chargeCents };
  });
  return { lane, lines, netCents, discountPercent, fuelPercent, serviceLevels, notes };
}
