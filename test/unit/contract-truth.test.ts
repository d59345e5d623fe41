/**
 * Contract truth: a reply a typed client (zeep, .NET) could not read fails its test whatever the
 * file's `expect` says, and says where. Each request file here states only `status`; the service
 * behind it is the real embedded sandbox with ONE defect put into its replies by the spoiling
 * service (spoiling-service.ts), chosen by the environment's baseUrl (`…/spoil/int-not-int`).
 * `carrier run` runs in-process with every reporter, and the test reads the exit code, the console,
 * junit.xml's <failure>, report.html and report.json:
 *
 * - contract errors (a value not of its type, a single element twice, another namespace, another
 *   SOAP version, no or an empty <Operation>Result) exit 1 and name the reply path, or the element
 *   for envelope-level findings (`GetHazmatDescriptionResponse`, `SOAP 1.2`);
 * - contract warnings (an element the contract does not know, fields out of order) pass, mentioned
 *   with their path, and fail under --strict-contract, "strictContract": true in collection.json
 *   and "conforms": true in the file's expect;
 * - an HTML page, an empty body or plain text satisfies no `status` unless expect says `"body"`.
 *
 * The unspoilt replies pass through the same service on every binding used, so each failure is the
 * defect's doing, and the spoiling service itself is checked first against replies fetched
 * directly (the harness holds whatever core decides).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseJsonc } from 'jsonc-parser';
import { runCli } from '../../src/cli/dispatch';
import type { CliIo } from '../../src/cli/command';
import { apiKeyVariable } from '../../src/core/environments';
import type { XmlElement } from '../../src/core/xml/dom';
import { checkJunitStructure } from './junit-structure';
import {
  actionOf,
  at,
  child,
  children,
  el,
  envelope,
  http,
  KEY,
  messagesOf,
  NS_DISTINCT,
  SOAP11,
  SOAP12,
  soapHeaders,
  xml,
  type HttpResult,
} from './sandbox-kit';
import { bolRequest, CASES, todayUs, type ShapeCase } from './sandbox-requests';
import {
  DEFECTS,
  defectSlug,
  FOREIGN_NAMESPACE,
  SPELT_FALSE_MESSAGE,
  startSpoilingService,
  UNKNOWN_ELEMENT,
  type DefectName,
  type Reply,
  type SpoilingService,
} from './spoiling-service';

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

type Binding = 'soap11' | 'soap12' | 'get' | 'post';
const ALL: readonly Binding[] = ['soap11', 'soap12', 'get', 'post'];
const SOAP: readonly Binding[] = ['soap11', 'soap12'];
const isSoap = (b: Binding) => b === 'soap11' || b === 'soap12';

// ---------------------------------------------------------------------------------------------
// The operations used: a request file from the examples (its params as the examples write them),
// and the same request written by hand for fetching replies directly (sandbox-requests.ts).

type ShapeName = 'terminal' | 'documentTypes' | 'hazmat' | 'bolPdf' | 'rate100' | 'rate103' | 'transit' | 'trace' | 'createBol';

const caseOf = (operation: string, version: string): ShapeCase => {
  const c = CASES.find((x) => x.operation === operation && x.version === version);
  if (!c) throw new Error(`no sandbox-requests case for ${operation} ${version}`);
  return c;
};

const SHAPES: Record<ShapeName, { readonly example: string; readonly direct: ShapeCase }> = {
  terminal: { example: 'terminals/get-terminal-information.carrier.json', direct: caseOf('GetTerminalInformation', '1.0.2') },
  documentTypes: { example: 'documents/get-document-types.carrier.json', direct: caseOf('GetDocumentTypes', '1.0.0') },
  hazmat: { example: 'bill-of-lading/get-hazmat-description.carrier.json', direct: caseOf('GetHazmatDescription', 'sandbox') },
  bolPdf: { example: 'bill-of-lading/get-bill-of-lading-pdf.carrier.json', direct: caseOf('GetBillOfLadingPdf', 'sandbox') },
  rate100: { example: 'rate-quote/get-rate-quote-1.0.0.carrier.json', direct: caseOf('GetRateQuote', '1.0.0') },
  rate103: { example: 'rate-quote/get-rate-quote-1.0.3.carrier.json', direct: caseOf('GetRateQuote', '1.0.3') },
  transit: { example: 'transit-times/get-transit-times.carrier.json', direct: caseOf('GetTransitTimes', '1.0.0') },
  trace: { example: 'tracing/trace-shipment.carrier.json', direct: caseOf('TraceShipment', '1.0.2') },
  createBol: {
    example: 'bill-of-lading/create-bill-of-lading.carrier.json',
    // Dated today: the sandbox runs on the real clock and refuses a bill of lading dated long ago.
    direct: { ...caseOf('CreateBillOfLading', '1.0.1'), wrapper: (k = KEY) => el('CreateBillOfLading', [el('APIKey', k), bolRequest({ date: todayUs() })]) },
  },
};

/** A request file: the example's operation, version and params, the binding, and `expect`. */
function requestFileText(shape: ShapeName, binding: Binding, expect: Record<string, unknown>): string {
  const example = parseJsonc(fs.readFileSync(path.join(EXAMPLES, SHAPES[shape].example), 'utf8')) as Record<string, unknown>;
  const { operation, version, description, params } = example;
  return JSON.stringify({ operation, ...(version ? { version } : {}), binding, description, params, expect }, null, 2);
}

/** The shape's request sent straight to `base` (the spoiling service's /spoil/… or /clean), as a client of that binding sends it. */
function direct(base: string, shape: ShapeName, binding: Binding): Promise<HttpResult> {
  const c = SHAPES[shape].direct;
  if (isSoap(binding)) {
    const version = binding === 'soap11' ? '1.1' : '1.2';
    return http(base + c.path, {
      method: 'POST',
      body: envelope(version, c.wrapper(), NS_DISTINCT, 'default-xmlns'),
      headers: soapHeaders(version, actionOf(NS_DISTINCT, c.operation), 'quoted'),
    });
  }
  if (!c.form) throw new Error(`${c.operation} offers no HTTP ${binding}`);
  const form = new URLSearchParams(c.form()).toString();
  return binding === 'get'
    ? http(`${base}${c.path}/${c.operation}?${form}`)
    : http(`${base}${c.path}/${c.operation}`, { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
}

// ---------------------------------------------------------------------------------------------
// The defects each binding is tried with, and what a failure must name.

interface NamedCase {
  readonly defect: DefectName;
  readonly shape: ShapeName;
  readonly bindings: readonly Binding[];
  /** What the console, junit.xml, report.html and report.json must name: the reply path, or the element. */
  readonly names: (binding: Binding) => string | RegExp;
}

const ERROR_CASES: readonly NamedCase[] = [
  { defect: 'wasSuccessFalseSpelt', shape: 'rate103', bindings: SOAP, names: () => 'WasSuccess' },
  { defect: 'wasSuccessTwice', shape: 'rate103', bindings: SOAP, names: () => 'WasSuccess' },
  { defect: 'intNotInt', shape: 'terminal', bindings: ALL, names: () => 'Result[0].TerminalDetails.TerminalDetailID' },
  { defect: 'boolNotBool', shape: 'createBol', bindings: SOAP, names: () => 'BillOfLading.Items[0].IsHazmat' },
  { defect: 'decimalNotDecimal', shape: 'rate100', bindings: SOAP, names: () => 'Result.CustomerDiscounts' },
  { defect: 'dateTimeNotDateTime', shape: 'terminal', bindings: ALL, names: () => 'Result[0].TerminalDetails.DateCreated' },
  { defect: 'enumerationUnknown', shape: 'documentTypes', bindings: ALL, names: () => 'AvailableDocumentTypes[0]' },
  { defect: 'base64NotBase64', shape: 'bolPdf', bindings: ALL, names: () => 'PdfDocument' },
  // Both fields are moved; a report naming either is right.
  { defect: 'foreignNamespaceFields', shape: 'documentTypes', bindings: ALL, names: () => /\b(?:Documents|AvailableDocumentTypes)\b/ },
  {
    defect: 'foreignNamespaceResponse',
    shape: 'hazmat',
    bindings: ALL,
    names: (b) => (isSoap(b) ? 'GetHazmatDescriptionResponse' : 'GetHazmatDescriptionReply'),
  },
  { defect: 'foreignNamespaceResult', shape: 'terminal', bindings: SOAP, names: () => 'GetTerminalInformationResult' },
  { defect: 'soapVersionSwapped', shape: 'transit', bindings: SOAP, names: (b) => (b === 'soap11' ? 'SOAP 1.2' : 'SOAP 1.1') },
  { defect: 'noResult', shape: 'trace', bindings: SOAP, names: () => 'TraceShipmentResult' },
  { defect: 'emptyResult', shape: 'transit', bindings: SOAP, names: () => 'GetTransitTimesResult' },
];

const WARNING_CASES: readonly NamedCase[] = [
  { defect: 'unknownElement', shape: 'terminal', bindings: ALL, names: () => `Result[0].TerminalDetails.${UNKNOWN_ELEMENT}` },
  // Swapped: a report naming either of the two is right.
  { defect: 'outOfOrder', shape: 'terminal', bindings: ALL, names: () => /Result\[0\]\.TerminalDetails\.TerminalMailing(?:City|State)\b/ },
];

interface BodyCase {
  readonly defect: DefectName;
  readonly shape: ShapeName;
  readonly bindings: readonly Binding[];
  readonly status: number;
  readonly body: 'html' | 'text' | 'empty';
}

const BODY_CASES: readonly BodyCase[] = [
  { defect: 'iisHtml500', shape: 'terminal', bindings: ALL, status: 500, body: 'html' },
  { defect: 'emptyBody200', shape: 'hazmat', bindings: ALL, status: 200, body: 'empty' },
  // The HTTP bindings' own plain-text error, and a SOAP endpoint behind the same broken front.
  { defect: 'plainText500', shape: 'documentTypes', bindings: ['soap11', 'get', 'post'], status: 500, body: 'text' },
];

// ---------------------------------------------------------------------------------------------
// carrier run, in-process, and what it leaves.

const environmentName = (defect: DefectName | 'clean') => (defect === 'clean' ? 'clean' : `spoil-${defectSlug(defect)}`);

interface JunitCase {
  readonly name: string;
  readonly failures: readonly string[];
}
interface ReportTest {
  readonly name: string;
  readonly status: string;
  readonly binding?: string;
  readonly failures: ReadonlyArray<{ readonly kind: string; readonly message: string; readonly path?: string }>;
}

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly junit: readonly JunitCase[];
  /** report.html as a reader sees it: scripts (the exchanges' JSON), styles and tags taken out. */
  readonly html: string;
  readonly tests: readonly ReportTest[];
}

const junitParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name) });

function junitCases(text: string): JunitCase[] {
  checkJunitStructure(text);
  const doc = junitParser.parse(text) as {
    testsuites: { testsuite?: Array<{ testcase?: Array<{ name: string; failure?: Array<string | { message?: string; '#text'?: string }> }> }> };
  };
  return (doc.testsuites.testsuite ?? [])
    .flatMap((s) => s.testcase ?? [])
    .map((tc) => ({
      name: tc.name,
      failures: (tc.failure ?? []).map((f) => (typeof f === 'string' ? f : `${f.message ?? ''}\n${f['#text'] ?? ''}`)),
    }));
}

function visibleHtml(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/g, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}

const mentions = (text: string, name: string | RegExp) => (typeof name === 'string' ? text.includes(name) : name.test(text));

describe('contract truth: carrier run against the sandbox with one defect in its replies', function () {
  this.timeout(120_000);
  let service: SpoilingService;
  let tmp: string;
  let seq = 0;

  before(async () => {
    service = await startSpoilingService();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrier-contract-truth-'));
    const environments: Record<string, { baseUrl: string; timeoutMs: number }> = {};
    for (const defect of [...(Object.keys(DEFECTS) as DefectName[]), 'clean' as const])
      environments[environmentName(defect)] = { baseUrl: service.urlFor(defect), timeoutMs: 20_000 };
    fs.writeFileSync(path.join(tmp, 'carrier.environments.json'), JSON.stringify(environments, null, 2));
  });
  after(async () => {
    await service?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  interface RunSpec {
    readonly defect: DefectName | 'clean';
    readonly files: ReadonlyArray<{ readonly shape: ShapeName; readonly binding: Binding; readonly expect: Record<string, unknown> }>;
    readonly args?: readonly string[];
    readonly collection?: Record<string, unknown>;
  }

  /**
   * `carrier run` over fresh request files in a folder of their own, against the defect's
   * environment. One file is run by its name; several (or a collection.json) as the folder. The
   * harness is checked before anything else: every request was forwarded and spoilt as asked.
   */
  async function run(spec: RunSpec): Promise<Outcome> {
    const dir = path.join(tmp, `${++seq}-${spec.defect === 'clean' ? 'clean' : defectSlug(spec.defect)}`);
    fs.mkdirSync(dir);
    const names = spec.files.map((f) => (spec.files.length === 1 ? 'reply.carrier.json' : `reply-${f.shape}-${f.binding}.carrier.json`));
    spec.files.forEach((f, i) => fs.writeFileSync(path.join(dir, names[i]!), requestFileText(f.shape, f.binding, f.expect)));
    if (spec.collection) fs.writeFileSync(path.join(dir, 'collection.json'), JSON.stringify(spec.collection, null, 2));
    const env = environmentName(spec.defect);
    const target = spec.files.length === 1 && !spec.collection ? names[0]! : '.';
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd: dir,
      env: { NO_COLOR: '1', [apiKeyVariable(env)]: KEY },
    };
    const before = service.exchanges.length;
    const code = await runCli(['run', target, '--env', env, '--reporter', 'cli,junit,html,json', '--out', 'out', ...(spec.args ?? [])], io);

    // The harness first: a test of the contract is only worth something if the reply was spoilt.
    const errors = service.errors.splice(0);
    assert.deepEqual(errors, [], `harness: the spoiling service could not serve a request\n${stdout}${stderr}`);
    if (code !== 2) {
      const forwarded = service.exchanges.slice(before);
      assert.equal(
        forwarded.length,
        spec.files.length,
        `harness: ${forwarded.length} requests reached the spoiling service, not ${spec.files.length}\n${stdout}${stderr}`,
      );
      const wanted = spec.defect === 'clean' ? undefined : spec.defect;
      assert.ok(
        forwarded.every((x) => x.defect === wanted),
        'harness: every request went through the defect asked for',
      );
    }

    const read = (file: string) => {
      try {
        return fs.readFileSync(path.join(dir, 'out', file), 'utf8');
      } catch {
        return undefined;
      }
    };
    const junit = read('junit.xml');
    const html = read('report.html');
    const json = read('report.json');
    return {
      code,
      stdout,
      stderr,
      junit: junit ? junitCases(junit) : [],
      html: html ? visibleHtml(html) : '',
      tests: json ? (JSON.parse(json) as { tests: ReportTest[] }).tests : [],
    };
  }

  const shown = (o: Outcome) => `exit ${o.code}\n--- stdout\n${o.stdout}--- stderr\n${o.stderr}`;

  /** The run failed every test, and each face names `name`: console, junit.xml's <failure>, report.html, report.json. */
  function assertFailedNaming(o: Outcome, name: string | RegExp, tests: number): void {
    assert.equal(o.code, 1, `expected exit 1\n${shown(o)}`);
    assert.equal(o.tests.length, tests, `report.json has ${o.tests.length} tests, not ${tests}\n${shown(o)}`);
    for (const t of o.tests) assert.equal(t.status, 'failed', `report.json: ${t.name} is ${t.status}\n${shown(o)}`);
    assert.ok(mentions(o.stdout, name), `the console names ${name}\n${shown(o)}`);
    assert.equal(o.junit.length, tests, `junit.xml has ${o.junit.length} testcases\n${shown(o)}`);
    for (const tc of o.junit) {
      assert.ok(tc.failures.length > 0, `junit.xml: ${tc.name} has no <failure>\n${shown(o)}`);
      assert.ok(
        tc.failures.some((f) => mentions(f, name)),
        `junit.xml: the <failure> of ${tc.name} names ${name}:\n${tc.failures.join('\n')}`,
      );
    }
    assert.ok(mentions(o.html, name), `report.html names ${name}\n${shown(o)}`);
    // Named by the contract, not only by the in-body error a lenient reading would make of it
    // (a WasSuccess read as false is reported as kind "success").
    for (const t of o.tests) {
      assert.ok(
        t.failures.some((f) => f.kind !== 'success' && mentions(`${f.path ?? ''} ${f.message}`, name)),
        `report.json: no failure of ${t.name} but the in-body report names ${name}: ${JSON.stringify(t.failures, null, 2)}`,
      );
    }
  }

  // -------------------------------------------------------------------------------------------

  describe('the spoiling service (the harness, checked on replies fetched directly)', () => {
    /** The spoilt reply as fetched, and the sandbox's own reply it was made from. */
    async function spoilt(
      defect: DefectName,
      shape: ShapeName,
      binding: Binding,
    ): Promise<{ original: Reply; got: HttpResult; root: XmlElement | undefined; originalRoot: XmlElement }> {
      const before = service.exchanges.length;
      const got = await direct(service.urlFor(defect), shape, binding);
      assert.deepEqual(service.errors.splice(0), [], `${defect} over ${binding}`);
      const x = service.exchanges[before];
      assert.ok(x && service.exchanges.length === before + 1, 'one exchange recorded');
      assert.equal(x.defect, defect);
      assert.equal(x.original.status, 200, `the sandbox answered ${shape} over ${binding}: ${x.original.body.slice(0, 300)}`);
      // What was recorded is what was sent.
      assert.equal(got.status, x.sent.status);
      assert.equal(got.contentType, x.sent.contentType);
      assert.equal(got.text, x.sent.body);
      assert.ok(got.text !== x.original.body || got.status !== x.original.status || got.contentType !== x.original.contentType, 'the reply was spoilt');
      let root: XmlElement | undefined;
      try {
        root = xml(got.text);
      } catch {
        root = undefined;
      }
      return { original: x.original, got, root, originalRoot: xml(x.original.body) };
    }

    const envelopeNs = (b: Binding) => (b === 'soap11' ? SOAP11 : SOAP12);
    function responseOf(root: XmlElement | undefined, binding: Binding): XmlElement {
      const r = isSoap(binding) ? child(root, 'Body')?.children[0] : root;
      assert.ok(r, 'a response element');
      return r;
    }
    function resultOf(root: XmlElement | undefined, binding: Binding): XmlElement {
      const response = responseOf(root, binding);
      if (!isSoap(binding)) return response;
      const result = child(response, response.local.replace(/Response$/, 'Result'));
      assert.ok(result, `no result in ${response.local}`);
      return result;
    }

    /** The texts differ only inside one value: what changed is part of `was` in the original and of `now` in the spoilt text. */
    function onlyValueChanged(original: string, spoiltText: string, was: string, now: string): void {
      let head = 0;
      while (head < original.length && head < spoiltText.length && original[head] === spoiltText[head]) head++;
      let tail = 0;
      while (
        tail < original.length - head &&
        tail < spoiltText.length - head &&
        original[original.length - 1 - tail] === spoiltText[spoiltText.length - 1 - tail]
      )
        tail++;
      const gone = original.slice(head, original.length - tail);
      const came = spoiltText.slice(head, spoiltText.length - tail);
      assert.ok(
        was.includes(gone) && now.includes(came),
        `only ${JSON.stringify(was)} → ${JSON.stringify(now)} changed; the texts differ by ${JSON.stringify(gone)} → ${JSON.stringify(came)}`,
      );
    }

    const firstDeep = (e: XmlElement | undefined, local: string): XmlElement | undefined => {
      if (!e) return undefined;
      if (e.local === local) return e;
      for (const c of e.children) {
        const f = firstDeep(c, local);
        if (f) return f;
      }
      return undefined;
    };

    /** A value defect: the field was valid, now holds `bad`, and nothing else changed. */
    async function checkValue(
      defect: DefectName,
      shape: ShapeName,
      bindings: readonly Binding[],
      local: string,
      valid: RegExp,
      bad: (was: string) => string,
    ): Promise<void> {
      for (const b of bindings) {
        const { original, got, root, originalRoot } = await spoilt(defect, shape, b);
        const was = firstDeep(resultOf(originalRoot, b), local)?.text ?? '';
        const now = firstDeep(resultOf(root, b), local)?.text;
        assert.match(was, valid, `${b}: the original ${local}`);
        assert.equal(now, bad(was), `${b}: the spoilt ${local}`);
        assert.equal(got.status, 200);
        assert.equal(got.contentType, original.contentType, 'Content-Type kept');
        onlyValueChanged(original.body, got.text, was, now);
      }
    }

    it('wasSuccessFalseSpelt: WasSuccess true becomes False, and Messages says why (SOAP 1.1, 1.2)', async () => {
      for (const b of SOAP) {
        const { root, originalRoot } = await spoilt('wasSuccessFalseSpelt', 'rate103', b);
        assert.deepEqual(
          children(resultOf(originalRoot, b), 'WasSuccess').map((w) => w.text),
          ['true'],
        );
        assert.deepEqual(
          children(resultOf(root, b), 'WasSuccess').map((w) => w.text),
          ['False'],
        );
        assert.deepEqual(messagesOf(resultOf(root, b)), [SPELT_FALSE_MESSAGE]);
        assert.equal(child(resultOf(root, b), 'Messages')?.ns, child(resultOf(originalRoot, b), 'Messages')?.ns, 'Messages stays in its namespace');
      }
    });

    it('wasSuccessTwice: one WasSuccess becomes two, true then false (SOAP 1.1, 1.2)', async () => {
      for (const b of SOAP) {
        const { root, originalRoot } = await spoilt('wasSuccessTwice', 'rate103', b);
        assert.deepEqual(
          children(resultOf(originalRoot, b), 'WasSuccess').map((w) => w.text),
          ['true'],
        );
        const twice = children(resultOf(root, b), 'WasSuccess');
        assert.deepEqual(
          twice.map((w) => w.text),
          ['true', 'false'],
        );
        assert.equal(twice[0]!.ns, twice[1]!.ns);
      }
    });

    it('intNotInt, boolNotBool, decimalNotDecimal, dateTimeNotDateTime, enumerationUnknown, base64NotBase64: one value, not of its type', async () => {
      await checkValue('intNotInt', 'terminal', ALL, 'TerminalDetailID', /^\d+$/, () => 'abc');
      await checkValue('boolNotBool', 'createBol', SOAP, 'IsHazmat', /^(true|false)$/, () => 'yes');
      await checkValue('decimalNotDecimal', 'rate100', SOAP, 'CustomerDiscounts', /^\d+(\.\d+)?$/, () => '68%');
      await checkValue('dateTimeNotDateTime', 'terminal', ALL, 'DateCreated', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, (was) => {
        const [, y, mo, d, h, mi] = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)/.exec(was)!;
        return `${mo}/${d}/${y} ${String(Number(h) % 12 || 12).padStart(2, '0')}:${mi} ${Number(h) < 12 ? 'AM' : 'PM'}`;
      });
      await checkValue(
        'enumerationUnknown',
        'documentTypes',
        ALL,
        'DocumentType',
        /^(BillOfLading|WeightCertificate|Invoice|DeliveryReceipt)$/,
        () => 'ProofOfDelivery',
      );
      await checkValue('base64NotBase64', 'bolPdf', ALL, 'PdfDocument', /^JVBER[A-Za-z0-9+/]+=*$/, () => '%PDF-1.7 (raw PDF bytes, not base64)');
    });

    it('foreignNamespaceFields: every field of the result in another namespace, their content not', async () => {
      for (const b of ALL) {
        const { root, originalRoot } = await spoilt('foreignNamespaceFields', 'documentTypes', b);
        const was = resultOf(originalRoot, b);
        const now = resultOf(root, b);
        assert.deepEqual(
          now.children.map((c) => c.local),
          was.children.map((c) => c.local),
          `${b}: the same fields`,
        );
        assert.ok(was.children.length >= 2 && was.children.every((c) => c.ns === NS_DISTINCT.service), `${b}: the fields were in the service namespace`);
        assert.ok(
          now.children.every((c) => c.ns === FOREIGN_NAMESPACE),
          `${b}: every field moved`,
        );
        assert.equal(now.ns, was.ns, `${b}: the result stays`);
        assert.deepEqual(
          now.children.flatMap((c) => c.children.map((g) => g.ns)),
          was.children.flatMap((c) => c.children.map((g) => g.ns)),
          `${b}: their content stays`,
        );
      }
    });

    it('foreignNamespaceResponse: <Operation>Response (the bare root of HTTP GET/POST) in another namespace, its content not', async () => {
      for (const b of ALL) {
        const { root, originalRoot } = await spoilt('foreignNamespaceResponse', 'hazmat', b);
        const was = responseOf(originalRoot, b);
        const now = responseOf(root, b);
        assert.equal(now.local, isSoap(b) ? 'GetHazmatDescriptionResponse' : 'GetHazmatDescriptionReply');
        assert.equal(was.ns, NS_DISTINCT.service);
        assert.equal(now.ns, FOREIGN_NAMESPACE, `${b}: moved`);
        assert.deepEqual(
          now.children.map((c) => `${c.ns} ${c.local}`),
          was.children.map((c) => `${c.ns} ${c.local}`),
          `${b}: its content stays`,
        );
        if (isSoap(b)) assert.equal(root?.ns, envelopeNs(b), 'the envelope stays');
      }
    });

    it('foreignNamespaceResult: <Operation>Result in another namespace, the response and the fields not (SOAP 1.1, 1.2)', async () => {
      for (const b of SOAP) {
        const { root, originalRoot } = await spoilt('foreignNamespaceResult', 'terminal', b);
        assert.equal(resultOf(originalRoot, b).ns, NS_DISTINCT.service);
        assert.equal(resultOf(root, b).ns, FOREIGN_NAMESPACE);
        assert.equal(responseOf(root, b).ns, NS_DISTINCT.service);
        assert.deepEqual(
          resultOf(root, b).children.map((c) => c.ns),
          resultOf(originalRoot, b).children.map((c) => c.ns),
        );
      }
    });

    it('soapVersionSwapped: a SOAP 1.2 envelope and Content-Type answer SOAP 1.1, and the reverse', async () => {
      for (const b of SOAP) {
        const { original, got, root, originalRoot } = await spoilt('soapVersionSwapped', 'transit', b);
        assert.equal(originalRoot.ns, envelopeNs(b));
        assert.equal(root?.ns, envelopeNs(b === 'soap11' ? 'soap12' : 'soap11'));
        assert.match(original.contentType, b === 'soap11' ? /^text\/xml/ : /^application\/soap\+xml/);
        assert.match(got.contentType, b === 'soap11' ? /^application\/soap\+xml/ : /^text\/xml/);
        assert.equal(child(root, 'Body')?.ns, root?.ns, 'the Body moved with the envelope');
        assert.equal(resultOf(root, b).ns, NS_DISTINCT.service, 'the payload stays');
      }
    });

    it('noResult and emptyResult: <Operation>Response without its Result, an empty <Operation>Result/> (SOAP 1.1, 1.2)', async () => {
      for (const b of SOAP) {
        const none = await spoilt('noResult', 'trace', b);
        assert.ok(child(responseOf(none.originalRoot, b), 'TraceShipmentResult'));
        assert.deepEqual(responseOf(none.root, b).children, []);
        assert.equal(responseOf(none.root, b).ns, NS_DISTINCT.service);
        const empty = await spoilt('emptyResult', 'transit', b);
        assert.ok(resultOf(empty.originalRoot, b).children.length > 0);
        const result = resultOf(empty.root, b);
        assert.equal(result.local, 'GetTransitTimesResult');
        assert.deepEqual([result.children.length, result.text], [0, '']);
      }
    });

    it('unknownElement and outOfOrder: an extra TerminalRegion after TerminalCode; TerminalMailingCity and TerminalMailingState swapped', async () => {
      const details = (root: XmlElement | undefined, b: Binding) => at(resultOf(root, b), 'Result', 'TerminalInfo', 'TerminalDetails');
      for (const b of ALL) {
        const extra = await spoilt('unknownElement', 'terminal', b);
        const was = details(extra.originalRoot, b)!.children.map((c) => c.local);
        const now = details(extra.root, b)!;
        const insertAt = was.indexOf('TerminalCode') + 1;
        assert.deepEqual(
          now.children.map((c) => c.local),
          [...was.slice(0, insertAt), UNKNOWN_ELEMENT, ...was.slice(insertAt)],
          `${b}: one element added`,
        );
        assert.equal(child(now, UNKNOWN_ELEMENT)!.ns, child(now, 'TerminalCode')!.ns, `${b}: in the namespace of its siblings`);
        const swapped = await spoilt('outOfOrder', 'terminal', b);
        const before = details(swapped.originalRoot, b)!.children.map((c) => `${c.local}=${c.text}`);
        const after = details(swapped.root, b)!.children.map((c) => `${c.local}=${c.text}`);
        const i = before.findIndex((s) => s.startsWith('TerminalMailingCity='));
        assert.ok(before[i + 1]!.startsWith('TerminalMailingState='));
        assert.deepEqual(after, [...before.slice(0, i), before[i + 1], before[i], ...before.slice(i + 2)], `${b}: exactly the two swapped, values kept`);
      }
    });

    it('iisHtml500, emptyBody200 and plainText500: the service answer replaced by an HTML page, nothing, plain text', async () => {
      for (const b of ALL) {
        const iis = await spoilt('iisHtml500', 'terminal', b);
        assert.deepEqual([iis.got.status, iis.got.contentType], [500, 'text/html']);
        assert.match(iis.got.text, /^<!DOCTYPE html[\s\S]*<title>500 - Internal server error\.<\/title>/);
        const empty = await spoilt('emptyBody200', 'hazmat', b);
        assert.deepEqual([empty.got.status, empty.got.text, empty.got.contentType], [200, '', empty.original.contentType]);
        assert.equal(empty.got.headers.get('content-length'), '0');
        const text = await spoilt('plainText500', 'documentTypes', b);
        assert.deepEqual([text.got.status, text.got.contentType], [500, 'text/plain; charset=utf-8']);
        assert.match(text.got.text, /^System\.InvalidOperationException: /);
        assert.equal(text.root, undefined, 'not XML');
      }
    });

    it('/clean/ forwards the sandbox reply untouched', async () => {
      const got = await direct(service.urlFor('clean'), 'terminal', 'get');
      const x = service.exchanges[service.exchanges.length - 1]!;
      assert.equal(x.defect, undefined);
      assert.equal(got.status, 200);
      assert.equal(got.text, x.original.body);
      assert.equal(got.text, x.sent.body);
      assert.ok(child(xml(got.text), 'Result'));
    });

    it('refuses (502, recorded) rather than answer unspoilt when a defect finds nothing to spoil', async () => {
      const got = await direct(service.urlFor('intNotInt'), 'hazmat', 'soap11');
      assert.equal(got.status, 502);
      const errors = service.errors.splice(0);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /intNotInt: no <TerminalDetailID> in the reply/);
      const unknown = await http(`${service.url}/spoil/no-such-defect/1.0.2/TerminalInformationService.asmx`);
      assert.equal(unknown.status, 404);
      assert.equal(service.errors.splice(0).length, 1);
    });

    it('each defect throws on a reply without what it spoils: a fault, a reply of another operation or binding', () => {
      const fault: Reply = {
        status: 500,
        contentType: 'text/xml; charset=utf-8',
        body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>no</faultstring></soap:Fault></soap:Body></soap:Envelope>`,
      };
      const bare: Reply = {
        status: 200,
        contentType: 'text/xml; charset=utf-8',
        body: `<?xml version="1.0" encoding="utf-8"?><GetHazmatDescriptionReply xmlns="${NS_DISTINCT.service}"><UNNAList/></GetHazmatDescriptionReply>`,
      };
      const soapOnly = new Set<DefectName>(['foreignNamespaceResult', 'soapVersionSwapped', 'noResult', 'emptyResult']);
      const needsField = new Set<DefectName>([
        'wasSuccessFalseSpelt',
        'wasSuccessTwice',
        'intNotInt',
        'boolNotBool',
        'decimalNotDecimal',
        'dateTimeNotDateTime',
        'enumerationUnknown',
        'base64NotBase64',
        'unknownElement',
        'outOfOrder',
      ]);
      for (const d of Object.values(DEFECTS)) {
        assert.throws(() => d.spoil(fault), Error, `${d.name} spoils a fault`);
        if (soapOnly.has(d.name) || needsField.has(d.name)) assert.throws(() => d.spoil(bare), Error, `${d.name} on a bare hazmat reply`);
        else assert.doesNotThrow(() => d.spoil(bare), `${d.name} on a bare hazmat reply`);
      }
    });

    it('spoils a prefixed reply as well (prefix-agnostic): every element named ns1:/ns2:, the envelope s:', () => {
      const svc = NS_DISTINCT.service;
      const data = NS_DISTINCT.data;
      const body = `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP11}"><s:Body><ns1:GetTerminalInformationResponse xmlns:ns1="${svc}" xmlns:ns2="${data}"><ns1:GetTerminalInformationResult><ns1:Result><ns1:TerminalInfo><ns2:TerminalDetails><ns2:TerminalDetailID>17</ns2:TerminalDetailID><ns2:TerminalCode>LNK</ns2:TerminalCode><ns2:TerminalMailingCity>Lincoln</ns2:TerminalMailingCity><ns2:TerminalMailingState>NE</ns2:TerminalMailingState><ns2:DateCreated>2003-02-10T08:00:00</ns2:DateCreated></ns2:TerminalDetails></ns1:TerminalInfo></ns1:Result></ns1:GetTerminalInformationResult></ns1:GetTerminalInformationResponse></s:Body></s:Envelope>`;
      const reply: Reply = { status: 200, contentType: 'text/xml; charset=utf-8', body };
      const spoil = (d: DefectName) => xml(DEFECTS[d].spoil(reply).body);
      const result = (root: XmlElement) => at(root, 'Body', 'GetTerminalInformationResponse', 'GetTerminalInformationResult');
      const detailsOf = (root: XmlElement) => at(result(root), 'Result', 'TerminalInfo', 'TerminalDetails')!;
      assert.equal(child(detailsOf(spoil('intNotInt')), 'TerminalDetailID')!.text, 'abc');
      assert.equal(child(detailsOf(spoil('dateTimeNotDateTime')), 'DateCreated')!.text, '02/10/2003 08:00 AM');
      assert.equal(child(detailsOf(spoil('unknownElement')), UNKNOWN_ELEMENT)!.ns, data);
      assert.deepEqual(
        detailsOf(spoil('outOfOrder'))
          .children.map((c) => c.local)
          .slice(2, 4),
        ['TerminalMailingState', 'TerminalMailingCity'],
      );
      const fields = spoil('foreignNamespaceFields');
      assert.deepEqual([child(result(fields), 'Result')!.ns, at(result(fields), 'Result', 'TerminalInfo')!.ns], [FOREIGN_NAMESPACE, svc]);
      const response = spoil('foreignNamespaceResponse');
      assert.deepEqual([at(response, 'Body', 'GetTerminalInformationResponse')!.ns, result(response)!.ns], [FOREIGN_NAMESPACE, svc]);
      assert.deepEqual([result(spoil('foreignNamespaceResult'))!.ns, detailsOf(spoil('foreignNamespaceResult')).ns], [FOREIGN_NAMESPACE, data]);
      assert.equal(spoil('soapVersionSwapped').ns, SOAP12);
      assert.deepEqual(at(spoil('noResult'), 'Body', 'GetTerminalInformationResponse')!.children, []);
      assert.deepEqual(result(spoil('emptyResult'))!.children, []);
    });
  });

  // -------------------------------------------------------------------------------------------

  it('sanity: the unspoilt replies, through the same service, pass on every binding used', async () => {
    const used = new Map<string, { shape: ShapeName; binding: Binding }>();
    for (const c of [...ERROR_CASES, ...WARNING_CASES, ...BODY_CASES]) for (const b of c.bindings) used.set(`${c.shape} ${b}`, { shape: c.shape, binding: b });
    const files = [...used.values()].map((u) => ({ ...u, expect: { status: 200 } }));
    const o = await run({ defect: 'clean', files });
    assert.equal(o.code, 0, shown(o));
    assert.equal(o.tests.length, files.length);
    assert.deepEqual(
      o.tests.filter((t) => t.status !== 'passed').map((t) => t.name),
      [],
      shown(o),
    );
    // What the defects' runs must name is named nowhere here: those checks can fail.
    assert.ok(o.junit.every((tc) => !tc.failures.length));
    for (const c of [...ERROR_CASES, ...WARNING_CASES]) {
      for (const b of c.bindings) {
        const name = c.names(b);
        assert.ok(!mentions(o.stdout, name) && !mentions(o.html, name), `${name} is named by a run without defects\n${shown(o)}`);
      }
    }
  });

  describe('contract errors fail whatever expect says, naming the reply path or the element', () => {
    for (const c of ERROR_CASES) {
      for (const b of c.bindings) {
        it(`${c.defect} over ${b}: exit 1, every report names ${c.names(b)}`, async () => {
          const o = await run({ defect: c.defect, files: [{ shape: c.shape, binding: b, expect: { status: 200 } }] });
          assertFailedNaming(o, c.names(b), 1);
        });
      }
    }
  });

  describe('a body that is no XML answer satisfies `status` only when expect names the body', () => {
    for (const c of BODY_CASES) {
      for (const b of c.bindings) {
        it(`${c.defect} over ${b}: {"status": ${c.status}} exits 1, {"status": ${c.status}, "body": "${c.body}"} exits 0`, async () => {
          const bare = await run({ defect: c.defect, files: [{ shape: c.shape, binding: b, expect: { status: c.status } }] });
          assert.equal(bare.code, 1, shown(bare));
          assert.deepEqual(
            bare.tests.map((t) => t.status),
            ['failed'],
            shown(bare),
          );
          assert.ok(bare.junit.length === 1 && bare.junit[0]!.failures.length > 0, `junit.xml has the <failure>\n${shown(bare)}`);
          assert.match(bare.html, /✗/, 'report.html shows the failure');
          const said = await run({ defect: c.defect, files: [{ shape: c.shape, binding: b, expect: { status: c.status, body: c.body } }] });
          assert.equal(said.code, 0, shown(said));
          assert.deepEqual(
            said.tests.map((t) => t.status),
            ['passed'],
            shown(said),
          );
        });
      }
    }
  });

  describe('contract warnings pass by default, mentioned with their path, and fail when strict', () => {
    for (const c of WARNING_CASES) {
      for (const b of c.bindings) {
        it(`${c.defect} over ${b}: exit 0, the console names ${c.names(b)}`, async () => {
          const o = await run({ defect: c.defect, files: [{ shape: c.shape, binding: b, expect: { status: 200 } }] });
          assert.equal(o.code, 0, shown(o));
          assert.deepEqual(
            o.tests.map((t) => t.status),
            ['passed'],
            shown(o),
          );
          assert.ok(mentions(o.stdout, c.names(b)), `the console mentions the warning at ${c.names(b)}\n${shown(o)}`);
        });
      }
      const files = (expect: Record<string, unknown>) => c.bindings.map((b) => ({ shape: c.shape, binding: b, expect }));
      it(`${c.defect} under --strict-contract: exit 1 on every binding, named`, async () => {
        assertFailedNaming(await run({ defect: c.defect, files: files({ status: 200 }), args: ['--strict-contract'] }), c.names('soap11'), c.bindings.length);
      });
      it(`${c.defect} with "strictContract": true in collection.json: exit 1 on every binding, named`, async () => {
        assertFailedNaming(
          await run({ defect: c.defect, files: files({ status: 200 }), collection: { strictContract: true } }),
          c.names('soap11'),
          c.bindings.length,
        );
      });
      it(`${c.defect} with "conforms": true in expect: exit 1 on every binding, named`, async () => {
        assertFailedNaming(await run({ defect: c.defect, files: files({ status: 200, conforms: true }) }), c.names('soap11'), c.bindings.length);
      });
    }
  });
});
