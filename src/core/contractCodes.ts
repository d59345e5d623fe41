/**
 * What each contract finding is and how grave (docs/collections.md#contract-findings, whose table
 * test/unit/contract-table.test.ts holds against this one). An error is what a typed client
 * (zeep, .NET, JAX-WS) cannot read past, or what leaves the verdict ambiguous: no test of such a
 * reply passes. A warning is what such a client skips: shown everywhere, failing only a strict run.
 * Browser-safe: the results panel names the codes with these phrases (src/core/view.ts).
 */
import type { ContractCode } from './exchange';

export interface ContractCodeInfo {
  readonly severity: 'error' | 'warning';
  /** A few words for a list: "not of its type". */
  readonly phrase: string;
}

export const CONTRACT_CODES: Readonly<Record<ContractCode, ContractCodeInfo>> = {
  'not-of-type': { severity: 'error', phrase: 'value not of its type' },
  'missing-element': { severity: 'error', phrase: 'required element missing' },
  repeated: { severity: 'error', phrase: 'single element repeated' },
  'wrong-namespace': { severity: 'error', phrase: 'wrong namespace' },
  'soap-version': { severity: 'error', phrase: 'other SOAP version' },
  'no-result': { severity: 'error', phrase: 'response without result' },
  'empty-result': { severity: 'error', phrase: 'empty result' },
  'unknown-element': { severity: 'warning', phrase: 'element not in the contract' },
  'out-of-order': { severity: 'warning', phrase: 'out of order' },
};
