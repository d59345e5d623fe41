/**
 * Core's XML reader in linear time and bounded memory (issue 17): namespace scopes on one undo
 * stack, repeated attributes found with a set, and a limit on every count a hostile peer could
 * grow — elements, attributes per element and in all, namespace declarations per element and
 * prefixes in scope, name length, one text and all text — each refused with a located
 * XmlLimitError of its own code. Then the three hostile documents of the issue (a namespace bomb,
 * one element with 80,000 attributes, 2.1 million siblings) in a child process with a 300 MB
 * heap, and through `carrier send`, the sandbox and the traffic inspector, which must each end in
 * a readable outcome. Speed and resident memory are measured by `npm run bench -- --only
 * xml-limits`, not asserted here.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOSTILE, HOSTILE_KINDS, hostileReply, manyAttributes, namespaceBomb, siblings, type HostileKind } from '../../bench/fixtures/hostileXml';
import { DEFAULT_NAMESPACES, findShape, SOAP11_ENVELOPE_NS } from '../../src/core/catalog';
import { buildHttpRequest } from '../../src/core/envelope';
import { recognizeRequest } from '../../src/core/recognize/recognize';
import { send } from '../../src/core/send';
import {
  MAX_ATTRIBUTES,
  MAX_ATTRIBUTES_TOTAL,
  MAX_DECLARATIONS,
  MAX_DEPTH,
  MAX_ELEMENTS,
  MAX_NAME_LENGTH,
  MAX_NAMESPACES_IN_SCOPE,
  MAX_TEXT_LENGTH,
  MAX_TOTAL_TEXT,
  parseXml,
  XmlError,
  XmlLimitError,
  type XmlElement,
} from '../../src/core/xml/dom';
import { startInspector } from '../../src/inspector';
import { startSandbox } from '../../src/sandbox/server';
import { nodeContext } from '../../src/host';
import { closeClientAgent, plainRequest } from './inspect-kit';
import { environmentAt, SOAP11_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const ROOT = path.join(__dirname, '../..');
const MAIN = path.join(ROOT, 'src/cli/main.ts');
const CHILD = path.join(__dirname, 'xml-limits.child.ts');
const KEY = 'Hq4vRt2ZpL9xWm4NsB8yHc3JfD6gTa1VeU5oPi0lMkQrXwYzAb';
const S = DEFAULT_NAMESPACES.service;
const HEAP_MB = 300;

const count = (n: number) => n.toLocaleString('en-US');

/** The one error a limit gives: its class, code, limit and message, located at `offset` of a one-line document. */
function refused(xml: string, code: string, limit: number, message: string, offset: number): void {
  assert.throws(
    () => parseXml(xml),
    (e: unknown) => {
      assert.ok(e instanceof XmlLimitError, String(e));
      assert.equal(e.code, code);
      assert.equal(e.limit, limit);
      assert.equal(e.message, `${message} (line 1, column ${offset + 1})`);
      assert.deepEqual([e.line, e.column], [1, offset + 1]);
      return true;
    },
  );
}

/** `n` distinct attributes, named from `from`. */
const attributes = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ` a${from + i}="v"`).join('');
/** `n` declarations of distinct prefixes, named from `from`. */
const declarations = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ` xmlns:p${from + i}="urn:p${from + i}"`).join('');

/** What each hostile document's error says, in the words of core's parser, and where. */
function expected(kind: HostileKind, text: string): { code: string; message: string } {
  switch (kind) {
    case 'bomb': {
      // soap is bound before the bomb (the default namespace is no prefix), so the bomb's
      // MAX_NAMESPACES_IN_SCOPE-th prefix, at 25 a level, is one too many.
      const past = MAX_NAMESPACES_IN_SCOPE - 1;
      const at = text.indexOf(` xmlns:p${Math.floor(past / 25)}_${past % 25}=`) + 1;
      return {
        code: 'too-many-namespaces',
        message: `The XML has more than ${count(MAX_NAMESPACES_IN_SCOPE)} namespace prefixes in scope at once (line 1, column ${at + 1})`,
      };
    }
    case 'attributes': {
      const at = text.indexOf(` a${MAX_ATTRIBUTES}="v"`) + 1;
      return { code: 'too-many-attributes', message: `The XML gives <Wide> more than ${count(MAX_ATTRIBUTES)} attributes (line 1, column ${at + 1})` };
    }
    case 'siblings': {
      // Envelope, Body, the Response and the Result come first.
      const at = text.indexOf('<a/>') + (MAX_ELEMENTS - 4) * 4;
      return { code: 'too-many-elements', message: `The XML has more than ${count(MAX_ELEMENTS)} elements (line 1, column ${at + 1})` };
    }
  }
}

const asReply = (message: string) => `${message.replace(/^The XML/, 'The reply')}; the raw reply is kept as received`;

describe('XML limits: each refused past its number, located, with its own code', function () {
  this.timeout(60_000);

  it(`elements: ${count(MAX_ELEMENTS)} read, one more refused where it starts, before a tree is built`, () => {
    assert.equal(MAX_ELEMENTS, 1_500_000);
    const root = parseXml(`<r>${'<a/>'.repeat(MAX_ELEMENTS - 1)}</r>`);
    assert.equal(root.children.length, MAX_ELEMENTS - 1);
    refused(
      `<r>${'<a/>'.repeat(MAX_ELEMENTS)}</r>`,
      'too-many-elements',
      MAX_ELEMENTS,
      `The XML has more than ${count(MAX_ELEMENTS)} elements`,
      3 + (MAX_ELEMENTS - 1) * 4,
    );
    // Comments, CDATA and processing instructions holding "<a>" are not elements.
    const inert = '<!--<a/>--><![CDATA[<a/>]]><?pi <a/>?>';
    assert.equal(parseXml(`<r>${inert.repeat(200_000)}${'<a/>'.repeat(MAX_ELEMENTS - 1)}</r>`).children.length, MAX_ELEMENTS - 1);
    // Just too short to be scanned first (no element is shorter than <a/>), the parser's own
    // count refuses it at the same place.
    refused(
      `<r>${'<a/>'.repeat(MAX_ELEMENTS)}</r>`.slice(0, -4),
      'too-many-elements',
      MAX_ELEMENTS,
      `The XML has more than ${count(MAX_ELEMENTS)} elements`,
      3 + (MAX_ELEMENTS - 1) * 4,
    );
  });

  it(`attributes on one element: ${count(MAX_ATTRIBUTES)} read (declarations count), one more refused at that attribute`, () => {
    assert.equal(MAX_ATTRIBUTES, 1000);
    assert.equal(parseXml(`<a${attributes(MAX_ATTRIBUTES)}/>`).attrs.length, MAX_ATTRIBUTES);
    assert.equal(parseXml(`<a${declarations(10)}${attributes(MAX_ATTRIBUTES - 10)}/>`).attrs.length, MAX_ATTRIBUTES - 10);
    const xml = `<a${declarations(10)}${attributes(MAX_ATTRIBUTES - 9)}/>`;
    refused(xml, 'too-many-attributes', MAX_ATTRIBUTES, `The XML gives <a> more than ${count(MAX_ATTRIBUTES)} attributes`, xml.lastIndexOf(' a') + 1);
    const wide = manyAttributes();
    refused(
      wide,
      'too-many-attributes',
      MAX_ATTRIBUTES,
      `The XML gives <Wide> more than ${count(MAX_ATTRIBUTES)} attributes`,
      wide.indexOf(` a${MAX_ATTRIBUTES}=`) + 1,
    );
  });

  it(`attributes in all: ${count(MAX_ATTRIBUTES_TOTAL)} read, one more refused at that attribute`, () => {
    assert.equal(MAX_ATTRIBUTES_TOTAL, 500_000);
    const element = `<e${attributes(MAX_ATTRIBUTES)}/>`;
    const elements = MAX_ATTRIBUTES_TOTAL / MAX_ATTRIBUTES;
    assert.equal(parseXml(`<r>${element.repeat(elements)}</r>`).children.length, elements);
    const xml = `<r>${element.repeat(elements)}<e b="v"/></r>`;
    refused(
      xml,
      'too-many-attributes-total',
      MAX_ATTRIBUTES_TOTAL,
      `The XML has more than ${count(MAX_ATTRIBUTES_TOTAL)} attributes in all`,
      xml.lastIndexOf(' b="v"') + 1,
    );
  });

  it(`namespace declarations on one element: ${count(MAX_DECLARATIONS)} read, one more refused at that declaration`, () => {
    assert.equal(MAX_DECLARATIONS, 100);
    const ok = parseXml(`<a${declarations(MAX_DECLARATIONS - 1)} xmlns="urn:default"><p7:b/></a>`);
    assert.deepEqual([ok.ns, ok.children[0].ns], ['urn:default', 'urn:p7']);
    const xml = `<a${declarations(MAX_DECLARATIONS)} xmlns="urn:default"/>`;
    refused(
      xml,
      'too-many-declarations',
      MAX_DECLARATIONS,
      `The XML declares more than ${count(MAX_DECLARATIONS)} namespaces on <a>`,
      xml.indexOf(' xmlns="urn:default"') + 1,
    );
  });

  it(`prefixes in scope at once: ${count(MAX_NAMESPACES_IN_SCOPE)} read, one more refused; redeclaring one does not count`, () => {
    assert.equal(MAX_NAMESPACES_IN_SCOPE, 1000);
    const levels = MAX_NAMESPACES_IN_SCOPE / MAX_DECLARATIONS;
    const nest = (extra: string) => {
      let open = '';
      for (let l = 0; l < levels; l++) open += `<n${declarations(MAX_DECLARATIONS, l * MAX_DECLARATIONS)}>`;
      return `${open}${extra}${'</n>'.repeat(levels)}`;
    };
    let el: XmlElement = parseXml(nest(`<p${MAX_NAMESPACES_IN_SCOPE - 1}:last/>`));
    while (el.children.length) el = el.children[0];
    assert.deepEqual([el.local, el.ns], ['last', `urn:p${MAX_NAMESPACES_IN_SCOPE - 1}`]);
    const xml = nest('<last xmlns:one="urn:more"/>');
    refused(
      xml,
      'too-many-namespaces',
      MAX_NAMESPACES_IN_SCOPE,
      `The XML has more than ${count(MAX_NAMESPACES_IN_SCOPE)} namespace prefixes in scope at once`,
      xml.indexOf(' xmlns:one=') + 1,
    );
    // Once their elements close, the thousand are out of scope: the next sibling may bind its own.
    assert.equal(parseXml(`<r>${nest('')}<s${declarations(MAX_DECLARATIONS)}/></r>`).children.length, 2);
    // .NET writes xmlns="…" on every element: one prefix, however deep.
    const deep = MAX_DEPTH - 1;
    el = parseXml(`${'<n xmlns="urn:same" xmlns:p="urn:p">'.repeat(deep)}${'</n>'.repeat(deep)}`);
    for (let level = 1; level < deep; level++) el = el.children[0];
    assert.equal(el.ns, 'urn:same');
  });

  it(`names: ${count(MAX_NAME_LENGTH)} characters read, one more refused where the name starts, however long it goes on`, () => {
    assert.equal(MAX_NAME_LENGTH, 1000);
    const long = 'n'.repeat(MAX_NAME_LENGTH);
    assert.equal(parseXml(`<${long} ${long}="v"></${long}>`).attrs[0].local, long);
    assert.equal(parseXml(`<p:${long.slice(2)} xmlns:p="u"/>`).local.length, MAX_NAME_LENGTH - 2);
    const message = `The XML has a name longer than ${count(MAX_NAME_LENGTH)} characters`;
    refused(`<${long}n/>`, 'name-too-long', MAX_NAME_LENGTH, message, 1);
    refused(`<a ${long}n="v"/>`, 'name-too-long', MAX_NAME_LENGTH, message, 3);
    refused(`<a>${'<b/>'.repeat(10)}<${'n'.repeat(10_000_000)}`, 'name-too-long', MAX_NAME_LENGTH, message, 44);
    // An end tag is compared, not read as a name, and quoted cut short.
    assert.throws(
      () => parseXml(`<a></${'b'.repeat(100_000)}>`),
      (e: unknown) =>
        e instanceof XmlError &&
        !(e instanceof XmlLimitError) &&
        e.message.length < MAX_NAME_LENGTH + 200 &&
        /^Malformed XML: <\/b+> found where <\/a> was expected/.test(e.message),
    );
  });

  it(`text: ${count(MAX_TEXT_LENGTH)} characters in one element or attribute value, ${count(MAX_TOTAL_TEXT)} in all; one more refused where it starts`, () => {
    assert.deepEqual([MAX_TEXT_LENGTH, MAX_TOTAL_TEXT], [50_000_000, 100_000_000]);
    const full = 'x'.repeat(MAX_TEXT_LENGTH);
    assert.equal(parseXml(`<a>${full}</a>`).text.length, MAX_TEXT_LENGTH);
    // One element's text is all its pieces joined: text, CDATA, text after a comment or a child.
    const pieces = (tail: string) => `<a>${full.slice(0, -3)}<![CDATA[y]]><!--c--><b/>${tail}</a>`;
    assert.equal(parseXml(pieces('zz')).text.slice(-4), 'xyzz');
    const over = pieces('zzz');
    refused(over, 'text-too-long', MAX_TEXT_LENGTH, `The XML has more than ${count(MAX_TEXT_LENGTH)} characters of text in <a>`, over.indexOf('<b/>') + 4);
    const value = `<a v="${full}x"/>`;
    refused(value, 'text-too-long', MAX_TEXT_LENGTH, `The XML has more than ${count(MAX_TEXT_LENGTH)} characters in attribute v of <a>`, 6);
    const both = `<r><a>${full}</a><b v="${full}"/></r>`;
    assert.equal(parseXml(both).children.length, 2);
    const more = `<r><a>${full}</a><b v="${full}"/><c>y</c></r>`;
    refused(more, 'too-much-text', MAX_TOTAL_TEXT, `The XML has more than ${count(MAX_TOTAL_TEXT)} characters of text in all`, more.lastIndexOf('<c>') + 3);
  });

  it("a limit's error is an XmlError too: every caller that catches XmlError keeps working", () => {
    assert.throws(
      () => parseXml(manyAttributes(MAX_ATTRIBUTES + 1)),
      (e: unknown) => e instanceof XmlError && e instanceof XmlLimitError && e.name === 'XmlError',
    );
  });
});

describe('XML limits: scopes undone, repeated attributes found, text joined, in linear time', () => {
  it('a declaration is undone when its element closes, self-closing or not', () => {
    const root = parseXml('<a xmlns:p="urn:1" xmlns="urn:d"><p:b xmlns:p="urn:2"><p:c/></p:b><p:d xmlns:p="urn:3"/><p:e/><f xmlns=""><g/></f><h/></a>');
    assert.deepEqual(
      root.children.map((c) => [c.local, c.ns]),
      [
        ['b', 'urn:2'],
        ['d', 'urn:3'],
        ['e', 'urn:1'],
        ['f', ''],
        ['h', 'urn:d'],
      ],
    );
    assert.deepEqual([root.children[0].children[0].ns, root.children[3].children[0].ns], ['urn:2', '']);
    for (const xml of ['<a><b xmlns:q="u"/><q:c/></a>', '<a><b xmlns:q="u"></b><c q:x="1"/></a>']) {
      assert.throws(() => parseXml(xml), /the prefix "q"|The prefix "q"/, xml);
    }
    // The xml prefix stays bound whatever closes.
    assert.equal(
      parseXml('<a><b xmlns:xml="http://www.w3.org/XML/1998/namespace"/><c xml:lang="en"/></a>').children[1].attrs[0].ns,
      'http://www.w3.org/XML/1998/namespace',
    );
  });

  it('a repeated attribute is found however many come before it, by name and by namespace', () => {
    // Up to the most one element may have: two declarations and three more attributes besides.
    for (const before of [0, 3, 7, 8, 50, MAX_ATTRIBUTES - 5]) {
      assert.throws(() => parseXml(`<a a0="1"${attributes(before, 1)} a0="2"/>`), /attribute a0 of <a> is repeated/, `${before}`);
      const prefixed = Array.from({ length: before }, (_, i) => ` p:x${i}="v"`).join('');
      assert.throws(
        () => parseXml(`<a xmlns:p="u" xmlns:q="u" p:dup="1"${prefixed} q:dup="2"/>`),
        /attribute q:dup of <a> repeats another in namespace u/,
        `${before}`,
      );
      // The same local name in two namespaces, or prefixed and not, is two attributes.
      assert.equal(parseXml(`<a xmlns:p="u" xmlns:q="w" dup="0" p:dup="1"${prefixed} q:dup="2"/>`).attrs.length, before + 3);
    }
  });

  it('text in thousands of pieces is joined in document order', () => {
    const n = 5000;
    const xml = `<a>${Array.from({ length: n }, (_, i) => `${i},<!--c--><![CDATA[<${i}>]]><?pi?><b/>`).join('')}end</a>`;
    const root = parseXml(xml);
    assert.equal(root.text, `${Array.from({ length: n }, (_, i) => `${i},<${i}>`).join('')}end`);
    assert.equal(root.children.length, n);
  });

  it('the three hostile documents are refused in the parser, each with its own code', () => {
    for (const kind of HOSTILE_KINDS) {
      const text = hostileReply(HOSTILE[kind].inner());
      const want = expected(kind, text);
      assert.throws(
        () => parseXml(text),
        (e: unknown) => e instanceof XmlLimitError && e.code === want.code && e.message === want.message,
        kind,
      );
    }
  });
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

describe(`XML limits: the hostile documents in a process with a ${HEAP_MB} MB heap`, function () {
  this.timeout(180_000);

  for (const kind of HOSTILE_KINDS) {
    it(`${kind}: parseXml and parseReply end in the limit's error, and the process exits normally`, async () => {
      const run = await node([`--max-old-space-size=${HEAP_MB}`, '-r', 'tsx/cjs', CHILD, kind]);
      assert.equal(run.code, 0, `exit ${run.code} ${run.signal ?? ''}: ${run.stderr.slice(-1000)}`);
      const got = JSON.parse(run.stdout.trim().split('\n').pop()!);
      const want = expected(kind, hostileReply(HOSTILE[kind].inner()));
      assert.deepEqual({ code: got.code, message: got.message }, want);
      assert.deepEqual(got.findings, [`${asReply(want.message)} (HTTP 200)`]);
    });
  }

  it("the parser's name cache keeps no document alive", async () => {
    const run = await node(['--expose-gc', '-r', 'tsx/cjs', CHILD, 'names']);
    assert.equal(run.code, 0, run.stderr);
    // Twenty 5 MB documents went through; each kept would be 100 MB.
    assert.ok(JSON.parse(run.stdout).retainedMB < 20, run.stdout);
  });
});

describe('XML limits: carrier send, the sandbox and the inspector', function () {
  this.timeout(180_000);
  const context = nodeContext();
  let server: TestServer;
  let cwd: string;
  const served = new Map<HostileKind, string>();

  before(async () => {
    for (const kind of HOSTILE_KINDS) served.set(kind, hostileReply(HOSTILE[kind].inner()));
    server = await startServer((req, res) => {
      const kind = (req.url ?? '').split('/')[1] as HostileKind;
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(served.get(kind) ?? '');
    });
    cwd = tmpDir('carrier-limits-');
    fs.writeFileSync(
      path.join(cwd, 'carrier.environments.json'),
      JSON.stringify(Object.fromEntries(HOSTILE_KINDS.map((kind) => [kind, { baseUrl: `${server.url}/${kind}` }]))),
    );
    fs.writeFileSync(
      path.join(cwd, 'terminal.carrier.json'),
      JSON.stringify({ operation: 'GetTerminalInformation', version: '1.0.2', binding: 'soap11', params: { ZipCode: '68507', CountryCode: 'USA' } }),
    );
  });

  after(async () => {
    closeClientAgent();
    await context.http.close();
    await server.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it(`carrier send (its heap held to ${HEAP_MB} MB): exit 1 naming the limit and where, the raw reply written as received`, async () => {
    const runs = await Promise.all(
      HOSTILE_KINDS.map((kind) =>
        node(
          ['--require', require.resolve('tsx/cjs'), MAIN, 'send', 'terminal.carrier.json', '--env', kind, '--out', `out-${kind}`],
          { CARRIER_API_KEY: KEY, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
          cwd,
        ),
      ),
    );
    runs.forEach((r, i) => {
      const kind = HOSTILE_KINDS[i];
      assert.doesNotMatch(r.stdout + r.stderr, /internal error|heap out of memory|RangeError|\n\s+at /, `${kind}: ${r.stderr.slice(0, 500)}`);
      assert.equal(r.code, 1, `${kind}: ${r.stdout}${r.stderr}`);
      assert.ok(r.stdout.includes(`${asReply(expected(kind, served.get(kind)!).message)} (HTTP 200 OK)`), `${kind}: ${r.stdout}`);
      assert.equal(fs.readFileSync(path.join(cwd, `out-${kind}`, 'reply.xml'), 'utf8'), served.get(kind));
    });
  });

  it("core's send(): an Exchange with the finding and the raw reply, never a throw", async () => {
    for (const kind of HOSTILE_KINDS) {
      const x = await send({
        context,
        request: { operation: 'GetTerminalInformation', version: '1.0.2', params: { ZipCode: '68507', CountryCode: 'USA' } },
        environment: environmentAt(`${server.url}/${kind}`),
        apiKey: KEY,
        binding: 'soap11',
      });
      assert.equal(x.reply?.bodyText, served.get(kind));
      assert.equal(x.parsed, undefined);
      assert.ok(
        x.findings.some((f) => f.severity === 'error' && f.message === `${asReply(expected(kind, served.get(kind)!).message)} (HTTP 200 OK)`),
        `${kind}: ${JSON.stringify(x.findings).slice(0, 500)}`,
      );
    }
  });

  const request = (inner: string) =>
    `<soap:Envelope xmlns:soap="${SOAP11_ENVELOPE_NS}"><soap:Body><GetHazmatDescription xmlns="${S}"><APIKey>${KEY}</APIKey><UNNANumber>${inner}</UNNANumber></GetHazmatDescription></soap:Body></soap:Envelope>`;
  // Two million <a/> are 8,000,000 bytes: under the sandbox's 8 MiB body limit, so the parser reads them.
  const requests: Record<HostileKind, () => string> = {
    bomb: () => request(namespaceBomb()),
    attributes: () => request(manyAttributes()),
    siblings: () => request(siblings(2_000_000)),
  };
  const CODES: Record<HostileKind, RegExp> = {
    bomb: new RegExp(`The XML has more than ${count(MAX_NAMESPACES_IN_SCOPE)} namespace prefixes in scope at once \\(line 1, column \\d+\\)`),
    attributes: new RegExp(`The XML gives &lt;Wide&gt; more than ${count(MAX_ATTRIBUTES)} attributes \\(line 1, column \\d+\\)`),
    siblings: new RegExp(`The XML has more than ${count(MAX_ELEMENTS)} elements \\(line 1, column \\d+\\)`),
  };

  it('the sandbox refuses each as a client fault naming the limit, and answers the next request', async () => {
    const sandbox = await startSandbox({ port: 0 });
    const post = (body: string) =>
      fetch(`${sandbox.url}/sandbox/BillOfLadingService.asmx`, {
        method: 'POST',
        headers: { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${S}GetHazmatDescription"` },
        body,
      });
    try {
      for (const kind of HOSTILE_KINDS) {
        const r = await post(requests[kind]());
        const text = await r.text();
        assert.ok(r.status >= 400 && r.status < 600, `${kind}: HTTP ${r.status}`);
        assert.match(text, /<faultcode>soap:Client<\/faultcode>/, kind);
        assert.match(text, new RegExp(`Server was unable to read the request: ${CODES[kind].source}`), kind);
        const next = await post(request('1203'));
        assert.equal(next.status, 200, `${kind}: the next request`);
        assert.match(await next.text(), /UN1203/);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('recognition (the inspector, Import SOAP Envelope) calls each request unreadable XML, naming the limit', () => {
    for (const kind of HOSTILE_KINDS) {
      const r = recognizeRequest(
        { method: 'POST', url: '/sandbox/BillOfLadingService.asmx', headers: { 'Content-Type': SOAP11_TYPE }, body: requests[kind]() },
        { namespaces: DEFAULT_NAMESPACES },
      );
      assert.equal(r.kind, 'unknown');
      assert.match(r.kind === 'unknown' ? r.reason : '', new RegExp(`cannot be read: ${CODES[kind].source.replace('&lt;Wide&gt;', '<Wide>')}`), kind);
    }
  });

  it('the inspector relays each reply byte for byte and records the finding; a hostile request is recorded as unreadable', async () => {
    const op = findShape('GetTerminalInformation', '1.0.2')!;
    const hazmat = findShape('GetHazmatDescription')!;
    for (const kind of HOSTILE_KINDS) {
      const inspector = await startInspector({ target: `${server.url}/${kind}`, namespaces: DEFAULT_NAMESPACES });
      try {
        const spec = buildHttpRequest({
          op,
          binding: 'soap11',
          baseUrl: inspector.url,
          namespaces: DEFAULT_NAMESPACES,
          params: { ZipCode: '68507', CountryCode: 'USA' },
          apiKey: KEY,
        });
        const got = await plainRequest(spec.url, 'POST', spec.headers as Array<[string, string]>, Buffer.from(spec.body));
        assert.equal(got.status, 200);
        assert.ok(got.body.equals(Buffer.from(served.get(kind)!)), `${kind}: relayed as received`);
        const hostile = buildHttpRequest({
          op: hazmat,
          binding: 'soap11',
          baseUrl: inspector.url,
          namespaces: DEFAULT_NAMESPACES,
          params: { UNNANumber: '1203' },
          apiKey: KEY,
        });
        await plainRequest(hostile.url, 'POST', hostile.headers as Array<[string, string]>, Buffer.from(requests[kind]()));
        for (let i = 0; i < 200 && inspector.exchanges().length < 2; i++) await inspector.flush();
        const [reply, asRequest] = inspector.exchanges().map((r) => r.exchange.findings.map((f) => f.message));
        assert.ok(reply.includes(`${asReply(expected(kind, served.get(kind)!).message)} (HTTP 200 OK)`), `${kind}: ${reply.join(' | ').slice(0, 500)}`);
        assert.ok(
          asRequest.some((m) => new RegExp(`^Not a call of the catalog: .*cannot be read: ${CODES[kind].source.replace('&lt;Wide&gt;', '<Wide>')}`).test(m)),
          `${kind}: ${asRequest.join(' | ').slice(0, 500)}`,
        );
      } finally {
        await inspector.close();
      }
    }
  });
});
