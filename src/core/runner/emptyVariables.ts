/**
 * For `carrier run`, beside its check of the `{{variables}}` nothing defines (engine.ts
 * variableProblems): the expectations a value known before the run empties — `--var`, the
 * environment's `variables`, collection.json `variables` — are file errors, and nothing is sent
 * (emptyValues.ts says why). A data row's cells are checked when the plan is made (rows.ts).
 */
import { emptyExpectationProblems, type KnownLookup } from './emptyValues';
import { environmentNameOf, type ExecuteOptions } from './engine';
import type { PlannedRun } from './plan';
import type { Failure, PlannedTest } from './types';
import { variableText } from './variables';

/** Each said once per file and place. A name a producer of the test captures is known only during the run. */
export function emptyVariableProblems(plan: PlannedRun, options: Pick<ExecuteOptions, 'backend' | 'environment' | 'variables'>): Failure[] {
  // Made when the first test that uses a name needs it: a run of files without {{variables}} never does.
  let byId: Map<string, PlannedTest> | undefined;
  const problems: Failure[] = [];
  const said = new Set<string>();
  for (const test of plan.tests) {
    const file = plan.files.get(test.file);
    if (!file?.request || !file.uses.length || plan.unavailable.has(test.id)) continue;
    const env = options.backend.environment(environmentNameOf(test, file, options));
    if (typeof env === 'string') continue;
    byId ??= new Map(plan.tests.map((t) => [t.id, t]));
    const captured = new Set(test.dependsOn.flatMap((d) => byId!.get(d)?.captures ?? []));
    // Highest first, as the run fills them (engine.ts variablesFor).
    const known: KnownLookup = (name) => {
      if (captured.has(name)) return undefined;
      if (options.variables && has(options.variables, name)) return { value: options.variables[name], from: `--var ${name}=` };
      if (test.row && has(test.row.texts, name)) return undefined;
      const own = has(env.variables, name) ? variableText(env.variables[name]) : undefined;
      if (own !== undefined) return { value: own, from: `the variables of environment "${env.name}"` };
      return has(test.collection.variables, name) ? { value: test.collection.variables[name], from: 'the variables of collection.json' } : undefined;
    };
    for (const p of emptyExpectationProblems(file.expect, known)) {
      const key = `${test.file}\0${p.location?.line}:${p.location?.column}\0${p.message}`;
      if (said.has(key)) continue;
      said.add(key);
      problems.push(p);
    }
  }
  return problems;
}

function has(values: object, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(values, name);
}
