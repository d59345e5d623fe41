/**
 * What an LTL shipment can be, and how long each text field may be. docs/sandbox-model.md
 * gives every limit with its reason; requests beyond one are refused with a message naming the
 * field, and nothing is stored.
 */

/**
 * Past 20,000 lb freight fills most of a trailer: carriers move it as volume LTL or truckload
 * under a quote of its own, not on the LTL tariff.
 */
export const MAX_SHIPMENT_WEIGHT_LB = 20_000;
/** A dock forklift lifts 5,000 lb: a heavier single piece needs rigging, not an LTL dock. */
export const MAX_PIECE_WEIGHT_LB = 5_000;
/** The longest trailer is 53 ft (636 in); longer freight needs a flatbed. Pieces over 8 ft pay over-dimension. */
export const MAX_LENGTH_IN = 636;
/** Trailer doors are 8 ft wide and about 8 ft high inside the frame. */
export const MAX_WIDTH_IN = 96;
export const MAX_HEIGHT_IN = 96;
/** Handling units one bill of lading can tender: a 53 ft trailer holds 30 pallets on the floor. */
export const MAX_PALLETS = 30;
/** Pieces per item line: what a driver can count at the dock and a label run can number. */
export const MAX_PIECES = 9_999;
/** Excess liability is offered up to $100,000 per shipment. */
export const MAX_DECLARED_VALUE_DOLLARS = 100_000;
/** Drivers collect COD up to $50,000 per shipment. */
export const MAX_COD_DOLLARS = 50_000;

/**
 * Lengths of text fields, by element name (the same name is the same kind of text wherever it
 * appears). A field not listed takes DEFAULT_FIELD_LENGTH.
 */
export const FIELD_LENGTHS: Readonly<Record<string, number>> = {
  Name: 40,
  CompanyName: 40,
  ContactName: 40,
  ContractHolder: 40,
  Attention: 40,
  AddressLine1: 40,
  AddressLine2: 40,
  City: 30,
  State: 2,
  StateOrProvince: 2,
  ZipCode: 10,
  ZipOrPostalCode: 10,
  ISO3Country: 3,
  CountryCode: 3,
  PhoneNumber: 20,
  PhoneExtension: 6,
  EmergenyNumber: 20,
  EmailAddress: 80,
  ContactEmailAddress: 80,
  NMFCItemNumber: 10,
  NMFCClass: 5,
  PackageType: 6,
  Class: 10,
  Description: 100,
  SpecialInstructions: 500,
  AdditionalInstructions: 250,
  Comment: 250,
  ShipperNumber: 30,
  QuoteNumber: 30,
  PONumber: 30,
  ExpeditedQuoteNumber: 20,
  ContractNumber: 30,
  CODAmount: 15,
  Value: 15,
  Per: 20,
  BOLDate: 10,
  PickupDate: 10,
  ReadyTime: 8,
  CloseTime: 8,
  Start: 8,
  End: 8,
  CustomerData: 100,
  LineOfBusiness: 20,
  Code: 10,
  ProNumber: 20,
  UNNANumber: 10,
  string: 35,
  style: 10,
};
export const DEFAULT_FIELD_LENGTH = 255;

export function fieldLength(name: string): number {
  return FIELD_LENGTHS[name] ?? DEFAULT_FIELD_LENGTH;
}
