/**
 * What `carrier probe` holds every reply to (docs/probe.md#properties), each by name. A property
 * returns undefined when it holds, else the reason it does not and the `expect` of a request file
 * that fails for that same reason today (docs/collections.md#expect).
 */
import type { Exchange } from '../exchange';
import { classifyExchange } from '../verdict';
import { CREATING_OPERATIONS, type Mutation, type ProbeExample } from './examples';

export type BuiltInProperty = 'no-5xx-but-faults' | 'no-transport-failure' | 'no-contract-errors' | 'invalid-is-refused' | 'valid-is-answered' | 'same-twice';

export const BUILT_IN_PROPERTIES: readonly BuiltInProperty[] = [
  'no-5xx-but-faults',
  'no-transport-failure',
  'no-contract-errors',
  'invalid-is-refused',
  'valid-is-answered',
  'same-twice',
];

export interface Broken {
  readonly reason: string;
  /** The failure file's `expect`. */
  readonly expect: Record<string, unknown>;
}

/** The verdict send() judged (src/core/verdict.ts), or the same decided again for an exchange made elsewhere. */
export function verdictOf(x: Exchange) {
  return x.judgement?.verdict ?? classifyExchange(x);
}

/** Which examples a property is about. */
export function appliesTo(property: BuiltInProperty, example: Pick<ProbeExample, 'kind' | 'operation'>): boolean {
  switch (property) {
    case 'invalid-is-refused':
      return example.kind === 'invalid';
    case 'valid-is-answered':
      return example.kind === 'valid';
    case 'same-twice':
      return !CREATING_OPERATIONS.includes(example.operation);
    default:
      return true;
  }
}

/** In-body errors (WasSuccess=false, Messages…) of the reply. */
function inBodyErrors(x: Exchange): string[] {
  return x.findings.filter((f) => f.kind === 'in-body' && f.severity === 'error').map((f) => f.message);
}

/**
 * The refusal of the HTTP GET and POST bindings: HTTP 500 with a text/plain reason, as ASMX
 * answers them (docs/sandbox.md, "Refusals"); the reason, or undefined for any other reply.
 */
function httpBindingRefusal(example: Pick<ProbeExample, 'binding'>, x: Exchange): string | undefined {
  if (example.binding !== 'get' && example.binding !== 'post') return undefined;
  const reply = x.reply;
  if (!reply || reply.status !== 500) return undefined;
  const type = reply.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  return /^text\/plain\b/i.test(type) && reply.bodyText.trim() ? reply.bodyText : undefined;
}

/** What the reply said when it refused: the fault's reason and detail, its in-body errors, an HTTP binding's reason. */
function refusalText(example: Pick<ProbeExample, 'binding'>, x: Exchange): string {
  const parts = inBodyErrors(x);
  if (x.fault) parts.push(x.fault.reason, x.fault.detail === undefined ? '' : JSON.stringify(x.fault.detail));
  const http = httpBindingRefusal(example, x);
  if (http) parts.push(http);
  return parts.join('\n');
}

/**
 * Whether a refusal names the broken field: the field itself or, for a record left out, a field
 * inside it (a service that misses a whole \`request\` says which of its parts it needs).
 */
function namesField(text: string, mutation: Mutation): boolean {
  const said = text.toLowerCase();
  return [mutation.field, ...(mutation.inside ?? [])].some((name) => said.includes(name.toLowerCase()));
}

/** Today's answer, as expectations that hold of it (so a failure file fails only for its reason). */
function answeredAs(x: Exchange): Record<string, unknown> {
  const kind = verdictOf(x).kind;
  if (kind === 'fault') return { fault: true };
  if (kind === 'in-body-error') return { success: false };
  return {};
}

/** Checks one property of one example's exchange; `second` is the same request's second exchange (same-twice). */
export function checkProperty(property: BuiltInProperty, example: ProbeExample, x: Exchange, second?: Exchange): Broken | undefined {
  const verdict = verdictOf(x);
  const status = x.reply?.status;
  switch (property) {
    case 'no-5xx-but-faults':
      if (status === undefined || status < 500 || x.fault) return undefined;
      // An HTTP binding refuses an invalid request this way by design; a valid one answered so is a failure.
      if (example.kind === 'invalid' && httpBindingRefusal(example, x) !== undefined) return undefined;
      return {
        reason: `HTTP ${status} without a SOAP fault (${verdict.reason})`,
        expect: example.kind === 'valid' ? { status: 200 } : { fault: true },
      };
    case 'no-transport-failure':
      if (!x.error) return undefined;
      return { reason: `no reply: ${x.error.kind}: ${x.error.message}`, expect: { body: 'xml' } };
    case 'no-contract-errors': {
      const errors = x.findings.filter((f) => f.kind === 'contract' && f.severity === 'error');
      if (!errors.length) return undefined;
      const where = errors.map((f) => `${f.path ? `${f.path}: ` : ''}${f.message}`).join('; ');
      return { reason: `contract error: ${where}`, expect: { ...answeredAs(x), conforms: true } };
    }
    case 'invalid-is-refused': {
      const mutation = example.mutation;
      if (!mutation) return undefined;
      if (mutation.rule === 'wrong-binding') {
        // Over a binding it does not offer there is no field to name: any refusal will do.
        if (x.error || x.fault || (status !== undefined && status >= 400) || verdict.kind !== 'success') return undefined;
        return { reason: `${mutation.label}, yet answered as a success`, expect: { status: 404 } };
      }
      const refused = verdict.kind === 'fault' || inBodyErrors(x).length > 0 || httpBindingRefusal(example, x) !== undefined;
      if (refused && namesField(refusalText(example, x), mutation)) return undefined;
      if (!refused && verdict.kind !== 'success') return undefined; // not answered at all: the properties above say so
      const pattern = mutation.field.replace(/[^\w]/g, '.');
      if (!refused) return { reason: `${mutation.label}, yet answered as a success`, expect: { success: false, messages: [pattern] } };
      return {
        reason: `${mutation.label}: refused without naming ${mutation.field} (${verdict.reason})`,
        expect: verdict.kind === 'fault' ? { fault: { reason: pattern } } : { success: false, messages: [pattern] },
      };
    }
    case 'valid-is-answered':
      if (verdict.kind === 'success' || verdict.kind === 'in-body-error') return undefined;
      // No reply, a 5xx page or a contract error: the properties above say so, once.
      if (verdict.kind === 'transport-error' || verdict.kind === 'contract-error' || verdict.kind === 'cancelled') return undefined;
      if (!x.fault && status !== undefined && status >= 500) return undefined;
      if (verdict.kind === 'fault') return { reason: `a valid request answered by a fault: ${verdict.reason}`, expect: { fault: false } };
      return { reason: `a valid request not answered: ${verdict.reason}`, expect: { status: 200 } };
    case 'same-twice': {
      if (!second) return undefined;
      const again = verdictOf(second);
      if (again.kind === verdict.kind) return undefined;
      return { reason: `the same request answered ${verdict.label} first, then ${again.label}`, expect: answeredAs(x) };
    }
  }
}
