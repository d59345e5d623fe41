/**
 * CreateBillOfLading: checks the request against the carrier's rules (requests/billOfLading.ts),
 * then records the bill of lading (and its pickup request when AddPickupRequest is true) and
 * answers BolID, a 9-digit WebProNumber and the echo. Broken rules come back in the body
 * (WasSuccess=false, Messages/string, HTTP 200), where the reference carrier's clients look for
 * them (README.md); warnings come back in Messages of a success, and nothing is stored on a
 * refusal.
 */
import type { OperationHandler } from '../context';
import { obj } from '../json';
import { billOfLadingRules } from '../requests/billOfLading';

export const createBillOfLading: OperationHandler = ({ params, changes }, ctx) => {
  const request = params.request === undefined || params.request === null ? undefined : obj(params.request);
  const now = ctx.now();
  const check = request ? billOfLadingRules(request, now) : { messages: ['request is required.'], warnings: [] };
  // BolID is an int: .NET writes it even when there is no bill of lading.
  if (check.messages.length) return { WasSuccess: false, Messages: check.messages, BolID: 0 };

  const billOfLading = obj(request!.BillOfLading);
  const withPickup = request!.AddPickupRequest === true;
  const created = changes.addBol(billOfLading, now, withPickup ? obj(request!.PickupRequestInfo) : undefined);
  return {
    WasSuccess: true,
    Messages: check.warnings.map((w) => `Warning: ${w}`),
    WebProNumber: created.pro,
    BolID: created.bolId,
    BillOfLading: billOfLading,
    ...(created.pickupRequestNumber ? { PickupRequestNumber: created.pickupRequestNumber } : {}),
  };
};
