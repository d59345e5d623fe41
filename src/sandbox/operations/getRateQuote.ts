/**
 * GetRateQuote at 1.0.0, 1.0.1 and 1.0.3: one pricing, three reply shapes. Business errors come
 * back in the body (WasSuccess=false, Messages/string), as the reference carrier's clients
 * expect; informational notes (defaults applied, ignored elements, fuel) go in Result/Messages.
 */
import type { ChargeLine } from '../data/tariff';
import { formatMoney } from '../data/format';
import type { Terminal } from '../data/terminals';
import type { OperationHandler } from '../context';
import { compact, obj } from '../json';
import { quote, type Quote } from '../rating/quote';
import { rateInput, type RateInput } from '../rating/rateInput';
import { myCarrierId } from './customer';

function charge(l: ChargeLine): Record<string, unknown> {
  return {
    Type: l.Type,
    Title: l.Title,
    ...(l.weight !== undefined ? { Weight: String(l.weight) } : {}),
    ...(l.ratePerCwt !== undefined ? { Rate: `$${l.ratePerCwt.toFixed(2)}` } : {}),
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
  return q.serviceLevels.map((l) => ({
    Title: l.offer.title,
    Code: l.offer.code,
    QuoteNumber: l.quoteNumber,
    ServiceDays: l.offer.serviceDays,
    Charge: formatMoney(l.chargeCents),
    NetCharge: formatMoney(l.netCents),
    ...(l.offer.hourlyWindow ? { HourlyWindow: l.offer.hourlyWindow } : {}),
  }));
}

function notes(input: RateInput, q: Quote, ignored: readonly string[], version: string): Record<string, unknown>[] {
  const out = [{ Title: 'Fuel Surcharge', Text: `Fuel surcharge ${q.fuelPercent}% of the discounted freight charge.` }];
  for (const n of [...input.notes, ...q.notes]) out.push({ Title: 'Default Applied', Text: n });
  // CustomerData is what real clients put first; it is expected, tolerated and not worth a note.
  for (const path of ignored.filter((p) => p !== 'request.CustomerData')) {
    out.push({ Title: 'Ignored Element', Text: `${path} is not part of GetRateQuote ${version} (or not in its namespace) and was ignored.` });
  }
  return out;
}

/** The ocean leg of an Alaska, Hawaii or Puerto Rico lane (1.0.0 only). */
function ocean(input: RateInput): Record<string, unknown> | undefined {
  const ends = [input.origin, input.destination];
  const port = ends.map((e) => (e.place.state === 'AK' ? 'Anchorage, AK' : e.place.state === 'HI' ? 'Honolulu, HI' : e.place.country === 'PRI' ? 'San Juan, PR' : undefined));
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
    ServiceDays: q.lane.serviceDays,
    CustomerDiscounts: String(q.discountPercent),
    HandlingUnits: input.items.map((i, n) => compact({ Class: i.freightClass, Weight: i.weight, Width: i.width, Height: i.height, Length: i.length, Amount: formatMoney(q.lines[n]!.amountCents) })),
    ChargeTypes: q.lines.map((l) => compact(charge(l))),
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
    CustomerDiscounts: `${q.discountPercent}%`,
    Charges: q.lines.map(charge),
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
