/** The sandbox's reference data and its simulated shipment history; all pure, no I/O. */
export { locate, distanceMiles, isValidZip, normalizeCountry, type Place, type CountryIso3 } from './geography';
export { TERMINALS, findTerminalsFor, terminalByCode, breakbulkFor, type Terminal, type TerminalPhone, type TerminalType, type PhoneType } from './terminals';
export { HAZMAT_ENTRIES, lookupHazmat, type HazmatEntry } from './hazmat';
export { holidaysFor, holidayName, isBusinessDay, addBusinessDays, rollToBusinessDay, businessDaysBetween, type Holiday } from '../../core';
export {
  seededShipments, shipmentStatusAt, findShipments, TRACE_TYPES, SAMPLE_PRO, TEST_PRO,
  type Shipment, type ShipmentStatus, type TraceType, type Party, type ShipmentItem, type HandlingUnit, type ServiceLevel,
  type ShortStatus, type StatusEvent, type ExceptionKind,
} from './shipments';
export { DOCUMENT_TYPES, availableDocuments, documentDate, invoiceDateOf, type DocumentType } from './archive';
export { freightCharges, ratePerCwt, normalizeFreightClass, FREIGHT_CLASSES, ACCESSORIAL_CHARGES_CENTS, type ChargeLine, type ChargeType } from './tariff';
export { formatUsDate, formatUsTime, formatUsDateTime, formatMoney, formatPounds, isoDay, xsdDateTime } from './format';
