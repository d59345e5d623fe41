/**
 * A seeded shipment as the BillOfLading record its shipper would have sent, so the archive's
 * BillOfLading document is drawn by the same renderer as GetBillOfLadingPdf.
 */
import type { Party, Shipment } from '../carrier';
import type { BillOfLadingData, BolParty } from './types';

function bolParty(p: Party): BolParty {
  return {
    Name: p.Name,
    EmailAddress: p.EmailAddress,
    AddressLine1: p.AddressLine1,
    AddressLine2: p.AddressLine2,
    ISO3Country: p.Country,
    ZipCode: p.ZipCode,
    City: p.City,
    State: p.State,
    PhoneNumber: p.PhoneNumber,
  };
}

export function shipmentToBillOfLading(s: Shipment): BillOfLadingData {
  return {
    BOLDate: s.bolDate,
    Shipper: bolParty(s.shipper),
    Consignee: { ...bolParty(s.consignee), Attention: s.consignee.Contact },
    ...(s.is3PL ? { BillTo: bolParty(s.billTo) } : {}),
    AdditionalServices: [...s.accessorials],
    ServiceLevel: s.serviceLevel,
    ...(s.hourlyWindow ? { HourlyWindow: { ...s.hourlyWindow } } : {}),
    ...(s.serviceLevel === 'ExpeditedService' ? { ExpeditedQuoteNumber: s.quoteNumber } : {}),
    Items: s.items.map((i) => ({
      IsHazmat: i.IsHazmat,
      Pieces: i.Pieces,
      PackageType: i.PackageType,
      NMFCItemNumber: i.NMFCItemNumber,
      NMFCClass: i.NMFCSub,
      Class: i.Class,
      Weight: i.Weight,
      Description: i.Description,
    })),
    ...(s.hazmatContact
      ? {
          HazmatInformation: {
            EmergenyNumber: s.hazmatContact.EmergencyNumber,
            ContractNumber: s.hazmatContact.ContractNumber,
            ContractHolder: s.hazmatContact.ContractHolder,
          },
        }
      : {}),
    ...(s.declaredValue ? { DeclaredValue: { ...s.declaredValue } } : {}),
    ...(s.specialInstructions ? { SpecialInstructions: s.specialInstructions } : {}),
    ReferenceNumbers: { ShipperNumber: s.shipperNumber, QuoteNumber: s.quoteNumber, PONumber: s.references.PO },
    FreightChargePaymentMethod: s.paymentTerms,
    NoSignatureDelivery: false,
  };
}
