/**
 * A probe: for each shape and binding, fast-check draws examples (examples.ts) and each property
 * (properties.ts, and the user's from probe.json) is checked over them with fast-check, which
 * shrinks a failing example to a smaller one. Every property of a shape draws the same examples
 * (one seed per shape, binding and kind), and each distinct request is sent once: a send is
 * remembered by the request, so the properties share the exchanges and only shrinking sends more.
 *
 * Sending is the caller's (the CLI hands core's send(): docs/probe.md), so this folder reaches no
 * file above core's folders.
 */
import fc from 'fast-check';
import type { Binding, OperationDef } from '../catalog';
import type { Exchange } from '../exchange';
import type { CompiledExpect } from '../runner/compileExpect';
import { judgeExchange } from '../runner/judge';
import { firstCount, seedFor, shapeArbitraries, type PickupDay, type ProbeExample } from './examples';
import { appliesTo, BUILT_IN_PROPERTIES, checkProperty, verdictOf, type Broken, type BuiltInProperty } from './properties';

/** A property of the service written as data (probe.json): an `expect` every valid, successful reply of the operation meets. */
export interface UserProperty {
  readonly name: string;
  readonly operation: string;
  readonly version?: string;
  readonly expect: CompiledExpect;
  /** The `expect` as written, for the failure file. */
  readonly written: unknown;
}

/** What the sender made of an example: the exchange, or why it could not be sent (nothing went). */
export type SendOutcome = Exchange | { readonly notSent: string };

export interface ProbeInput {
  readonly shapes: readonly OperationDef[];
  /** A binding, or `all` the shape offers; undefined: soap11 where offered, else the shape's first. */
  readonly binding?: Binding | 'all';
  readonly seed: number;
  /** Examples drawn per shape and binding, valid and invalid together. */
  readonly maxExamples: number;
  /** The pickup day the examples ask for (the next one the carrier works): the same day and seed give the same examples. */
  readonly day?: PickupDay;
  /** `attempt` 2 is the same request again, for same-twice. */
  readonly send: (example: ProbeExample, attempt: 1 | 2) => Promise<SendOutcome>;
  readonly properties?: readonly UserProperty[];
  readonly onShape?: (result: ShapeResult) => void;
  readonly signal?: AbortSignal;
}

export interface ProbeFailure {
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  readonly property: string;
  readonly reason: string;
  /** The example fast-check shrank it to. */
  readonly example: ProbeExample;
  readonly expect: Record<string, unknown>;
  /** Its exchange, for a failure that is no request file (a binding the operation lacks). */
  readonly exchange?: Exchange;
}

export interface ShapeResult {
  readonly operation: string;
  readonly version: string;
  readonly binding: Binding;
  /** Distinct requests sent (shrinking included; same-twice's second sends not counted). */
  readonly examples: number;
  /** Examples the sender could not send (a value no builder writes). */
  readonly notSent: number;
  readonly failures: readonly ProbeFailure[];
}

export interface PropertyResult {
  readonly name: string;
  readonly checked: number;
  readonly failed: number;
}

export interface ProbeResult {
  readonly seed: number;
  readonly shapes: readonly ShapeResult[];
  readonly properties: readonly PropertyResult[];
  readonly failures: readonly ProbeFailure[];
}

function bindingsOf(op: OperationDef, binding: ProbeInput['binding']): Binding[] {
  if (binding === 'all') return [...op.bindings];
  if (binding) return op.bindings.includes(binding) ? [binding] : [];
  return [op.bindings.includes('soap11') ? 'soap11' : op.bindings[0]];
}

/** How many shape-and-binding rounds a probe makes: for progress that counts them as runProbe does. */
export function probeRounds(shapes: readonly OperationDef[], binding: ProbeInput['binding']): number {
  return shapes.reduce((n, op) => n + bindingsOf(op, binding).length, 0);
}

const keyOf = (e: ProbeExample) => JSON.stringify([e.binding, e.params]);

export async function runProbe(input: ProbeInput): Promise<ProbeResult> {
  const shapes: ShapeResult[] = [];
  const failures: ProbeFailure[] = [];
  const checked = new Map<string, { checked: number; failed: number }>();
  const count = (name: string, failed: boolean) => {
    const c = checked.get(name) ?? { checked: 0, failed: 0 };
    c.checked++;
    if (failed) c.failed++;
    checked.set(name, c);
  };
  for (const name of [...BUILT_IN_PROPERTIES, ...(input.properties ?? []).map((p) => p.name)]) checked.set(name, { checked: 0, failed: 0 });

  for (const op of input.shapes) {
    for (const binding of bindingsOf(op, input.binding)) {
      if (input.signal?.aborted) break;
      const arbs = shapeArbitraries(op, binding, input.day);
      const sent = new Map<string, Promise<SendOutcome>>();
      const again = new Map<string, Promise<SendOutcome>>();
      const sendOnce = (e: ProbeExample, attempt: 1 | 2) => {
        const memo = attempt === 1 ? sent : again;
        const key = keyOf(e);
        let p = memo.get(key);
        if (!p) memo.set(key, (p = input.send(e, attempt)));
        return p;
      };
      const shapeFailures: ProbeFailure[] = [];
      const label = `${op.operation}@${op.version}/${binding}`;
      const validRuns = arbs.invalid ? Math.ceil(input.maxExamples / 2) : input.maxExamples;
      const kinds = [
        { kind: 'valid' as const, arb: arbs.valid, runs: validRuns, first: arbs.validFirst },
        ...(arbs.invalid ? [{ kind: 'invalid' as const, arb: arbs.invalid, runs: input.maxExamples - validRuns, first: arbs.invalidFirst }] : []),
      ].filter((k) => k.runs > 0);

      const userProperties = (input.properties ?? []).filter((p) => p.operation === op.operation && (p.version === undefined || p.version === op.version));
      type Check = (e: ProbeExample) => Promise<Broken | undefined>;
      const checks: Array<{ name: string; kinds: ReadonlyArray<'valid' | 'invalid'>; check: Check }> = [
        ...BUILT_IN_PROPERTIES.map((name: BuiltInProperty) => ({
          name,
          kinds: (['valid', 'invalid'] as const).filter((kind) => appliesTo(name, { kind, operation: op.operation })),
          check: async (e: ProbeExample) => {
            const x = await sendOnce(e, 1);
            if ('notSent' in x) return undefined;
            const second = name === 'same-twice' ? await sendOnce(e, 2) : undefined;
            return checkProperty(name, e, x, second && !('notSent' in second) ? second : undefined);
          },
        })),
        ...userProperties.map((p) => ({
          name: p.name,
          kinds: ['valid'] as const,
          check: async (e: ProbeExample): Promise<Broken | undefined> => {
            const x = await sendOnce(e, 1);
            // Properties of the service's answers: a request it refused in-body or could not answer says nothing of them.
            if ('notSent' in x || verdictOf(x).kind !== 'success') return undefined;
            const { failures: failed } = judgeExchange(x, { expect: p.expect, lookup: () => undefined, keepExchange: false });
            return failed.length ? { reason: failed.map((f) => f.message).join('; '), expect: p.written as Record<string, unknown> } : undefined;
          },
        })),
      ];

      for (const { name, kinds: theirs, check } of checks) {
        for (const { kind, arb, runs, first } of kinds) {
          if (!theirs.includes(kind) || input.signal?.aborted) continue;
          const seen = new Set<string>();
          const details = await fc.check(
            fc.asyncProperty(arb, async (e) => {
              const broken = await check(e);
              const key = keyOf(e);
              if (!seen.has(key)) {
                seen.add(key);
                count(name, false);
              }
              return broken === undefined;
            }),
            { seed: seedFor(input.seed, label, kind), numRuns: runs, examples: first.slice(0, firstCount(runs, first.length)).map((e) => [e]) },
          );
          if (!details.failed || !details.counterexample) continue;
          const example = details.counterexample[0];
          const broken = await check(example);
          if (!broken) continue; // held when asked again: the failure is the service's mood, which same-twice reports
          const c = checked.get(name)!;
          c.failed++;
          const x = await sendOnce(example, 1);
          shapeFailures.push({
            operation: op.operation,
            version: op.version,
            binding: example.binding,
            property: name,
            reason: broken.reason,
            example,
            expect: broken.expect,
            ...(example.mutation?.rule === 'wrong-binding' && !('notSent' in x) ? { exchange: x } : {}),
          });
        }
      }
      let notSent = 0;
      for (const p of sent.values()) if ('notSent' in (await p)) notSent++;
      const result: ShapeResult = { operation: op.operation, version: op.version, binding, examples: sent.size, notSent, failures: shapeFailures };
      shapes.push(result);
      failures.push(...shapeFailures);
      input.onShape?.(result);
    }
  }
  return { seed: input.seed, shapes, properties: [...checked].map(([name, c]) => ({ name, ...c })), failures };
}
