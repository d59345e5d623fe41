/** The caller's customer id (MyCarrierID): stable per API key, so two keys look like two customers. */
import type { JsonObject } from '../../core';
import { stableHash } from '../json';
import { text } from '../text';

export function myCarrierId(params: JsonObject): string {
  return String(100_000 + (stableHash(text(params.APIKey)) % 900_000));
}
