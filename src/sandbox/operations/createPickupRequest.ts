/**
 * CreatePickupRequest: checks the pickup, records it (linked to a bill of lading by LinkedBolId)
 * and answers Pickup {Id, WasSuccess, Message, Result} in the pickup namespace; with IncludeBol
 * the linked bill of lading is in Result/BOL, with IncludeBolPdf its real PDF is in BolPdf.
 * Broken rules come back as Pickup.WasSuccess=false with the reasons in Pickup.Message, HTTP 200.
 *
 * The Result sub-records are not expanded by the contract (docs/carrier-facts.md#pickup-requests); they carry what a
 * dispatcher's screen shows (who asked, what is loaded, which terminal, the status).
 */
import { formatUsDate, LATE_PICKUP_AFTER, parseUsDate, parseUsTime, pickupStatusAt, wallClock, xsdDateTime, type Terminal } from '../carrier';
import type { JsonObject } from '../../core';
import type { OperationHandler } from '../context';
import { bolDocument } from '../documents/bolData';
import { openContent } from '../documents/openContent';
import { base64, bolPdf } from '../documents/pdfs';
import { arr, compact, num, obj, records } from '../json';
import { pickupRules } from '../requests/pickup';
import { text } from '../text';
import { requestedPickupTimes } from '../state/bolShipment';
import type { CreatedPickup } from '../state/records';

function details(p: CreatedPickup, bol: Record<string, unknown> | undefined, now: Date, terminal: Terminal): Record<string, unknown> {
  const pickup = obj(p.pickup);
  const shipper = obj(pickup.Shipper);
  const contact = obj(pickup.Contact);
  const info = obj(pickup.PickupInformation);
  const destinations = records(pickup.Destinations);
  const shipperCountry = text(shipper.ISO3Country).toUpperCase();
  const close = parseUsTime(info.CloseTime) ?? 0;
  const contactName = text(contact.Name) || text(shipper.ContactName);
  const window = obj(pickup.HourlyWindow);
  return compact({
    ...(bol ? { BOL: bol } : {}),
    // The interface types these four as records (not expanded), so they carry element content.
    Channel: { Name: 'Web Service' },
    CommunicationStatus: { Status: 'Sent to terminal', Terminal: terminal.TerminalCode },
    Constraints: compact({
      ServiceLevel: text(pickup.ServiceLevel) || 'StandardService',
      HourlyWindow: text(window.Start) ? compact({ Start: text(window.Start), End: text(window.End) }) : undefined,
      ServiceOptions: arr(pickup.ServiceOptions).length ? { PURAccessorial: arr(pickup.ServiceOptions) } : undefined,
      ExpeditedQuoteNumber: text(pickup.ExpeditedQuoteNumber),
    }),
    LoadDetails: {
      Destinations: destinations.length,
      Pieces: destinations.reduce((s, d) => s + num(d.Pieces), 0),
      Weight: destinations.reduce((s, d) => s + num(d.Weight), 0),
    },
    References: compact({ ...obj(pickup.ReferenceNumbers) }),
    Requestor: compact({
      Name: contactName,
      CompanyName: text(contact.CompanyName) || text(shipper.Name),
      PhoneNumber: text(contact.PhoneNumber) || text(shipper.PhoneNumber),
      EmailAddress: text(contact.EmailAddress) || text(shipper.ContactEmailAddress),
    }),
    RequestorType: { Type: text(contact.CompanyName) && text(contact.CompanyName) !== text(shipper.Name) ? 'Third Party' : 'Shipper' },
    Shipper: compact({
      Name: text(shipper.Name),
      AddressLine1: text(shipper.AddressLine1),
      City: text(shipper.City),
      State: text(shipper.State),
      ZipCode: text(shipper.ZipCode),
      Country: shipperCountry,
    }),
    // Read from the same times as the trace of the bill of lading it collects (carrier/pickup.ts).
    TaskStatus: { Status: taskStatus(p, info, now, terminal) },
    BOLAvailableFlag: p.linkedBolId !== undefined,
    CustomsDocumentRequirementsFlag: destinations.some((d) => text(d.ISO3Country) && text(d.ISO3Country).toUpperCase() !== shipperCountry),
    LatePickupFlag: close > LATE_PICKUP_AFTER,
    CloseTime: text(info.CloseTime),
    Comment: text(info.AdditionalInstructions),
    ContactEmail: text(contact.EmailAddress) || text(shipper.ContactEmailAddress),
    ContactExtension: text(contact.PhoneExtension) || text(shipper.PhoneExtension),
    ContactName: contactName,
    ContactPhone: text(contact.PhoneNumber) || text(shipper.PhoneNumber),
    PickupDate: formatUsDate(parseUsDate(info.PickupDate)!),
    ReadyTime: text(info.ReadyTime),
    TerminalCode: p.terminalCode,
    Id: p.id,
    ParentId: p.linkedBolId ?? 0,
    VersionNumber: 1,
    TerminalLocalDateTime: xsdDateTime(wallClock(now, terminal.zone)),
  });
}

function taskStatus(p: CreatedPickup, info: JsonObject, now: Date, terminal: Terminal): string {
  const times = requestedPickupTimes({ info, requestedAt: new Date(p.createdAt) }, terminal.zone);
  return times ? pickupStatusAt(times, now) : 'Pending';
}

export const createPickupRequest: OperationHandler = async ({ params, changes }, ctx) => {
  const request = params.request === undefined || params.request === null ? undefined : obj(params.request);
  const now = ctx.now();
  const check = request ? pickupRules(request, ctx.store, now) : { messages: ['request is required.'], warnings: [] };
  if (check.messages.length || !('shipper' in check) || !check.shipper) return { Pickup: { WasSuccess: false, Message: check.messages.join(' ') } };

  const pickup = obj(request!.Pickup);
  const terminal = check.shipper.terminal;
  const linkedBolId = check.linkedBolId;
  const created = changes.addPickup(pickup, now, linkedBolId, terminal.TerminalCode);

  const linked = linkedBolId !== undefined ? bolDocument(ctx.store, ctx.store.shipmentByBolId(linkedBolId)!) : undefined;
  const bolContent =
    linked && request!.IncludeBol === true
      ? { BolID: linked.meta.bolId, WebProNumber: linked.meta.proNumber, ...openContent('BillOfLading', linked.data as Record<string, unknown>) }
      : undefined;
  const info = obj(pickup.PickupInformation);
  const warnings = check.warnings.length ? ` Warning: ${check.warnings.join(' ')}` : '';
  return {
    PickupRequestID: String(created.id),
    Pickup: {
      Id: String(created.id),
      WasSuccess: true,
      Message: `Pickup request ${created.id} is scheduled for ${formatUsDate(parseUsDate(info.PickupDate)!)} between ${text(info.ReadyTime)} and ${text(info.CloseTime)} from the ${terminal.TerminalName} (${terminal.TerminalCode}).${warnings}`,
      Result: details(created, bolContent, now, terminal),
    },
    ...(linked && request!.IncludeBolPdf === true ? { BolPdf: base64(await bolPdf(linked)) } : {}),
  };
};
