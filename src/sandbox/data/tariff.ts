/**
 * The sandbox's freight tariff: a class- and distance-based price per hundredweight, a
 * customer discount, fuel surcharge and accessorial charges. It is not any carrier's real
 * tariff; it only has to produce believable LTL numbers (a 1,500 lb class 50 pallet over
 * ~700 miles nets a few hundred dollars) and the charge-line layout of service-facts §6.4:
 * one line per item (empty Type), then GROSS, DISCNT, DISCNF, FUEL, NET ("Net Charge"), with
 * accessorials between DISCNF and FUEL as the invoice shows them.
 *
 * Amounts are integer cents so totals add up exactly.
 */

export interface TariffItem {
  /** Freight class as sent (`50`, `50.0`, `77.5`). */
  readonly freightClass: string | number;
  readonly weight: number;
}

export type ChargeType = '' | 'GROSS' | 'DISCNT' | 'DISCNF' | 'ACC' | 'FUEL' | 'NET';

export interface ChargeLine {
  readonly Type: ChargeType;
  readonly Title: string;
  /** Pounds, for item lines. */
  readonly weight?: number;
  /** Dollars per hundredweight, for item lines. */
  readonly ratePerCwt?: number;
  readonly amountCents: number;
}

/** What the sandbox charges for each accessorial the BOL and rate services name. */
export const ACCESSORIAL_CHARGES_CENTS: Readonly<Record<string, { title: string; cents: number }>> = {
  OriginLiftgate: { title: 'Liftgate Service - Pickup', cents: 9_500 },
  DestinationLiftgate: { title: 'Liftgate Service - Delivery', cents: 9_500 },
  LiftGate: { title: 'Liftgate Service', cents: 9_500 },
  InsidePickup: { title: 'Inside Pickup', cents: 12_000 },
  InsideDelivery: { title: 'Inside Delivery', cents: 12_000 },
  LimitedAccessPickup: { title: 'Limited Access Pickup', cents: 11_000 },
  LimitedAccessDelivery: { title: 'Limited Access Delivery', cents: 11_000 },
  ResidentialPickup: { title: 'Residential Pickup', cents: 11_500 },
  ResidentialDelivery: { title: 'Residential Delivery', cents: 11_500 },
  DeliveryNotification: { title: 'Delivery Notification', cents: 2_000 },
  FreezeProtection: { title: 'Freeze Protection', cents: 6_000 },
  KeepFromFreezing: { title: 'Freeze Protection', cents: 6_000 },
  Hazmat: { title: 'Hazardous Materials', cents: 4_500 },
  SortAndSegregate: { title: 'Sort and Segregate', cents: 7_500 },
};

export const FREIGHT_CLASSES = [
  '50.0', '55.0', '60.0', '65.0', '70.0', '77.5', '85.0', '92.5', '100.0',
  '110.0', '125.0', '150.0', '175.0', '200.0', '250.0', '300.0', '400.0', '500.0',
] as const;

/** `50`, `50.0`, 55 -> `55.0`; undefined when not one of the 18 classes. */
export function normalizeFreightClass(value: string | number): string | undefined {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n)) return undefined;
  const text = n.toFixed(1);
  return (FREIGHT_CLASSES as readonly string[]).includes(text) ? text : undefined;
}

/** Dollars per hundredweight before discount. */
export function ratePerCwt(freightClass: string | number, miles: number, weight: number): number {
  const cls = Number(normalizeFreightClass(freightClass) ?? '100.0');
  // Higher classes (light, bulky freight) cost more per pound, but less than proportionally.
  const classFactor = Math.pow(cls / 100, 0.85);
  const distance = 22 + 0.075 * Math.max(miles, 50);
  // Heavier shipments earn weight breaks, as in every LTL tariff.
  const weightBreak = weight >= 10_000 ? 0.62 : weight >= 5_000 ? 0.72 : weight >= 2_000 ? 0.84 : weight >= 1_000 ? 0.93 : 1;
  return Math.round(distance * classFactor * weightBreak * 100) / 100;
}

export interface TariffInput {
  readonly items: readonly TariffItem[];
  readonly miles: number;
  readonly accessorials?: readonly string[];
  /** Customer discount, percent (the sandbox's default customer has 68 %). */
  readonly discountPercent?: number;
  /** Fuel surcharge, percent of the discounted freight. */
  readonly fuelPercent?: number;
}

const MINIMUM_GROSS_CENTS = 14_500;

export function freightCharges(input: TariffInput): { lines: ChargeLine[]; netCents: number } {
  const discountPercent = input.discountPercent ?? 68;
  const fuelPercent = input.fuelPercent ?? 24.5;
  const totalWeight = input.items.reduce((sum, i) => sum + i.weight, 0);
  const lines: ChargeLine[] = input.items.map((item) => {
    const rate = ratePerCwt(item.freightClass, input.miles, totalWeight);
    const cls = normalizeFreightClass(item.freightClass) ?? String(item.freightClass);
    return {
      Type: '',
      Title: `Class ${cls}`,
      weight: item.weight,
      ratePerCwt: rate,
      amountCents: Math.round((item.weight / 100) * rate * 100),
    };
  });
  const itemCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const gross = Math.max(itemCents, MINIMUM_GROSS_CENTS);
  const discount = Math.round((gross * discountPercent) / 100);
  const discounted = gross - discount;
  lines.push({ Type: 'GROSS', Title: 'Gross Charge', amountCents: gross });
  lines.push({ Type: 'DISCNT', Title: `Discount (${discountPercent}%)`, amountCents: -discount });
  lines.push({ Type: 'DISCNF', Title: 'Discounted Freight Charge', amountCents: discounted });
  let accessorialCents = 0;
  for (const code of input.accessorials ?? []) {
    const acc = ACCESSORIAL_CHARGES_CENTS[code];
    if (!acc) continue;
    accessorialCents += acc.cents;
    lines.push({ Type: 'ACC', Title: acc.title, amountCents: acc.cents });
  }
  const fuel = Math.round((discounted * fuelPercent) / 100);
  lines.push({ Type: 'FUEL', Title: `Fuel Surcharge (${fuelPercent}%)`, amountCents: fuel });
  const net = discounted + accessorialCents + fuel;
  lines.push({ Type: 'NET', Title: 'Net Charge', amountCents: net });
  return { lines, netCents: net };
}
