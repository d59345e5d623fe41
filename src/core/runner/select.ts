/**
 * Part of a run, chosen: the tests whose name matches `--grep`, or those an earlier report says
 * failed (`--last-failed`). Capture chains stay whole: a chosen test brings the tests whose
 * captures it uses (withProducers), so it runs as it would in the whole run. What was chosen,
 * added and left out is counted, for the run to say.
 */
import type { Matcher } from './pattern';
import { withProducers } from './plan';
import type { PlannedTest, RunReport } from './types';

export interface TestSelection {
  /** The ids to run: the chosen tests and the producers they need. */
  readonly ids: ReadonlySet<string>;
  /** Tests the rule chose. */
  readonly chosen: number;
  /** Tests added so that the chosen ones get the values they capture. */
  readonly producers: number;
  /** Tests of the run not run. */
  readonly leftOut: number;
}

function selection(tests: readonly PlannedTest[], chosen: ReadonlySet<string>): TestSelection {
  const ids = withProducers(tests, chosen);
  return { ids, chosen: chosen.size, producers: ids.size - chosen.size, leftOut: tests.length - ids.size };
}

/** The tests whose name (`file [binding] [row …]`) the pattern matches anywhere. */
export function selectByName(tests: readonly PlannedTest[], pattern: Matcher): TestSelection {
  return selection(tests, new Set(tests.filter((t) => pattern.test(t.name)).map((t) => t.id)));
}

/**
 * The tests `earlier` says failed, as far as this run has them, matched by `key` (the CLI: the id
 * relative to the working folder, as the report wrote it); `missing` counts the failed tests of
 * the report this run does not have (a file since removed, a report from elsewhere).
 */
export function selectFailed(tests: readonly PlannedTest[], earlier: RunReport, key: (id: string) => string): TestSelection & { readonly missing: number } {
  const failed = new Set(earlier.results.filter((r) => r.status === 'failed').map((r) => key(r.test.id)));
  const chosen = new Set(tests.filter((t) => failed.has(key(t.id))).map((t) => t.id));
  const found = new Set([...chosen].map(key));
  return { ...selection(tests, chosen), missing: [...failed].filter((k) => !found.has(k)).length };
}
