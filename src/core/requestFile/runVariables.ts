/**
 * Variables every send and every run provides, under `run.` so they never collide with an
 * environment's or a collection's own (theirs win when they do define one):
 *
 *   {{run.id}}               a short id unique to this run (for PO and shipper reference numbers)
 *   {{run.today}}            today, MM/DD/YYYY
 *   {{run.nextBusinessDay}}  the next day the carrier picks up after today, MM/DD/YYYY
 *   {{run.date}}             today as xs:date (YYYY-MM-DD), for dateTime fields
 *   {{run.timestamp}}        the run's start as xs:dateTime (UTC)
 *
 * Pickups are only accepted on business days from today on, so a collection that books one
 * cannot hard-code a date without rotting; these keep it valid whenever it runs. Days are UTC
 * calendar days, as the sandbox reads them, on the carrier's holiday calendar.
 */
import { randomBytes } from 'node:crypto';
import { addBusinessDays } from '../calendar';

const pad = (n: number) => String(n).padStart(2, '0');
const usDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

export function runVariables(now: Date = new Date(), id: string = randomBytes(4).toString('hex')): Record<string, string> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return {
    'run.id': id,
    'run.today': usDate(today),
    'run.nextBusinessDay': usDate(addBusinessDays(today, 1)),
    'run.date': isoDate(today),
    'run.timestamp': now.toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/** The names runVariables defines (any instant will do to list them). */
const RUN_NAMES = Object.keys(runVariables(new Date(0), 'names'));

/**
 * `variables` plus the run.* ones it does not define, computed on first use: a send whose file
 * names none of them (most sends) pays nothing for the calendar and the random id.
 */
export function withRunVariables(variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...variables };
  let computed: Record<string, string> | undefined;
  for (const name of RUN_NAMES) {
    if (Object.prototype.hasOwnProperty.call(out, name)) continue;
    Object.defineProperty(out, name, { enumerable: true, configurable: true, get: () => (computed ??= runVariables())[name] });
  }
  return out;
}
