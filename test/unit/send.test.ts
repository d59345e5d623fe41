/**
 * send(): from a request to the Exchange every consumer reads, over real HTTP to local servers —
 * faults, in-body errors, transport errors, the embedded sandbox callback, cancellation, and a
 * key that never appears in the Exchange even when the server echoes it.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { sandboxEnvironment } from '../../src/core/environments';
import { secretSpellings } from '../../src/core/redact';
import { rawReplyBytes, RequestError, send, sendRequestFile, type SendPhase } from '../../src/core/send';
import { classifyExchange } from '../../src/core/verdict';
import { RequestFileError } from '../../src/core/send';
import { nodeContext } from '../../src/host';
import { environmentAt, makePdf, soapReply, SOAP11_TYPE, SOAP12_TYPE, startServer, type TestServer } from './transport-support';

const KEY = 'Send-Test-Key-abcdefghijklmnopqrstuvwxyz0123456789';
const NS = DEFAULT_NAMESPACES;
const terminal = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } };

const fault12 = soapReply(
  '1.2',
  `<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value>InvalidApiKey</soap:Value></soap:Subcode></soap:Code><soap:Reason><soap:Text xml:lang="en">The API key is not valid.</soap:Text></soap:Reason></soap:Fault>`,
);

function noKeyIn(value: unknown): void {
  const text = JSON.stringify(value);
  assert.deepEqual(
    secretSpellings(KEY).filter((s) => text.includes(s)),
    [],
  );
}

describe('send: an exchange over local HTTP', () => {
  const context = nodeContext();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => context.http.close());

  it('a SOAP 1.2 fault: code and reason in the Exchange, not a success', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(500, { 'Content-Type': SOAP12_TYPE });
      res.end(fault12);
    });
    const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: KEY, binding: 'soap12' });
    assert.equal(x.reply?.status, 500);
    assert.equal(x.fault?.code, 'soap:Sender');
    assert.deepEqual(x.fault?.subcodes, ['InvalidApiKey']);
    assert.equal(x.fault?.reason, 'The API key is not valid.');
    assert.equal(x.findings[0].kind, 'fault');
    assert.equal(classifyExchange(x).ok, false);
    assert.equal(server.received[0].headers['content-type'], 'application/soap+xml; charset=utf-8');
    assert.ok(server.received[0].body.toString().includes(`<APIKey>${KEY}</APIKey>`), 'the wire carries the key');
    noKeyIn(x);
  });

  it('a good reply: the Exchange has the request, reply, timing, sizes and the parsed result', async () => {
    const reply = soapReply(
      '1.1',
      `<GetTerminalInformationResponse xmlns="${NS.service}"><GetTerminalInformationResult><Result><TerminalInfo><TerminalDetails xmlns="${NS.data}"><TerminalCode>LNK</TerminalCode></TerminalDetails></TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse>`,
    );
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(reply);
    });
    const phases: SendPhase[] = [];
    const x = await send({
      context,
      request: terminal,
      environment: environmentAt(server.url),
      apiKey: KEY,
      onPhase: (p) => phases.push(p),
      source: 'terminal.carrier.json',
    });
    assert.equal(classifyExchange(x).ok, true);
    assert.deepEqual(
      [x.operation, x.version, x.binding, x.environment, x.source],
      ['GetTerminalInformation', '1.0.2', 'soap11', 'test', 'terminal.carrier.json'],
    );
    assert.equal(x.endpoint, `${server.url}/1.0.2/TerminalInformationService.asmx`);
    assert.match(x.request.body, /<APIKey>••••<\/APIKey>/);
    assert.deepEqual(x.parsed, { Result: [{ TerminalDetails: { TerminalCode: 'LNK' } }] });
    assert.equal(x.reply?.bodyText, reply);
    assert.deepEqual(x.sizes, { requestBytes: server.received[0].body.length, replyBytes: Buffer.byteLength(reply) });
    assert.ok(x.timing!.totalMs > 0);
    assert.deepEqual(phases, ['connecting', 'waiting', 'receiving', 'parsing', 'done']);
    assert.ok(rawReplyBytes(x)!.equals(Buffer.from(reply)));
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(x)));
  });

  it('an in-body error (WasSuccess false) is not a success', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(
        soapReply(
          '1.1',
          `<GetRateQuoteResponse xmlns="${NS.service}"><GetRateQuoteResult><WasSuccess>false</WasSuccess><Messages><string>Invalid origin</string></Messages></GetRateQuoteResult></GetRateQuoteResponse>`,
        ),
      );
    });
    const x = await send({
      context,
      request: { operation: 'GetRateQuote', version: '1.0.3', params: { request: { QuoteType: 'Domestic' } } },
      environment: environmentAt(server.url),
      apiKey: KEY,
    });
    assert.equal(x.reply?.status, 200);
    assert.equal(classifyExchange(x).ok, false);
    assert.deepEqual(
      x.findings.map((f) => [f.severity, f.kind, f.message]),
      [['error', 'in-body', 'Invalid origin']],
    );
  });

  it('a server that echoes the key: reply text, headers, parsed reply, findings and raw bytes are all redacted', async () => {
    server = await startServer((req, res, body) => {
      const key = /<APIKey>([^<]*)<\/APIKey>/.exec(body.toString())![1];
      res.writeHead(500, { 'Content-Type': SOAP11_TYPE, 'X-Echo': key });
      res.end(
        soapReply(
          '1.1',
          `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Unknown key ${key}</faultstring><detail><Key>${key}</Key></detail></soap:Fault>`,
        ),
      );
      void req;
    });
    const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: KEY });
    assert.equal(x.fault?.reason, 'Unknown key ••••');
    noKeyIn(x);
    assert.ok(!rawReplyBytes(x)!.toString('utf8').includes(KEY));
  });

  it('a short key echoed as a whole header value, or as a field of one, is masked there too', async () => {
    const short = '4821';
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE, 'X-Key': short, 'X-Ref': `key=${short}`, 'X-Count': '48210' });
      res.end(soapReply('1.1', '<x/>'));
    });
    const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: short });
    const header = (name: string) => x.reply!.headers.find(([n]) => n.toLowerCase() === name)?.[1];
    assert.equal(header('x-key'), '••••');
    assert.equal(header('x-ref'), 'key=••••');
    assert.equal(header('x-count'), '48210', 'a longer number that starts with the key is not the key');
  });

  it('a transport error is an Exchange error, with the URL redacted', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const x = await send({ context, request: terminal, environment: environmentAt(closed.url), apiKey: KEY, binding: 'get' });
    assert.equal(x.error?.kind, 'connect');
    assert.match(x.error!.message, /APIKey=••••/);
    assert.equal(x.reply, undefined);
    assert.equal(classifyExchange(x).ok, false);
    noKeyIn(x);
  });

  it('a reply with a DOCTYPE is refused, and its external entity is never fetched', async () => {
    const target = await startServer((_req, res) => {
      res.end('leaked');
    });
    try {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
        res.end(`<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "${target.url}/x">]><e>&x;</e>`);
      });
      const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: KEY });
      assert.match(x.findings[0].message, /^Refused: the XML declares a DOCTYPE/);
      assert.equal(classifyExchange(x).ok, false);
      assert.ok(x.reply?.bodyText.includes('<!DOCTYPE'), 'the raw body is kept');
      assert.deepEqual(target.received, []);
    } finally {
      await target.close();
    }
  });

  it('decodes documents and keeps them JSON-serialisable', async () => {
    const pdf = makePdf(2, 1000);
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(`<BillOfLadingPDFReply xmlns="${NS.service}"><PdfDocument>${pdf.toString('base64')}</PdfDocument></BillOfLadingPDFReply>`);
    });
    const x = await send({
      context,
      request: { operation: 'GetBillOfLadingPdf', params: { billOfLadingId: 7 } },
      environment: environmentAt(server.url),
      apiKey: KEY,
      binding: 'post',
    });
    assert.equal(server.received[0].body.toString(), `APIKey=${KEY}&billOfLadingId=7`);
    assert.deepEqual(
      x.documents.map((d) => [d.name, d.pages, d.size]),
      [['GetBillOfLadingPdf-PdfDocument.pdf', 2, pdf.length]],
    );
    assert.equal(classifyExchange(x).ok, true);
  });

  it('cancels through the AbortSignal', async () => {
    server = await startServer(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: KEY, signal: controller.signal });
    assert.equal(x.error?.kind, 'cancelled');
  });

  it('sends to the embedded sandbox through resolveEmbedded, with the sandbox key', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(fault12);
    });
    let asked = 0;
    const phases: SendPhase[] = [];
    const x = await send({
      context,
      request: terminal,
      environment: sandboxEnvironment(),
      resolveEmbedded: async () => {
        asked++;
        return `${server!.url}/`;
      },
      onPhase: (p) => phases.push(p),
    });
    assert.equal(asked, 1);
    assert.equal(phases[0], 'sandbox');
    assert.equal(server.received[0].url, '/1.0.2/TerminalInformationService.asmx');
    assert.ok(server.received[0].body.toString().includes('<APIKey>sandbox-key</APIKey>'));
    assert.equal(x.environment, 'sandbox');
  });

  it('does not start the sandbox for a request that cannot be made', async () => {
    let asked = 0;
    const request = { operation: 'GetRateQuote', version: '1.0.3', params: { request: { QuoteType: 'Domestic' } } };
    await assert.rejects(
      send({
        context,
        request,
        environment: sandboxEnvironment(),
        binding: 'get',
        resolveEmbedded: async () => {
          asked++;
          return 'http://127.0.0.1:9';
        },
      }),
      (e: RequestError) => e.kind === 'binding',
    );
    assert.equal(asked, 0);
  });

  it('says so, before sending, when the sandbox cannot start or a TLS file is missing', async () => {
    await assert.rejects(
      send({
        context,
        request: terminal,
        environment: sandboxEnvironment(),
        resolveEmbedded: async () => {
          throw new Error('port in use\n at stack');
        },
      }),
      (e: RequestError) => e.kind === 'sandbox' && e.message === 'The embedded sandbox did not start: port in use',
    );
    await assert.rejects(send({ context, request: terminal, environment: sandboxEnvironment() }), (e: RequestError) => e.kind === 'sandbox');
    const x = await send({
      context,
      request: terminal,
      environment: environmentAt('https://127.0.0.1:9', { tls: { caPath: '/nonexistent/ca.pem', rejectUnauthorized: true } }),
      apiKey: KEY,
    });
    assert.equal(x.error?.kind, 'tls');
    assert.match(x.error!.message, /cannot read tls\.ca file \/nonexistent\/ca\.pem/);
  });
});

describe('send: request files', () => {
  const context = nodeContext();
  after(() => context.http.close());

  it('refuses a file with errors without sending, with file:line:col messages', async () => {
    const text = '{\n  "operation": "GetTerminalInformation",\n  "params": { "ZipCode": 68507, "CountryCod": "USA" }\n}';
    await assert.rejects(
      sendRequestFile({ context, text, fileName: 'bad.carrier.json', environment: environmentAt('http://127.0.0.1:9'), apiKey: KEY }),
      (e: RequestFileError) => {
        assert.ok(e instanceof RequestFileError);
        assert.equal(e.kind, 'file');
        assert.match(e.message, /^bad\.carrier\.json:3:\d+: error: /m);
        return true;
      },
    );
  });

  it('sends a valid file with its number literals as written', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
      res.end(fault12);
    });
    try {
      const text = '{ "operation": "GetRateQuote", "version": "1.0.3", "params": { "request": { "QuoteType": "Domestic", "DeclaredValue": 100.00 } } }';
      const x = await sendRequestFile({ context, text, fileName: path.join('rq', 'quote.carrier.json'), environment: environmentAt(server.url), apiKey: KEY });
      assert.match(server.received[0].body.toString(), /<DeclaredValue>100\.00<\/DeclaredValue>/);
      assert.equal(x.source, path.join('rq', 'quote.carrier.json'));
    } finally {
      await server.close();
    }
  });
});
