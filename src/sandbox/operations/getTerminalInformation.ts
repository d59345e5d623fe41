/**
 * GetTerminalInformation: the terminals nearest a ZIP or postal code, the serving one first.
 * Country codes follow the model's one rule (carrier/places.ts): ISO3 only, as everywhere else.
 */
import { countryOf, findTerminalsFor, type Terminal } from '../carrier';
import type { OperationHandler } from '../context';
import { text } from '../text';
import { clientFault } from '../soap/fault';

/** How many terminals an answer lists: the serving one and two alternatives. */
const TERMINALS_PER_ANSWER = 3;

export function terminalInfo(t: Terminal): Record<string, unknown> {
  return {
    TerminalDetails: {
      TerminalDetailID: t.TerminalDetailID,
      TerminalLocationID: t.TerminalLocationID,
      TerminalLocationName: t.TerminalLocationName,
      TerminalName: t.TerminalName,
      TerminalType: t.TerminalType,
      TerminalCode: t.TerminalCode,
      TerminalMailingAddress1: t.TerminalMailingAddress1,
      TerminalMailingAddress2: t.TerminalMailingAddress2,
      TerminalMailingCity: t.TerminalMailingCity,
      TerminalMailingState: t.TerminalMailingState,
      TerminalMailingZip: t.TerminalMailingZip,
      TerminalMailingCountry: t.TerminalMailingCountry,
      DateCreated: t.DateCreated,
    },
    // TerminalPhone is not expanded by the contract (docs/carrier-facts.md#terminals); type and number is what a caller needs.
    TerminalPhoneNumbers: t.phones.map((p) => ({ PhoneType: p.PhoneType, PhoneNumber: p.PhoneNumber })),
  };
}

export const getTerminalInformation: OperationHandler = ({ params }) => {
  const zip = text(params.ZipCode);
  const country = text(params.CountryCode);
  if (!zip) throw clientFault('ZipCode is required.');
  if (!country) throw clientFault('CountryCode is required (USA, CAN or PRI).');
  const served = countryOf(country);
  if ('problem' in served) throw clientFault(`CountryCode ${served.problem}.`);
  const terminals = findTerminalsFor(zip, served.country, TERMINALS_PER_ANSWER);
  if (!terminals.length) throw clientFault(`ZipCode ${zip} is not a valid ZIP or postal code for ${country}.`);
  return { Result: terminals.map(terminalInfo) };
};
