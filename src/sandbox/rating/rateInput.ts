/**
 * The three GetRateQuote request shapes (1.0.0, 1.0.1, 1.0.3) brought to one input, with the
 * leniency real clients need and the business errors the reference carrier gives.
 *
 * Leniency, as .NET binds value types (service-facts §14: real clients leave these out and get
 * quotes): a missing QuoteType is Domestic (the reference carrier's own enumeration lists
 * Domestic first, so that is what an unset value means there); missing CODAmount, DeclaredValue,
 * OverDimensionPcs and item Width/Height/Length are 0. Each default is reported as a note.
 * Strict: an item needs a weight above 0 and one of the 18 freight classes (written 50, "50",
 * 55.0 or "50.0" alike); both points need a country and a real postal code.
 */
import type { JsonObject } from '../../core';
import { normalizeFreightClass, FREIGHT_CLASSES } from '../data/tariff';
import { arr, num, obj, records } from '../json';
import { text } from '../rules/formats';
import { laneEnd, type LaneEnd } from './lane';

export interface RateItem {
  readonly freightClass: string;
  readonly weight: number;
  readonly width: number;
  readonly height: number;
  readonly length: number;
}

export interface RateInput {
  readonly version: string;
  readonly quoteType: 'AlaskaHawaii' | 'Domestic' | 'International';
  readonly origin: LaneEnd;
  readonly destination: LaneEnd;
  readonly originPoint: JsonObject;
  readonly destinationPoint: JsonObject;
  readonly items: readonly RateItem[];
  readonly accessorials: readonly string[];
  readonly codAmount: number;
  readonly declaredValue: number;
  /** Percent, when the request names one (1.0.0 CustomerDiscount). */
  readonly customerDiscount?: number;
  readonly overDimensionPieces: number;
  readonly pallets: ReadonlyArray<{ readonly code: string; readonly weight: number; readonly quantity: number }>;
  /** Defaults applied, for Result/Messages. */
  readonly notes: readonly string[];
}

export type RateInputResult = { ok: true; input: RateInput } | { ok: false; messages: string[] };

const DOMESTIC_COUNTRIES = ['USA', 'CAN'];

function countryRules(quoteType: string, originCountry: string, destCountry: string, origin: LaneEnd | undefined, destination: LaneEnd | undefined, messages: string[]): void {
  if (quoteType === 'Domestic') {
    // The reference carrier's own wording (service-facts §11).
    if (originCountry && !DOMESTIC_COUNTRIES.includes(originCountry)) messages.push('Origin Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.');
    if (destCountry && !DOMESTIC_COUNTRIES.includes(destCountry)) messages.push('Destination Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.');
    for (const [label, end] of [['Origin', origin], ['Destination', destination]] as const) {
      if (end && end.place.country !== 'CAN' && (end.place.state === 'AK' || end.place.state === 'HI')) {
        messages.push(`${label} State ${end.place.state} is not served by Quote Type: Domestic. Please use AlaskaHawaii.`);
      }
      if (end && end.place.country !== end.country && DOMESTIC_COUNTRIES.includes(end.country)) {
        messages.push(`${label} ZipOrPostalCode is in ${end.place.country}, which is not served by Quote Type: Domestic. Please use International.`);
      }
    }
  } else if (quoteType === 'AlaskaHawaii' && origin && destination) {
    const offshore = (e: LaneEnd) => e.place.state === 'AK' || e.place.state === 'HI';
    if (!offshore(origin) && !offshore(destination)) messages.push('Quote Type: AlaskaHawaii needs an Origin or Destination in Alaska or Hawaii. Please use Domestic.');
  } else if (quoteType === 'International' && origin && destination) {
    const abroad = (e: LaneEnd) => !DOMESTIC_COUNTRIES.includes(e.place.country);
    if (!abroad(origin) && !abroad(destination)) messages.push('Quote Type: International needs an Origin or Destination outside the USA and Canada. Please use Domestic.');
  }
}

function pointOf(label: string, raw: unknown, messages: string[]): { end?: LaneEnd; country: string; point: JsonObject } {
  const point = obj(raw);
  const country = text(point.CountryCode).toUpperCase();
  const zip = text(point.ZipOrPostalCode);
  if (raw === undefined || raw === null) { messages.push(`${label} is required.`); return { country, point }; }
  if (!country) messages.push(`${label} CountryCode is required.`);
  if (!zip) messages.push(`${label} ZipOrPostalCode is required.`);
  const end = country && zip ? laneEnd(zip, country) : undefined;
  if (country && zip && !end && ['USA', 'CAN', 'PRI'].includes(country)) messages.push(`${label} ZipOrPostalCode ${zip} is not a valid postal code for ${country}.`);
  return { end, country, point };
}

function itemsOf(list: JsonObject[], label: string, notes: string[], messages: string[]): RateItem[] {
  if (!list.length) messages.push(`At least one ${label} is required.`);
  let defaultedDims = false;
  const items = list.map((item, i) => {
    const n = `${label} ${i + 1}`;
    const cls = text(item.Class);
    const freightClass = cls ? normalizeFreightClass(cls) : undefined;
    if (!cls) messages.push(`${n}: Class is required.`);
    else if (!freightClass) messages.push(`${n}: Class ${cls} is not a valid freight class. Valid classes: ${FREIGHT_CLASSES.join(', ')}.`);
    const weight = num(item.Weight);
    if (item.Weight === undefined) messages.push(`${n}: Weight is required.`);
    else if (weight <= 0) messages.push(`${n}: Weight must be greater than 0.`);
    const dims = ['Width', 'Height', 'Length'].map((k) => {
      if (item[k] === undefined || item[k] === null) defaultedDims = true;
      const v = num(item[k]);
      if (v < 0) messages.push(`${n}: ${k} must not be negative.`);
      return v;
    });
    return { freightClass: freightClass ?? cls, weight, width: dims[0]!, height: dims[1]!, length: dims[2]! };
  });
  if (defaultedDims) notes.push('Item Width, Height or Length was not sent; rated as 0 (unknown).');
  return items;
}

function defaulted<T>(value: unknown, fallback: T, name: string, notes: string[]): T | unknown {
  if (value === undefined || value === null) {
    notes.push(`${name} was not sent; quoted with ${String(fallback)}.`);
    return fallback;
  }
  return value;
}

export function rateInput(version: string, request: JsonObject | undefined): RateInputResult {
  if (!request) return { ok: false, messages: ['request is required.'] };
  const messages: string[] = [];
  const notes: string[] = [];
  const quoteType = defaulted(request.QuoteType, 'Domestic', 'QuoteType', notes) as RateInput['quoteType'];
  const o = pointOf('Origin', request.Origin, messages);
  const d = pointOf('Destination', request.Destination, messages);
  countryRules(quoteType, o.country, d.country, o.end, d.end, messages);

  const v100 = version === '1.0.0';
  const items = itemsOf(records(v100 ? request.HandlingUnits : request.Items), v100 ? 'HandlingUnit' : 'Item', notes, messages);
  const codAmount = version === '1.0.3' ? 0 : num(defaulted(request.CODAmount, 0, 'CODAmount', notes));
  const declaredValue = num(defaulted(request.DeclaredValue, 0, 'DeclaredValue', notes));
  if (codAmount < 0) messages.push('CODAmount must not be negative.');
  if (declaredValue < 0) messages.push('DeclaredValue must not be negative.');

  let customerDiscount: number | undefined;
  if (v100 && request.CustomerDiscount !== undefined && request.CustomerDiscount !== null) {
    customerDiscount = num(request.CustomerDiscount);
    if (customerDiscount < 0 || customerDiscount >= 100) messages.push(`CustomerDiscount ${text(request.CustomerDiscount)} must be a percentage from 0 up to (not including) 100.`);
  }

  let overDimensionPieces = 0;
  if (version === '1.0.1') overDimensionPieces = num(defaulted(request.OverDimensionPcs, 0, 'OverDimensionPcs', notes));
  if (version === '1.0.3') {
    for (const [i, od] of records(request.OverDimensionList).entries()) {
      if (num(od.Pieces) <= 0) messages.push(`OverDimension ${i + 1}: Pieces must be greater than 0.`);
      if (num(od.Inches) <= 0) messages.push(`OverDimension ${i + 1}: Inches must be greater than 0.`);
      overDimensionPieces += Math.max(0, num(od.Pieces));
    }
  }
  if (overDimensionPieces < 0) messages.push('OverDimensionPcs must not be negative.');

  const pallets = version === '1.0.3' ? records(request.Pallets).map((p, i) => {
    if (!text(p.Code)) messages.push(`Pallet ${i + 1}: Code is required.`);
    if (num(p.Quantity) <= 0) messages.push(`Pallet ${i + 1}: Quantity must be greater than 0.`);
    return { code: text(p.Code), weight: num(p.Weight), quantity: num(p.Quantity) };
  }) : [];

  if (!messages.length) {
    for (const [label, p] of [['Origin', o], ['Destination', d]] as const) {
      if (!p.end) messages.push(`${label} CountryCode ${p.country} is not served: the carrier serves USA, CAN and PRI.`);
    }
  }
  if (messages.length || !o.end || !d.end) return { ok: false, messages };
  const accessorials = arr(request.Accessorials).filter((a): a is string => typeof a === 'string');
  return {
    ok: true,
    input: {
      version, quoteType, origin: o.end, destination: d.end, originPoint: o.point, destinationPoint: d.point,
      items, accessorials, codAmount, declaredValue, ...(customerDiscount !== undefined ? { customerDiscount } : {}),
      overDimensionPieces, pallets, notes,
    },
  };
}
