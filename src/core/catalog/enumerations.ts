/**
 * Enumerations, per version where they differ. Values and their order are the contract's; where
 * it only names a plain string, the reference carrier's values fill it in
 * (docs/carrier-facts.md#bill-of-lading-values, docs/carrier-facts.md#formats).
 */
import type { EnumerationDef } from './types';

const e = (name: string, values: string[], doc: string, source: EnumerationDef['source'] = 'interface'): EnumerationDef => ({ name, values, doc, source });

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
const accessorials100 = [
  'InsideDelivery', 'ResidentialPickup', 'ResidentialDelivery', 'OriginLiftgate', 'DestinationLiftgate',
  'DeliveryNotification', 'Freezable', 'Hazmat', 'InsidePickup', 'LimitedAccessPickup', 'DockPickup',
  'DockDelivery', 'AirportPickup', 'AirportDelivery', 'LimitedAccessDelivery', 'CubicFeet',
  'KeepFromFreezing', 'DoorToDoor', 'COD', 'FZ',
];

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
const accessorials101 = [
  'InsideDelivery', 'ResidentialPickup', 'ResidentialDelivery', 'OriginLiftgate', 'DestinationLiftgate',
  'DeliveryNotification', 'Freezable', 'Hazmat', 'InsidePickup', 'LimitedAccessPickup', 'DockPickup',
  'DockDelivery', 'AirportPickup', 'AirportDelivery', 'LimitedAccessDelivery', 'CubicFeet',
  'KeepFromFreezing', 'DoorToDoor', 'COD', 'SortAndSegregate', 'OverDimension', 'ZeroFuelSurcharge',
  'Tradeshow', 'DishMachineInsideDelivery',
];

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
const rqAccessorials = [
  'InsideDelivery', 'ResidentialPickup', 'ResidentialDelivery', 'OriginLiftgate', 'DestinationLiftgate',
  'DeliveryNotification', 'SortAndSegregate', 'Freezable', 'Hazmat', 'InsidePickup', 'LimitedAccessPickup',
  'DockPickup', 'DockDelivery', 'AirportPickup', 'AirportDelivery', 'LimitedAccessDelivery', 'CubicFeet',
  'KeepFromFreezing', 'DoorToDoor', 'OverDimension',
];

const serviceLevels = ['StandardService', 'GuaranteedService', 'GuaranteedByNoon', 'GuaranteedHourlyWindow', 'ExpeditedService', 'WeekendExpress'];

// A table laid out by hand (rows grouped by line): the formatter leaves it as written.
// prettier-ignore
export const enumerations: readonly EnumerationDef[] = [
  e('DocumentType', ['BillOfLading', 'WeightCertificate', 'Invoice', 'DeliveryReceipt'], 'Archive document types of a shipment.'),
  e('QuoteType', ['AlaskaHawaii', 'Domestic', 'International'], 'Kind of rate quote. Domestic needs USA or CAN at both ends.'),
  e('AccessorialV100', accessorials100, 'Accessorial services of GetRateQuote 1.0.0.'),
  e('AccessorialV101', accessorials101, 'Accessorial services of GetRateQuote 1.0.1.'),
  e('RQAccessorial', rqAccessorials, 'Accessorial services of GetRateQuote 1.0.3 (no COD).'),
  e('BOLAccessorial', ['OriginLiftgate', 'DestinationLiftgate', 'InsidePickup', 'InsideDelivery', 'LimitedAccessPickup', 'LimitedAccessDelivery', 'FreezeProtection', 'DeliveryNotification'], 'Additional services on a bill of lading.'),
  e('ServiceLevel', serviceLevels, 'Service level of a bill of lading or pickup.'),
  e('CheckType', ['Company', 'Certified'], 'Kind of check accepted for a COD.'),
  e('FeeType', ['Prepaid', 'Collect'], 'Who pays the COD fee.'),
  e('FreightChargePaymentMethod', ['Prepaid', 'Collect'], 'Who pays the freight charges.'),
  e('PURAccessorial', ['LiftGate', 'NoRollup'], 'Pickup service options.'),
  e('TraceType', ['PRO', 'BOL', 'Job', 'Manifest', 'PO', 'Sales', 'Account', 'CustomerOrder', 'CustomerPO', 'Lot', 'Order', 'Reference'], 'Kind of number in TraceNumbers.'),
  e('OutputFormat', ['Standard', 'IVR'], 'Standard text, or short texts suited to a voice response system.'),
  // The carrier's 33 codes (docs/carrier-facts.md#bill-of-lading-values).
  e('PackageType', ['BAG', 'BAR', 'BIN', 'BNDL', 'BOX', 'BSKT', 'BULK', 'CARBOY', 'COIL', 'CPT', 'CRT', 'CTN', 'CYL', 'DAC', 'DRM', 'GAY', 'IBC', 'JER', 'LSE', 'MLBG', 'NSTD', 'PAIL', 'PIG', 'PLT', 'RACK', 'REEL', 'ROLL', 'SKD', 'STK', 'TL', 'TANK', 'TOTE', 'UNIT'], 'Package type codes of a bill-of-lading item.', 'facts'),
];

/** The 18 freight classes the carrier's own rate form offers: a string field, suggested, not enforced (docs/carrier-facts.md#freight-classes). */
export const FREIGHT_CLASSES = [
  '50.0',
  '55.0',
  '60.0',
  '65.0',
  '70.0',
  '77.5',
  '85.0',
  '92.5',
  '100.0',
  '110.0',
  '125.0',
  '150.0',
  '175.0',
  '200.0',
  '250.0',
  '300.0',
  '400.0',
  '500.0',
] as const;

export const COUNTRY_CODES = ['USA', 'CAN', 'PRI'] as const;
