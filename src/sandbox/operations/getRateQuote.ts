/**
 * GetRateQuote at 1.0.0, 1.0.1 and 1.0.3: one pricing, three reply shapes. The price is the
 * carrier model's tariff (carrier/tariff.ts) on the model's lane; every service level the lane
 * offers is priced on top of it by its surcharge and promises its own days. Business errors come
 * back in the body (WasSuccess=false, Messages/string), as the reference carrier's clients
 * expect; informational notes (defaults applied, warnings, ignored elements, fuel) go in
 * Result/Messages. Quote numbers are a hash of the request, so the same request gets the same ones.
 */
import {
  formatDollars,
  formatMoney,
  laneBetween,
  price,
  quotedLevels,
  serviceDays,
  surchargeCents,
  QUOTED_WINDOW,
  minutesText,
  type ChargeLine,
  type Lane,
  type Price,
  type ServiceLevelRule,
  type Terminal,
} from '../carrier';
import type { OperationHandler } from '../context';
import { compact, obj, stableHash } from '../json';
import { rateInput, type RateInput } from '../requests/rateQuote';
import { myCarrierId } from './customer';

interface PricedLevel {
  readonly rule: ServiceLevelRule;
  readonly days: number;
  readonly quoteNumber: string;
  readonly chargeCents: number;
  readonly netCents: number;
}

interface Quote {
  readonly lane: Lane;
  readonly price: Price;
  readonly levels: readonly PricedLevel[];
  readonly notes: readonly string[];
}

function quote(input: RateInput): Quote {
  const lane = laneBetween(input.origin, input.destination);
  const notes: string[] = [];
  const palletWeight = input.pallets.reduce((s, p) => s + p.weight * p.quantity, 0);
  if (palletWeight > 0) notes.push(`Pallet weight of ${palletWeight} lb is rated with the first item.`);
  const items = input.items.map((i, n) => ({ freightClass: i.freightClass, weight: i.weight + (n === 0 ? palletWeight : 0) }));
  const p = price({
    items,
    miles: lane.miles,
    accessorials: input.accessorials,
    codAmount: input.codAmount,
    declaredValue: input.declaredValue,
    overDimensionPieces: input.overDimensionPieces,
    ...(input.customerDiscount !== undefined ? { discountPercent: input.customerDiscount } : {}),
    ...(input.accessorials.includes('ZeroFuelSurcharge') ? { fuelPercent: 0 } : {}),
  });
  if (p.deficitWeight > 0)
    notes.push(
      `Rated as ${p.ratedWeight.toLocaleString('en-US')} lb (${p.deficitWeight.toLocaleString('en-US')} lb deficit weight): that weight break costs less than the actual weight's.`,
    );
  const seed = JSON.stringify([
    input.version,
    input.quoteType,
    input.origin.place,
    input.destination.place,
    input.items,
    input.accessorials,
    input.codAmount,
    input.declaredValue,
    input.overDimensionPieces,
    input.pallets,
  ]);
  const levels = quotedLevels(lane).map((rule) => {
    const chargeCents = surchargeCents(p, rule.surchargePercent);
    return {
      rule,
      days: serviceDays(rule.level, lane),
      quoteNumber: String(1_000_000 + (stableHash(`${seed}|${rule.code}`) % 9_000_000)),
      chargeCents,
      netCents: p.netCents + chargeCents,
    };
  });
  return { lane, price: p, levels, notes };
}

function charge(l: ChargeLine): Record<string, unknown> {
  return {
    Type: l.Type,
    Title: l.Title,
    ...(l.weight !== undefined ? { Weight: String(l.weight) } : {}),
    ...(l.ratePerCwt !== undefined ? { Rate: formatDollars(l.ratePerCwt) } : {}),
    Amount: formatMoney(l.amountCents),
  };
}

function serviceCenter(t: Terminal, withCityState: boolean): Record<string, unknown> {
  return {
    Code: t.TerminalCode,
    Location: t.TerminalLocationName,
    ZipCode: t.TerminalMailingZip,
    Phone: t.phones[0]?.PhoneNumber ?? '',
    Address1: t.TerminalMailingAddress1,
    Address2: t.TerminalMailingAddress2,
    ...(withCityState ? { City: t.TerminalMailingCity, State: t.TerminalMailingState } : {}),
  };
}

function point(p: Record<string, unknown>, state: string): Record<string, unknown> {
  return { ...p, ...(p.StateOrProvince ? {} : { StateOrProvince: state }) };
}

function serviceLevels(q: Quote): Record<string, unknown>[] {
  return q.levels.map((l) => ({
    Title: l.rule.title,
    Code: l.rule.code,
    QuoteNumber: l.quoteNumber,
    ServiceDays: l.days,
    Charge: formatMoney(l.chargeCents),
    NetCharge: formatMoney(l.netCents),
    ...(l.rule.level === 'GuaranteedHourlyWindow' ? { HourlyWindow: { Start: minutesText(QUOTED_WINDOW.start), End: minutesText(QUOTED_WINDOW.end) } } : {}),
  }));
}

function notes(input: RateInput, q: Quote, ignored: readonly string[], version: string): Record<string, unknown>[] {
  const out = [
    {
      Title: 'Fuel Surcharge',
      Text: `Fuel surcharge ${q.price.fuelPercent}% of the discounted freight charge; service-level charges are a share of the discounted freight charge too.`,
    },
  ];
  for (const n of input.notes) out.push({ Title: 'Default Applied', Text: n });
  for (const n of q.notes) out.push({ Title: 'Rating', Text: n });
  for (const n of input.warnings) out.push({ Title: 'Warning', Text: n });
  // CustomerData is what real clients put first; it is expected, tolerated and not worth a note.
  for (const path of ignored.filter((p) => p !== 'request.CustomerData')) {
    out.push({ Title: 'Ignored Element', Text: `${path} is not part of GetRateQuote ${version} (or not in its namespace) and was ignored.` });
  }
  return out;
}

/** The ocean leg of an Alaska, Hawaii or Puerto Rico lane (1.0.0 only). */
function ocean(input: RateInput): Record<string, unknown> | undefined {
  const ends = [input.origin, input.destination];
  const port = ends.map((e) =>
    e.place.state === 'AK' ? 'Anchorage, AK' : e.place.state === 'HI' ? 'Honolulu, HI' : e.place.country === 'PRI' ? 'San Juan, PR' : undefined,
  );
  const offshore = port.find(Boolean);
  if (!offshore) return undefined;
  const mainland = offshore.endsWith('AK') ? 'Tacoma, WA' : offshore.endsWith('HI') ? 'Oakland, CA' : 'Jacksonville, FL';
  const [entry, exit] = port[0] ? [port[0], mainland] : [mainland, offshore];
  return { ServiceDays: 5, Entry: { Port: entry }, Exit: { Port: exit }, Messages: { Message: 'Ocean transit days are included in ServiceDays.' } };
}

function resultV100(input: RateInput, q: Quote, params: Record<string, unknown>, notesList: Record<string, unknown>[]): Record<string, unknown> {
  const oceanLeg = ocean(input);
  return {
    MyCarrierID: myCarrierId(params),
    Origin: point(input.originPoint, input.origin.place.state),
    Destination: point(input.destinationPoint, input.destination.place.state),
    OriginServiceCenter: serviceCenter(input.origin.terminal, false),
    DestinationServiceCenter: serviceCenter(input.destination.terminal, false),
    ServiceDays: q.lane.standardDays,
    CustomerDiscounts: String(q.price.discountPercent),
    HandlingUnits: input.items.map((i, n) =>
      compact({
        Class: i.freightClass,
        Weight: i.weight,
        Width: i.width,
        Height: i.height,
        Length: i.length,
        Amount: formatMoney(q.price.lines[n]!.amountCents),
      }),
    ),
    ChargeTypes: q.price.lines.map((l) => compact(charge(l))),
    ...(oceanLeg ? { Ocean: oceanLeg } : {}),
    Messages: notesList,
    ServiceLevels: serviceLevels(q),
  };
}

function result(input: RateInput, q: Quote, notesList: Record<string, unknown>[]): Record<string, unknown> {
  return {
    Origin: point(input.originPoint, input.origin.place.state),
    Destination: point(input.destinationPoint, input.destination.place.state),
    OriginServiceCenter: serviceCenter(input.origin.terminal, true),
    DestinationServiceCenter: serviceCenter(input.destination.terminal, true),
    CustomerDiscounts: `${q.price.discountPercent}%`,
    Charges: q.price.lines.map(charge),
    Messages: notesList,
    ServiceLevels: serviceLevels(q),
  };
}

export const getRateQuote: OperationHandler = ({ op, params, ignored }) => {
  const request = params.request === undefined || params.request === null ? undefined : obj(params.request);
  const parsed = rateInput(op.version, request);
  if (!parsed.ok) return { WasSuccess: false, Messages: parsed.messages };
  const q = quote(parsed.input);
  const notesList = notes(parsed.input, q, ignored, op.version);
  return {
    WasSuccess: true,
    Messages: [],
    Result: op.version === '1.0.0' ? resultV100(parsed.input, q, params, notesList) : result(parsed.input, q, notesList),
  };
};
