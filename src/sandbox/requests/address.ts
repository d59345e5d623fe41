/**
 * Addresses in requests, read against the carrier model's places (carrier/places.ts): the
 * country code, the ZIP, and the State and City against the ZIP. A document the freight moves
 * on refuses a State the ZIP contradicts; a lookup answers by the ZIP and warns.
 */
import type { JsonObject } from '../../core';
import { checkAddress, countryOf, laneEnd, type CountryIso3, type LaneEnd } from '../carrier';
import { text } from '../text';

export interface AddressResult {
  /** Set when the country is served and the ZIP is real (whatever the State and City say). */
  readonly end?: LaneEnd;
  readonly country?: CountryIso3;
  readonly problems: string[];
  readonly warnings: string[];
}

export interface AddressFields {
  readonly country: string;
  readonly zip: string;
  readonly state: string;
  readonly city: string;
}

/** Field names of the documents' address blocks and of the lookups' points. */
export const DOCUMENT_FIELDS: AddressFields = { country: 'ISO3Country', zip: 'ZipCode', state: 'State', city: 'City' };
export const POINT_FIELDS: AddressFields = { country: 'CountryCode', zip: 'ZipOrPostalCode', state: 'StateOrProvince', city: 'City' };

/**
 * `document`: a State the ZIP contradicts is a problem (it would print one place and route to
 * another); otherwise a warning. A missing country or ZIP is left to the required-field rules;
 * `defaultCountry` stands in for a country left out where the record allows it.
 */
export function readAddress(label: string, value: JsonObject, fields: AddressFields, document: boolean, defaultCountry?: CountryIso3): AddressResult {
  const countryText = text(value[fields.country]);
  const zip = text(value[fields.zip]);
  if (!countryText && !defaultCountry) return { problems: [], warnings: [] };
  const resolved = countryText ? countryOf(countryText) : { country: defaultCountry! };
  if ('problem' in resolved) return { problems: [`${label} ${fields.country} ${resolved.problem}.`], warnings: [] };
  if (!zip) return { country: resolved.country, problems: [], warnings: [] };
  const check = checkAddress(label, {
    zip,
    country: resolved.country,
    state: text(value[fields.state]),
    city: text(value[fields.city]),
    zipField: fields.zip,
    stateField: fields.state,
    cityField: fields.city,
  });
  const end = check.place ? laneEnd(zip, resolved.country) : undefined;
  const [invalidZip, stateProblems] = check.place ? [[], check.problems] : [check.problems, []];
  return {
    ...(end ? { end } : {}),
    country: resolved.country,
    problems: [...invalidZip, ...(document ? stateProblems : [])],
    warnings: [
      ...(document ? [] : stateProblems.map((p) => p.replace(/: the ZIP decides where the freight goes\.$/, '; the ZIP decides.'))),
      ...check.warnings,
    ],
  };
}
