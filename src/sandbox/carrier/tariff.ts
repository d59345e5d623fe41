/**
 * The sandbox carrier's tariff: a rate per hundredweight by freight class, distance and weight
 * break; the deficit-weight rule; the customer discount; accessorial charges, each charged once
 * whatever name it was asked for by; and the fuel surcharge. It is no real carrier's tariff; it
 * gives believable LTL numbers (a 1,500 lb class 50 pallet over ~700 miles nets a few hundred
 * dollars) in the charge-line layout of docs/carrier-facts.md: one line per item (empty Type),
 * a deficit-weight line when one applies, GROSS, DISCNT, DISCNF, the accessorial lines (ACC),
 * FUEL and NET "Net Charge".
 *
 * Weight breaks: under 1,000 lb, 1,000, 2,000, 5,000 and 10,000 lb and up, each cheaper per
 * hundredweight. Deficit weight: when rating the shipment at a higher break's minimum weight
 * costs less than at its own weight, it is rated there, the missing pounds ("deficit weight")
 * at the break's class 50.0 rate, the tariff's lowest. So more weight never costs less, and
 * adding freight never lowers a price.
 *
 * Money is integer cents, each amount its exact value rounded half up (money.ts). The freight
 * lines under GROSS make one total, rounded once from their exact sum: every line but the last
 * is its own amount rounded half up, and the last is the total less the others, so the lines add
 * up to the gross and rounding cannot make a heavier shipment a cent cheaper.
 */
import { FREIGHT_CLASSES } from '../../core';
import { divHalfUp, dollarsToCents, exactDecimal, percentCents } from './money';

// The 18 classes are the catalog's (src/core/catalog/enumerations.ts): one list for the schema's suggestions and the tariff.
export { FREIGHT_CLASSES };

/** `50`, `50.0`, 55 -> `55.0`; undefined when not one of the 18 classes. */
export function normalizeFreightClass(value: string | number): string | undefined {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n) || (typeof value === 'string' && value.trim() === '')) return undefined;
  const text = n.toFixed(1);
  return (FREIGHT_CLASSES as readonly string[]).includes(text) ? text : undefined;
}

export interface WeightBreak {
  readonly min: number;
  readonly label: string;
  /** Share of the under-1,000 lb rate. */
  readonly factor: number;
}

export const WEIGHT_BREAKS: readonly WeightBreak[] = [
  { min: 0, label: 'under 1,000 lb', factor: 1 },
  { min: 1_000, label: '1,000 lb', factor: 0.93 },
  { min: 2_000, label: '2,000 lb', factor: 0.84 },
  { min: 5_000, label: '5,000 lb', factor: 0.72 },
  { min: 10_000, label: '10,000 lb', factor: 0.62 },
];

export function breakIndex(weight: number): number {
  let i = 0;
  while (i + 1 < WEIGHT_BREAKS.length && weight >= WEIGHT_BREAKS[i + 1]!.min) i++;
  return i;
}

/**
 * Cents per hundredweight at a weight break, before discount. The tariff defines its rates this
 * way (a whole number of cents); every amount is then computed from them exactly.
 */
export function rateCentsPerCwt(freightClass: string | number, miles: number, breakAt: number): number {
  const cls = Number(normalizeFreightClass(freightClass) ?? '100.0');
  // Higher classes (light, bulky freight) cost more per pound, but less than proportionally.
  const classFactor = Math.pow(cls / 100, 0.85);
  const distance = 22 + 0.075 * Math.max(miles, 50);
  return Math.round(distance * classFactor * WEIGHT_BREAKS[breakAt]!.factor * 100);
}

/** Dollars per hundredweight at a weight break, before discount (to the cent). */
export function ratePerCwt(freightClass: string | number, miles: number, breakAt: number): number {
  return rateCentsPerCwt(freightClass, miles, breakAt) / 100;
}

export type ChargeType = '' | 'GROSS' | 'DISCNT' | 'DISCNF' | 'ACC' | 'FUEL' | 'NET';

export interface ChargeLine {
  readonly Type: ChargeType;
  readonly Title: string;
  /** Pounds, for item and deficit-weight lines. */
  readonly weight?: number;
  /** Dollars per hundredweight, for item and deficit-weight lines. */
  readonly ratePerCwt?: number;
  readonly amountCents: number;
}

interface AccessorialCharge {
  readonly title: string;
  readonly cents: number;
}

/**
 * Every accessorial the carrier charges, under one canonical code. The order is the order of
 * the lines, whatever order a request names them in.
 */
const ACCESSORIALS: ReadonlyArray<readonly [code: string, charge: AccessorialCharge]> = [
  ['OriginLiftgate', { title: 'Liftgate Service - Pickup', cents: 9_500 }],
  ['DestinationLiftgate', { title: 'Liftgate Service - Delivery', cents: 9_500 }],
  ['InsidePickup', { title: 'Inside Pickup', cents: 12_000 }],
  ['InsideDelivery', { title: 'Inside Delivery', cents: 12_000 }],
  ['DishMachineInsideDelivery', { title: 'Dish Machine Inside Delivery', cents: 20_000 }],
  ['LimitedAccessPickup', { title: 'Limited Access Pickup', cents: 11_000 }],
  ['LimitedAccessDelivery', { title: 'Limited Access Delivery', cents: 11_000 }],
  ['ResidentialPickup', { title: 'Residential Pickup', cents: 11_500 }],
  ['ResidentialDelivery', { title: 'Residential Delivery', cents: 11_500 }],
  ['AirportPickup', { title: 'Airport Pickup', cents: 8_500 }],
  ['AirportDelivery', { title: 'Airport Delivery', cents: 8_500 }],
  ['Tradeshow', { title: 'Trade Show Delivery', cents: 15_000 }],
  ['DeliveryNotification', { title: 'Delivery Notification', cents: 2_000 }],
  ['FreezeProtection', { title: 'Freeze Protection', cents: 6_000 }],
  ['SortAndSegregate', { title: 'Sort and Segregate', cents: 7_500 }],
  ['Hazmat', { title: 'Hazardous Materials', cents: 4_500 }],
];
const CHARGE_OF: ReadonlyMap<string, AccessorialCharge> = new Map(ACCESSORIALS);
const LINE_ORDER: ReadonlyMap<string, number> = new Map(ACCESSORIALS.map(([code], i) => [code, i]));

/**
 * Other names of the same service: the rate services' freeze protection goes by three names
 * (Freezable, KeepFromFreezing and one client's FZ), the BOL's by a fourth; a pickup's LiftGate
 * is the liftgate at pickup.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  Freezable: 'FreezeProtection',
  KeepFromFreezing: 'FreezeProtection',
  FZ: 'FreezeProtection',
  LiftGate: 'OriginLiftgate',
};

/** The canonical code of an accessorial name (unknown names are returned as they are). */
export function canonicalAccessorial(name: string): string {
  const n = name.trim();
  return SYNONYMS[n] ?? n;
}

/** The distinct canonical accessorials of a request, in line order. */
export function distinctAccessorials(names: readonly string[]): string[] {
  const set = new Set(names.map(canonicalAccessorial));
  return [...set].sort((a, b) => (LINE_ORDER.get(a) ?? 99) - (LINE_ORDER.get(b) ?? 99) || a.localeCompare(b));
}

export const DEFAULT_DISCOUNT_PERCENT = 68;
export const FUEL_PERCENT = 24.5;
export const MINIMUM_GROSS_CENTS = 14_500;
/** COD: a flat fee plus 1.5 % of the amount the driver collects. */
export const COD_FEE = { flatCents: 3_500, percent: 1.5 } as const;
/** Excess liability: 50 cents per 100 dollars of declared value. */
export const EXCESS_LIABILITY_CENTS_PER_100_DOLLARS = 50;
export const OVER_DIMENSION_CENTS_PER_PIECE = 4_000;

export interface TariffItem {
  /** Freight class as sent (`50`, `50.0`, `77.5`). */
  readonly freightClass: string | number;
  readonly weight: number;
}

export interface TariffInput {
  readonly items: readonly TariffItem[];
  readonly miles: number;
  /** Accessorial names in any spelling the services accept; repeats are charged once. */
  readonly accessorials?: readonly string[];
  /** Hazardous items on board: the hazmat charge, once, as if Hazmat were asked for. */
  readonly hazmat?: boolean;
  /** Dollars the driver collects (COD fee); the COD accessorial alone charges the flat fee. */
  readonly codAmount?: number;
  /** Dollars declared above the carrier's standard liability (excess liability charge). */
  readonly declaredValue?: number;
  readonly overDimensionPieces?: number;
  /** Customer discount, percent (the sandbox's default customer has 68 %). */
  readonly discountPercent?: number;
  /** Fuel surcharge, percent of the discounted freight (ZeroFuelSurcharge makes it 0). */
  readonly fuelPercent?: number;
}

export interface Price {
  readonly lines: readonly ChargeLine[];
  readonly grossCents: number;
  /** DISCNF: the base of the fuel surcharge and of every service-level surcharge. */
  readonly discountedCents: number;
  readonly netCents: number;
  readonly discountPercent: number;
  readonly fuelPercent: number;
  /** Weight the freight was rated at (actual plus deficit weight). */
  readonly ratedWeight: number;
  readonly deficitWeight: number;
}

interface Rating {
  readonly at: number;
  /** Cents per hundredweight of each item at this break. */
  readonly rates: number[];
  readonly deficit: number;
  readonly deficitRate: number;
  /** Exact cents of each line (items, then the deficit weight when there is some), over `scale`. */
  readonly parts: bigint[];
  /** Their sum, over `scale`. */
  readonly exact: bigint;
}

/** Pounds as an exact count of 1/`scale` pounds. */
function scaledPounds(weight: number, scale: bigint): bigint {
  const w = exactDecimal(weight);
  return (w.num * scale) / w.den;
}

function rateAt(items: readonly TariffItem[], miles: number, at: number, scale: bigint): Rating {
  const rates = items.map((i) => rateCentsPerCwt(i.freightClass, miles, at));
  const pounds = items.map((i) => scaledPounds(i.weight, scale));
  const missing = BigInt(WEIGHT_BREAKS[at]!.min) * scale - pounds.reduce((a, b) => a + b, 0n);
  const deficitRate = rateCentsPerCwt('50.0', miles, at);
  // cents = pounds × (cents per 100 lb) / 100: over `scale` × 100 the division is exact.
  const parts = pounds.map((w, n) => w * BigInt(rates[n]!));
  if (missing > 0n) parts.push(missing * BigInt(deficitRate));
  const deficit = missing > 0n ? Number(missing) / Number(scale) : 0;
  return { at, rates, deficit, deficitRate, parts, exact: parts.reduce((a, b) => a + b, 0n) };
}

/** 10^k for the most decimals any weight has: every weight is a whole number of 1/scale pounds. */
function weightScale(items: readonly TariffItem[]): bigint {
  return items.reduce((m, i) => {
    const d = exactDecimal(i.weight).den;
    return d > m ? d : m;
  }, 1n);
}

/** The freight charge and its lines. Pure: the same input always gives the same lines. */
export function price(input: TariffInput): Price {
  const discountPercent = input.discountPercent ?? DEFAULT_DISCOUNT_PERCENT;
  const fuelPercent = input.fuelPercent ?? FUEL_PERCENT;
  const scale = weightScale(input.items);
  const total = Number(input.items.reduce((sum, i) => sum + scaledPounds(i.weight, scale), 0n)) / Number(scale);
  let best = rateAt(input.items, input.miles, breakIndex(total), scale);
  for (let at = best.at + 1; at < WEIGHT_BREAKS.length; at++) {
    const candidate = rateAt(input.items, input.miles, at, scale);
    if (candidate.exact < best.exact) best = candidate;
  }
  const over = scale * 100n;
  const rated = Number(divHalfUp(best.exact, over));
  // Every line half up but the last, which is the total less the others (the lines add up).
  const cents = best.parts.map((p) => Number(divHalfUp(p, over)));
  if (cents.length) cents[cents.length - 1] = rated - cents.slice(0, -1).reduce((a, b) => a + b, 0);
  const lines: ChargeLine[] = input.items.map((item, n) => ({
    Type: '',
    Title: `Class ${normalizeFreightClass(item.freightClass) ?? String(item.freightClass)}`,
    weight: item.weight,
    ratePerCwt: best.rates[n]! / 100,
    amountCents: cents[n]!,
  }));
  if (best.deficit > 0) {
    lines.push({
      Type: '',
      Title: `Deficit Weight (rated at ${WEIGHT_BREAKS[best.at]!.label})`,
      weight: best.deficit,
      ratePerCwt: best.deficitRate / 100,
      amountCents: cents[cents.length - 1]!,
    });
  }
  const gross = Math.max(rated, MINIMUM_GROSS_CENTS);
  const discount = percentCents(gross, discountPercent);
  const discounted = gross - discount;
  lines.push({ Type: 'GROSS', Title: 'Gross Charge', amountCents: gross });
  lines.push({ Type: 'DISCNT', Title: `Discount (${discountPercent}%)`, amountCents: -discount });
  lines.push({ Type: 'DISCNF', Title: 'Discounted Freight Charge', amountCents: discounted });

  let extras = 0;
  const add = (title: string, amountCents: number): void => {
    extras += amountCents;
    lines.push({ Type: 'ACC', Title: title, amountCents });
  };
  const asked = distinctAccessorials([...(input.accessorials ?? []), ...(input.hazmat ? ['Hazmat'] : [])]);
  for (const code of asked) {
    const charge = CHARGE_OF.get(code);
    if (charge) add(charge.title, charge.cents);
  }
  const codAmount = Math.max(0, input.codAmount ?? 0);
  if (codAmount > 0 || asked.includes('COD')) add('COD Fee', COD_FEE.flatCents + percentCents(dollarsToCents(codAmount), COD_FEE.percent));
  const odPieces = Math.max(input.overDimensionPieces ?? 0, asked.includes('OverDimension') ? 1 : 0);
  if (odPieces > 0) add(`Over Dimension (${odPieces} pcs)`, OVER_DIMENSION_CENTS_PER_PIECE * odPieces);
  const declared = Math.max(0, input.declaredValue ?? 0);
  if (declared > 0)
    add('Excess Liability Coverage', Number(divHalfUp(BigInt(dollarsToCents(declared)) * BigInt(EXCESS_LIABILITY_CENTS_PER_100_DOLLARS), 10_000n)));

  const fuel = percentCents(discounted, fuelPercent);
  lines.push({ Type: 'FUEL', Title: `Fuel Surcharge (${fuelPercent}%)`, amountCents: fuel });
  const net = discounted + extras + fuel;
  lines.push({ Type: 'NET', Title: 'Net Charge', amountCents: net });
  return {
    lines,
    grossCents: gross,
    discountedCents: discounted,
    netCents: net,
    discountPercent,
    fuelPercent,
    ratedWeight: total + best.deficit,
    deficitWeight: best.deficit,
  };
}

/** What a service level adds: its percentage of the discounted freight charge (serviceLevels.ts). */
export function surchargeCents(p: Pick<Price, 'discountedCents'>, surchargePercent: number): number {
  return percentCents(p.discountedCents, surchargePercent);
}
