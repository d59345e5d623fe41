/** A structural check of JUnit XML against the JUnit XSD, shared by the reporter and end-to-end tests. */
import { strict as assert } from 'node:assert';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

type Node = Record<string, unknown>;
const ordered = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '' });

function children(node: Node): Array<{ name: string; node: Node }> {
  const name = Object.keys(node).find((k) => k !== ':@')!;
  return ((node[name] as Node[]) ?? []).filter((c) => !('#text' in c)).map((c) => ({ name: Object.keys(c).find((k) => k !== ':@')!, node: c }));
}
const attrsOf = (node: Node) => (node[':@'] ?? {}) as Record<string, string>;
const textOf = (node: Node) => ((Object.values(node)[0] as Node[]).find((c) => '#text' in c)?.['#text'] as string | undefined) ?? '';

/**
 * The structure of the JUnit XSD (Ant's JUnit.xsd as CI servers extend it: Jenkins junit-10.xsd,
 * Surefire): required elements and attributes, element order, numbers where numbers go, and the
 * counts on testsuites/testsuite agreeing with their testcases.
 */
export function checkJunitStructure(xml: string): { suites: number; cases: number } {
  const valid = XMLValidator.validate(xml);
  assert.equal(valid, true, `well-formed XML: ${JSON.stringify(valid)}`);
  const doc = ordered.parse(xml) as Node[];
  const roots = doc.filter((n) => !('?xml' in n));
  assert.equal(roots.length, 1);
  assert.ok('testsuites' in roots[0], 'root element is <testsuites>');
  const root = roots[0];
  const decimal = /^\d+(\.\d+)?$/;
  const integer = /^\d+$/;
  const sums = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  let cases = 0;
  const suites = children(root);
  assert.ok(suites.length > 0);
  for (const { name, node } of suites) {
    assert.equal(name, 'testsuite');
    const a = attrsOf(node);
    for (const required of ['name', 'tests', 'failures', 'errors', 'time', 'timestamp', 'hostname', 'id', 'package'])
      assert.ok(a[required] !== undefined, `testsuite@${required}`);
    for (const n of ['tests', 'failures', 'errors', 'skipped', 'id']) assert.match(a[n], integer, `testsuite@${n}`);
    assert.match(a.time, decimal);
    assert.match(a.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, "ISO 8601 without zone, as the XSD's dateTime pattern");
    const kids = children(node);
    const order = kids.map((k) => k.name);
    assert.equal(order[0], 'properties', 'properties first');
    assert.deepEqual(order.slice(-2), ['system-out', 'system-err'], 'system-out, system-err last');
    assert.ok(order.slice(1, -2).every((n) => n === 'testcase'));
    for (const p of children(kids[0].node)) {
      assert.equal(p.name, 'property');
      assert.ok(attrsOf(p.node).name && attrsOf(p.node).value !== undefined);
    }
    const testcases = kids.filter((k) => k.name === 'testcase');
    let failures = 0;
    let skipped = 0;
    for (const tc of testcases) {
      const ta = attrsOf(tc.node);
      for (const required of ['name', 'classname', 'time']) assert.ok(ta[required] !== undefined, `testcase@${required}`);
      assert.equal(ta.classname, a.name, 'classname is the collection folder');
      assert.match(ta.time, decimal, 'time in seconds');
      const inner = children(tc.node).map((c) => c.name);
      const rank = (n: string) => ['skipped', 'error', 'failure', 'system-out', 'system-err'].indexOf(n);
      assert.ok(
        inner.every((n) => rank(n) >= 0),
        `testcase children: ${inner}`,
      );
      assert.deepEqual(
        inner,
        [...inner].sort((x, y) => rank(x) - rank(y)),
        'testcase children in schema order',
      );
      for (const f of children(tc.node).filter((c) => c.name === 'failure')) {
        assert.ok(attrsOf(f.node).message, 'failure@message');
        assert.ok(attrsOf(f.node).type, 'failure@type');
        assert.ok(textOf(f.node).length > 0, 'failure details');
      }
      if (inner.includes('failure')) failures++;
      if (inner.includes('skipped')) skipped++;
    }
    assert.equal(Number(a.tests), testcases.length, 'testsuite@tests');
    assert.equal(Number(a.failures), failures, 'testsuite@failures');
    assert.equal(Number(a.skipped), skipped, 'testsuite@skipped');
    sums.tests += testcases.length;
    sums.failures += failures;
    sums.skipped += skipped;
    sums.errors += Number(a.errors);
    cases += testcases.length;
  }
  const ra = attrsOf(root);
  assert.equal(Number(ra.tests), sums.tests, 'testsuites@tests');
  assert.equal(Number(ra.failures), sums.failures, 'testsuites@failures');
  assert.equal(Number(ra.errors), sums.errors, 'testsuites@errors');
  assert.equal(Number(ra.skipped), sums.skipped, 'testsuites@skipped');
  assert.match(ra.time, decimal);
  return { suites: suites.length, cases };
}
