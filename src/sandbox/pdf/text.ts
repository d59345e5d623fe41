/**
 * How enumeration values and party blocks read on paper, shared by the BOL, the labels and
 * the archive documents so the same shipment reads the same on each.
 */
import type { BolParty } from './types';

const SERVICE_LEVELS: Readonly<Record<string, string>> = {
  StandardService: 'Standard Service',
  GuaranteedService: 'Guaranteed Service',
  GuaranteedByNoon: 'Guaranteed by Noon',
  GuaranteedHourlyWindow: 'Guaranteed Hourly Window',
  ExpeditedService: 'Expedited Service',
  WeekendExpress: 'Weekend Express',
};

/** `GuaranteedByNoon` -> `Guaranteed by Noon`; unknown values are shown as sent. */
export function serviceLevelTitle(code: string | undefined): string {
  if (!code) return '';
  return SERVICE_LEVELS[code] ?? code;
}

export function isGuaranteed(code: string | undefined): boolean {
  return !!code && code.startsWith('Guaranteed');
}

/** The eight BOLAccessorial values in the catalog's order (src/core/catalog/), with form labels. */
export const BOL_ACCESSORIALS: ReadonlyArray<readonly [string, string]> = [
  ['OriginLiftgate', 'Liftgate at pickup'],
  ['DestinationLiftgate', 'Liftgate at delivery'],
  ['InsidePickup', 'Inside pickup'],
  ['InsideDelivery', 'Inside delivery'],
  ['LimitedAccessPickup', 'Limited access pickup'],
  ['LimitedAccessDelivery', 'Limited access delivery'],
  ['FreezeProtection', 'Freeze protection'],
  ['DeliveryNotification', 'Delivery notification'],
];

function joined(parts: ReadonlyArray<string | undefined>, sep: string): string {
  return parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(sep);
}

/** `Tampa, FL 33635` (plus the country when it is not the US). */
export function cityLine(p: BolParty | undefined): string {
  if (!p) return '';
  const country = (p.ISO3Country ?? '').trim().toUpperCase();
  const place = joined([joined([p.City, p.State], ', '), p.ZipCode], ' ');
  return joined([place, country && country !== 'USA' ? country : undefined], '  ');
}

export function phoneLine(p: BolParty | undefined): string {
  if (!p?.PhoneNumber) return '';
  return p.PhoneExtension ? `${p.PhoneNumber} ext. ${p.PhoneExtension}` : p.PhoneNumber;
}

/** The printable lines of an address block, empty ones dropped. */
export function addressLines(p: BolParty | undefined): string[] {
  if (!p) return [];
  return [p.AddressLine1, p.AddressLine2, cityLine(p)].map((l) => (l ?? '').trim()).filter(Boolean);
}

export function hasContent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(hasContent);
  if (typeof value === 'object') return Object.values(value as object).some(hasContent);
  return true;
}

/** Weight as printed: `1,500` (decimals kept when sent, up to one). */
export function weightText(weight: number | undefined): string {
  if (weight === undefined || !Number.isFinite(weight)) return '';
  const rounded = Math.round(weight * 10) / 10;
  const [whole, frac] = String(rounded).split('.');
  return whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
}
