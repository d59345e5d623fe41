/**
 * Part of a run, chosen: the tests whose name matches `--grep`, or those an earlier report says
 * failed (`--last-failed`), and of them those whose tags `--tag` takes. Capture chains stay whole: a chosen test brings the tests whose
 * captures it uses (withProducers), so it runs as it would in the whole run. What was chosen,
 * added and left out is counted, for the run to say.
 */
import { tagProblem } from '../requestFile/tags';
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

/** A test the rule takes, or any test without one. */
export type TestFilter = (test: PlannedTest) => boolean;
const ANY: TestFilter = () => true;

/**
 * `--tag` given once or more: `smoke` takes a test with that tag (several: any of them), `!slow`
 * leaves out a test with that one, whatever else it has. Only `!` tags: every test without them.
 * A string: why a value is no tag (a usage error).
 */
export function tagFilter(values: readonly string[]): TestFilter | string {
  const any: string[] = [];
  const none: string[] = [];
  for (const value of values) {
    const negated = value.startsWith('!');
    const tag = negated ? value.slice(1) : value;
    const why = tagProblem(tag);
    if (why) return `--tag ${value}: ${why}`;
    (negated ? none : any).push(tag);
  }
  return (test) => {
    const tags = test.tags ?? [];
    return !none.some((t) => tags.includes(t)) && (!any.length || any.some((t) => tags.includes(t)));
  };
}

/** The tests `also` takes (`--tag` alone). */
export function selectWhere(tests: readonly PlannedTest[], also: TestFilter): TestSelection {
  return selection(tests, new Set(tests.filter(also).map((t) => t.id)));
}

/** The tests whose name (`file [binding] [row …]`) the pattern matches anywhere, and `also` takes. */
export function selectByName(tests: readonly PlannedTest[], pattern: Matcher, also: TestFilter = ANY): TestSelection {
  return selection(tests, new Set(tests.filter((t) => pattern.test(t.name) && also(t)).map((t) => t.id)));
}

/**
 * The tests `earlier` says failed, as far as this run has them, matched by `key` (the CLI: the id
 * relative to the working folder, as the report wrote it); `missing` counts the failed tests of
 * the report this run does not have (a file since removed, a report from elsewhere).
 */
export function selectFailed(
  tests: readonly PlannedTest[],
  earlier: RunReport,
  key: (id: string) => string,
  also: TestFilter = ANY,
): TestSelection & { readonly missing: number } {
  const failed = new Set(earlier.results.filter((r) => r.status === 'failed').map((r) => key(r.test.id)));
  const inRun = tests.filter((t) => failed.has(key(t.id)));
  const chosen = new Set(inRun.filter(also).map((t) => t.id));
  const found = new Set(inRun.map((t) => key(t.id)));
  return { ...selection(tests, chosen), missing: [...failed].filter((k) => !found.has(k)).length };
}
