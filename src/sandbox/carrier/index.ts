/**
 * The carrier model: every fact an answer of the sandbox depends on, decided in one place.
 * Operations, the seeded history, the stored bills of lading, traces and PDFs ask here and
 * nowhere else, so what one says another never contradicts. The model imports nothing of the
 * sandbox outside this folder (test/unit/sandbox-model.test.ts holds that wall).
 *
 *   time.ts            terminal wall clocks (IANA zones), local days
 *   calendar.ts        working days per service, holidays, working hours, date horizons
 *   geography.ts       ZIP and postal codes -> state, position, zone
 *   places.ts          country codes, ZIP/state/city consistency
 *   terminals.ts       the terminal network
 *   lanes.ts           lanes: ends, miles, route, standard days
 *   serviceLevels.ts   what each service level promises and costs, where it runs
 *   tariff.ts          rates, weight breaks, deficit weight, accessorials, fuel
 *   money.ts           the one rounding rule: exact amounts, half up to the cent
 *   limits.ts          what an LTL shipment can be; field lengths
 *   clock.ts           the carrier clock: the sandbox's now, at a rate of real time
 *   pickup.ts          a pickup's life: pending, dispatched, picked up
 *   shipment.ts        a shipment's planned life and its status at a time
 *   documents.ts       which archive documents exist when
 *   formats.ts         money, weights, dates and times as the carrier writes them
 *   hazmat.ts          the hazardous-materials table
 */
export * from './time';
export * from './calendar';
export { distanceMiles, locate, normalizeCountry, zoneOf, type CountryIso3, type Place } from './geography';
export * from './places';
export * from './terminals';
export * from './lanes';
export * from './serviceLevels';
export * from './tariff';
export * from './money';
export * from './limits';
export * from './clock';
export * from './pickup';
export * from './shipment';
export * from './documents';
export * from './formats';
export * from './hazmat';
