/**
 * Where the CLI finds an environment's API key. Core never reads process.env itself: the map is
 * passed in, so the extension can use its secret storage instead and tests stay hermetic.
 */
import { SANDBOX_DEFAULT_KEY, SANDBOX_ENVIRONMENT } from './builtin';

export type ApiKeySource = 'environment-specific' | 'generic' | 'sandbox-default';

export interface ResolvedApiKey {
  readonly key: string;
  /** The variable it came from (never the value), for messages such as "key from CARRIER_API_KEY". */
  readonly from: string;
  readonly source: ApiKeySource;
}

/** `CARRIER_API_KEY_<NAME>`: the name upper-cased, every non-alphanumeric as `_`. */
export function apiKeyVariable(environmentName: string): string {
  return `CARRIER_API_KEY_${environmentName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export const GENERIC_API_KEY_VARIABLE = 'CARRIER_API_KEY';

/**
 * The key for `environmentName`: the environment-specific variable, else the generic one, else
 * (for the sandbox only) a fixed harmless key. Empty values count as unset.
 */
export function apiKeyFromVariables(
  environmentName: string,
  vars: Readonly<Record<string, string | undefined>>,
  embedded = environmentName === SANDBOX_ENVIRONMENT,
): ResolvedApiKey | undefined {
  const specific = apiKeyVariable(environmentName);
  if (vars[specific]) return { key: vars[specific]!, from: specific, source: 'environment-specific' };
  if (vars[GENERIC_API_KEY_VARIABLE]) return { key: vars[GENERIC_API_KEY_VARIABLE]!, from: GENERIC_API_KEY_VARIABLE, source: 'generic' };
  if (embedded) return { key: SANDBOX_DEFAULT_KEY, from: 'the sandbox default', source: 'sandbox-default' };
  return undefined;
}

/** What to tell a person whose environment has no key. */
export function missingApiKeyMessage(environmentName: string): string {
  return `No API key for environment "${environmentName}": set ${apiKeyVariable(environmentName)} or ${GENERIC_API_KEY_VARIABLE}`;
}
