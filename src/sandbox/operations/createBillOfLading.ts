/**
 * CreateBillOfLading: checks the business rules, then records the bill of lading (and its pickup
 * request when AddPickupRequest is true) and answers BolID, a 9-digit WebProNumber and the echo.
 * Broken rules come back in the body (WasSuccess=false, Messages/string, HTTP 200), which is
 * where the reference carrier's clients look for them (service-facts §8.5, §11).
 */
import type { OperationHandler } from '../context';
import { obj } from '../json';
import { billOfLadingRules } from '../rules/billOfLadingRules';

export const createBillOfLading: OperationHandler = ({ params, changes }, ctx) => {
  const request = params.request === undefined || params.request === null ? undefined : obj(params.request);
  const messages = request ? billOfLadingRules(request, ctx.now()) : ['request is required.'];
  // BolID is an int: .NET writes it even when there is no bill of lading.
  if (messages.length) return { WasSuccess: false, Messages: messages, BolID: 0 };

  const billOfLading = obj(request!.BillOfLading);
  const withPickup = request!.AddPickupRequest === true;
  const created = changes.addBol(billOfLading, ctx.now(), withPickup ? obj(request!.PickupRequestInfo) : undefined);
  return {
    WasSuccess: true,
    Messages: [],
    WebProNumber: created.pro,
    BolID: created.bolId,
    BillOfLading: billOfLading,
    ...(created.pickupRequestNumber ? { PickupRequestNumber: created.pickupRequestNumber } : {}),
  };
};
