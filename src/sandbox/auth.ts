/**
 * The API key check. The contract leaves a bad key's reply open (docs/carrier-facts.md#gaps, docs/wire.md#authentication-rule-3);
 * the sandbox refuses it the way an ASMX service refuses a call it cannot serve: a client fault.
 */
import type { JsonObject } from '../core';
import { clientFault } from './soap/fault';

export function checkApiKey(params: JsonObject, accepted: ReadonlySet<string> | undefined): void {
  const key = typeof params.APIKey === 'string' ? params.APIKey.trim() : '';
  if (!key) throw clientFault('Missing API key: send your key in the APIKey parameter, the first child of the operation element.');
  if (accepted && !accepted.has(key)) throw clientFault('Invalid API key: the key in APIKey is not accepted by this service.');
}
