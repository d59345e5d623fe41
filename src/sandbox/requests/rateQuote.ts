/**
 * The three GetRateQuote request shapes (1.0.0, 1.0.1, 1.0.3) brought to one input, with the
 * leniency real clients need and the refusals of the carrier model.
 *
 * Leniency, as .NET binds value types (README.md: real clients leave these out and get quotes):
 * a missing QuoteType is Domestic (the carrier's own enumeration lists it first); missing
 * CODAmount, DeclaredValue, OverDimensionPcs and item Width/Height/Length are 0. Each default is
 * reported as a note. A State or City that contradicts its ZIP is a warning: a quote is by ZIP.
 * Strict: an item needs a weight and one of the 18 freight classes (written 50, "50", 55.0 or
 * "50.0" alike), within LTL weights and trailer dimensions; both points need a served country
 * and a real postal code; amounts stay within what the carrier handles.
 */
import { getRecord, type JsonObject } from '../../core';
import {
  FREIGHT_CLASSES,
  MAX_COD_DOLLARS,
  MAX_DECLARED_VALUE_DOLLARS,
  MAX_HEIGHT_IN,
  MAX_LENGTH_IN,
  MAX_PALLETS,
  MAX_PIECES,
  MAX_WIDTH_IN,
  formatMoney,
  normalizeFreightClass,
  type LaneEnd,
} from '../carrier';
import { arr, num, obj, records } from '../json';
import { POINT_FIELDS, readAddress } from './address';
import { totalWeightProblem, weightProblem } from './common';
import { lengthProblems } from './fields';
import { text } from '../text';

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
  /** What the carrier would only warn about, for Result/Messages. */
  readonly warnings: readonly string[];
}

export type RateInputResult = { ok: true; input: RateInput } | { ok: false; messages: string[] };

const DOMESTIC_COUNTRIES = ['USA', 'CAN'];
const REQUEST_RECORD: Readonly<Record<string, string>> = { '1.0.0': 'RateQuoteRequestV100', '1.0.1': 'RateQuoteRequestV101', '1.0.3': 'RateQuoteRequestV103' };

function countryRules(quoteType: string, origin: LaneEnd | undefined, destination: LaneEnd | undefined, messages: string[]): void {
  if (quoteType === 'Domestic') {
    for (const [label, end] of [
      ['Origin', origin],
      ['Destination', destination],
    ] as const) {
      if (end && end.place.country !== 'CAN' && (end.place.state === 'AK' || end.place.state === 'HI')) {
        messages.push(`${label} State ${end.place.state} is not served by Quote Type: Domestic. Please use AlaskaHawaii.`);
      }
      if (end && end.place.country !== end.country && DOMESTIC_COUNTRIES.includes(end.country)) {
        messages.push(`${label} ZipOrPostalCode is in ${end.place.country}, which is not served by Quote Type: Domestic. Please use International.`);
      }
    }
  } else if (quoteType === 'AlaskaHawaii' && origin && destination) {
    const offshore = (e: LaneEnd) => e.place.state === 'AK' || e.place.state === 'HI';
    if (!offshore(origin) && !offshore(destination))
      messages.push('Quote Type: AlaskaHawaii needs an Origin or Destination in Alaska or Hawaii. Please use Domestic.');
  } else if (quoteType === 'International' && origin && destination) {
    const abroad = (e: LaneEnd) => !DOMESTIC_COUNTRIES.includes(e.place.country);
    if (!abroad(origin) && !abroad(destination))
      messages.push('Quote Type: International needs an Origin or Destination outside the USA and Canada. Please use Domestic.');
  }
}

function pointOf(label: string, raw: unknown, quoteType: string, messages: string[], warnings: string[]): { end?: LaneEnd; point: JsonObject } {
  const point = obj(raw);
  if (raw === undefined || raw === null) {
    messages.push(`${label} is required.`);
    return { point };
  }
  const country = text(point.CountryCode).toUpperCase();
  const zip = text(point.ZipOrPostalCode);
  if (!country) messages.push(`${label} CountryCode is required.`);
  if (!zip) messages.push(`${label} ZipOrPostalCode is required.`);
  if (!country) return { point };
  // The reference carrier's own wording for a country a domestic quote does not serve (README.md).
  if (quoteType === 'Domestic' && country.length === 3 && !DOMESTIC_COUNTRIES.includes(country)) {
    messages.push(`${label} Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.`);
    return { point };
  }
  const address = readAddress(label, point, POINT_FIELDS, false);
  messages.push(...address.problems);
  warnings.push(...address.warnings);
  return { ...(address.end ? { end: address.end } : {}), point };
}

function dimensionProblem(label: string, name: string, value: number, max: number): string | undefined {
  if (value < 0) return `${label}: ${name} must not be negative.`;
  if (value > max) return `${label}: ${name} ${value} in is more than fits a trailer (${max} in).`;
  return undefined;
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
    if (item.Weight === undefined || item.Weight === null) messages.push(`${n}: Weight is required.`);
    else {
      const problem = weightProblem(`${n}: Weight`, item.Weight);
      if (problem) messages.push(problem);
    }
    const dims = (['Width', 'Height', 'Length'] as const).map((k) => {
      if (item[k] === undefined || item[k] === null) defaultedDims = true;
      const v = num(item[k]);
      const problem = dimensionProblem(n, k, v, k === 'Width' ? MAX_WIDTH_IN : k === 'Height' ? MAX_HEIGHT_IN : MAX_LENGTH_IN);
      if (problem) messages.push(problem);
      return v;
    });
    return { freightClass: freightClass ?? cls, weight: num(item.Weight), width: dims[0]!, height: dims[1]!, length: dims[2]! };
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

function amount(name: string, value: number, max: number, messages: string[]): void {
  if (value < 0) messages.push(`${name} must not be negative.`);
  else if (value > max) messages.push(`${name} ${formatMoney(value * 100)} is more than the carrier accepts (${formatMoney(max * 100)}).`);
}

export function rateInput(version: string, request: JsonObject | undefined): RateInputResult {
  if (!request) return { ok: false, messages: ['request is required.'] };
  const messages: string[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  const quoteType = defaulted(request.QuoteType, 'Domestic', 'QuoteType', notes) as RateInput['quoteType'];
  const o = pointOf('Origin', request.Origin, quoteType, messages, warnings);
  const d = pointOf('Destination', request.Destination, quoteType, messages, warnings);
  countryRules(quoteType, o.end, d.end, messages);

  const v100 = version === '1.0.0';
  const items = itemsOf(records(v100 ? request.HandlingUnits : request.Items), v100 ? 'HandlingUnit' : 'Item', notes, messages);
  const codAmount = version === '1.0.3' ? 0 : num(defaulted(request.CODAmount, 0, 'CODAmount', notes));
  const declaredValue = num(defaulted(request.DeclaredValue, 0, 'DeclaredValue', notes));
  amount('CODAmount', codAmount, MAX_COD_DOLLARS, messages);
  amount('DeclaredValue', declaredValue, MAX_DECLARED_VALUE_DOLLARS, messages);

  let customerDiscount: number | undefined;
  if (v100 && request.CustomerDiscount !== undefined && request.CustomerDiscount !== null) {
    customerDiscount = num(request.CustomerDiscount);
    if (customerDiscount < 0 || customerDiscount >= 100)
      messages.push(`CustomerDiscount ${text(request.CustomerDiscount)} must be a percentage from 0 up to (not including) 100.`);
  }

  let overDimensionPieces = 0;
  if (version === '1.0.1') overDimensionPieces = num(defaulted(request.OverDimensionPcs, 0, 'OverDimensionPcs', notes));
  if (version === '1.0.3') {
    for (const [i, od] of records(request.OverDimensionList).entries()) {
      if (num(od.Pieces) <= 0) messages.push(`OverDimension ${i + 1}: Pieces must be greater than 0.`);
      if (num(od.Inches) <= 0) messages.push(`OverDimension ${i + 1}: Inches must be greater than 0.`);
      else if (num(od.Inches) > MAX_LENGTH_IN)
        messages.push(`OverDimension ${i + 1}: Inches ${num(od.Inches)} is more than fits a trailer (${MAX_LENGTH_IN} in).`);
      overDimensionPieces += Math.max(0, num(od.Pieces));
    }
  }
  if (overDimensionPieces < 0) messages.push('OverDimensionPcs must not be negative.');
  else if (overDimensionPieces > MAX_PIECES) messages.push(`Over-dimension pieces (${overDimensionPieces}) are more than one shipment holds (${MAX_PIECES}).`);

  const pallets =
    version === '1.0.3'
      ? records(request.Pallets).map((p, i) => {
          if (!text(p.Code)) messages.push(`Pallet ${i + 1}: Code is required.`);
          if (num(p.Quantity) <= 0) messages.push(`Pallet ${i + 1}: Quantity must be greater than 0.`);
          if (num(p.Weight) < 0) messages.push(`Pallet ${i + 1}: Weight must not be negative.`);
          return { code: text(p.Code), weight: num(p.Weight), quantity: num(p.Quantity) };
        })
      : [];
  const palletCount = pallets.reduce((s, p) => s + Math.max(0, p.quantity), 0);
  if (palletCount > MAX_PALLETS) messages.push(`Pallets: ${palletCount} pallets are more than a trailer floor holds (${MAX_PALLETS}).`);
  const itemsGood = items.every((i) => i.weight > 0 && !weightProblem('', i.weight));
  if (itemsGood) {
    const heavy = totalWeightProblem(
      items.reduce((s, i) => s + i.weight, 0) + pallets.reduce((s, p) => s + Math.max(0, p.weight) * Math.max(0, p.quantity), 0),
    );
    if (heavy) messages.push(heavy);
  }
  const record = REQUEST_RECORD[version];
  if (record) messages.push(...lengthProblems(getRecord(record), request));

  if (messages.length || !o.end || !d.end) return { ok: false, messages };
  const accessorials = arr(request.Accessorials).filter((a): a is string => typeof a === 'string');
  return {
    ok: true,
    input: {
      version,
      quoteType,
      origin: o.end,
      destination: d.end,
      originPoint: o.point,
      destinationPoint: d.point,
      items,
      accessorials,
      codAmount,
      declaredValue,
      ...(customerDiscount !== undefined ? { customerDiscount } : {}),
      overDimensionPieces,
      pallets,
      notes,
      warnings,
    },
  };
}
