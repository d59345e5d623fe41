/**
 * A BillOfLading record as JSON, the shape the PDF renderers read. Names follow the interface
 * document and docs/carrier-facts.md exactly (including the `EmergenyNumber` spelling). Everything
 * is optional because requests arrive with any part missing, and a renderer prints what is
 * there rather than rejecting the document.
 */

export interface BolParty {
  Name?: string;
  EmailAddress?: string;
  AddressLine1?: string;
  AddressLine2?: string;
  ISO3Country?: string;
  ZipCode?: string;
  City?: string;
  State?: string;
  PhoneNumber?: string;
  PhoneExtension?: string;
}

export interface BolConsignee extends BolParty {
  Attention?: string;
}

export interface BolRemitCod extends BolParty {
  CODAmount?: string;
  CheckType?: string;
  FeeType?: string;
}

export interface BolItem {
  IsHazmat?: boolean;
  Pieces?: number;
  PackageType?: string;
  NMFCItemNumber?: string;
  NMFCClass?: string;
  Class?: string;
  Weight?: number;
  Description?: string;
}

export interface BillOfLadingData {
  /** `MM/DD/YYYY`. */
  BOLDate?: string;
  Shipper?: BolParty;
  Consignee?: BolConsignee;
  BillTo?: BolParty;
  Broker?: BolParty;
  RemitCOD?: BolRemitCod;
  /** BOLAccessorial values. */
  AdditionalServices?: string[];
  ServiceLevel?: string;
  HourlyWindow?: { Start?: string; End?: string };
  ExpeditedQuoteNumber?: string;
  Items?: BolItem[];
  HazmatInformation?: { EmergenyNumber?: string; ContractNumber?: string; ContractHolder?: string };
  DeclaredValue?: { Value?: string; Per?: string };
  SpecialInstructions?: string;
  ReferenceNumbers?: { ShipperNumber?: string; QuoteNumber?: string; PONumber?: string };
  FreightChargePaymentMethod?: string;
  NoSignatureDelivery?: boolean;
}

export interface BolMeta {
  bolId: number;
  proNumber: string;
  createdAt: Date;
  /** The carrier model's plan, as paper states it: pickup `MM/DD/YYYY`, due `MM/DD/YYYY by 05:00 PM`. */
  pickup?: string;
  due?: string;
}
