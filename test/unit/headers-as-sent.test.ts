/**
 * The request headers an Exchange shows are the ones that went on the wire: Host, Connection and
 * Content-Length the HTTP client adds as well as the request's own, over every binding, with the
 * key masked wherever it travels (the GET query, the POST form, the SOAP body). Real HTTP to the
 * embedded sandbox, and to a plain server that reports what it received.
 */
import { strict as assert } from 'node:assert';
import type { Binding } from '../../src/core/catalog';
import { MASK, secretSpellings } from '../../src/core/redact';
import { send } from '../../src/core/send';
import { classifyExchange } from '../../src/core/verdict';
import type { Exchange } from '../../src/core/exchange';
import { nodeContext } from '../../src/host';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { environmentAt, SOAP11_TYPE, soapReply, startServer, type TestServer } from './transport-support';

const KEY = 'Hd7sQ2vLm9Rx4WbY8Ks1Jf6Fp3Gc5Na0Ue7Ko2Vi9Xt4Ml1Qz';
const terminal = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } };
const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'get', 'post'];

const named = (x: Exchange, name: string) => x.request.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);

function noKeyIn(x: Exchange): void {
  const shown = JSON.stringify(x.request);
  assert.deepEqual(
    secretSpellings(KEY).filter((s) => shown.includes(s)),
    [],
    'no spelling of the key in the request shown',
  );
}

describe('headers as sent: every header that went, the key masked', () => {
  const context = nodeContext();
  let sandbox: SandboxHandle;
  before(async () => {
    sandbox = await startSandbox({ apiKeys: [KEY] });
  });
  after(async () => {
    await sandbox.close();
    await context.http.close();
  });

  for (const binding of BINDINGS) {
    it(`${binding}: Host, Connection and the request's own headers; Content-Length for a body`, async () => {
      const x = await send({ context, request: terminal, environment: environmentAt(sandbox.url), apiKey: KEY, binding });
      assert.equal(classifyExchange(x).kind, 'success', classifyExchange(x).reason);
      const host = new URL(sandbox.url).host;
      assert.deepEqual(named(x, 'host'), [host]);
      assert.deepEqual(named(x, 'connection'), ['keep-alive']);
      if (binding === 'get') {
        // undici sends no Content-Length for a GET without a body, and no Content-Type either.
        assert.deepEqual(named(x, 'content-length'), []);
        assert.ok(x.request.url.includes(`APIKey=${MASK}&`), `the key in the query is masked in the URL: ${x.request.url}`);
      } else {
        const bytes = Buffer.byteLength(x.request.body.replace(MASK, KEY), 'utf8');
        assert.deepEqual(named(x, 'content-length'), [String(bytes)], 'the length of the body as sent, key included');
        assert.equal(named(x, 'content-type').length, 1);
        assert.equal(x.request.body.includes(MASK), true, 'the key in the body is masked');
      }
      if (binding === 'soap11') assert.equal(named(x, 'soapaction').length, 1);
      noKeyIn(x);
    });
  }

  describe('against a server that says what it received', () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    const ok = soapReply('1.1', '<GetTerminalInformationResponse xmlns="http://carrier.example/service"/>');

    it('the headers shown are exactly those received, in order', async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
        res.end(ok);
      });
      const x = await send({ context, request: terminal, environment: environmentAt(server.url), apiKey: KEY, binding: 'soap11' });
      const got = server.received[0];
      assert.deepEqual(
        x.request.headers.map(([n]) => n),
        got.rawHeaderNames,
      );
      for (const [n, v] of x.request.headers) assert.equal(v, got.headers[n.toLowerCase()], n);
      noKeyIn(x);
    });

    it("a dispatcher that reports no head: the request's headers with the Host and Content-Length undici adds", async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': SOAP11_TYPE });
        res.end(ok);
      });
      // No expectSocket: nothing tells core the head that was written.
      const quiet = { ...context, http: { dispatcherFor: context.http.dispatcherFor.bind(context.http), close: async () => {} } };
      const x = await send({ context: quiet, request: terminal, environment: environmentAt(server.url), apiKey: KEY, binding: 'post' });
      const got = server.received[0];
      assert.deepEqual(
        x.request.headers.map(([n, v]) => [n.toLowerCase(), v]),
        got.rawHeaderNames.filter((n) => n !== 'connection').map((n) => [n.toLowerCase(), got.headers[n.toLowerCase()]]),
      );
      noKeyIn(x);
    });

    it('a request that never went (refused): what would have gone, the key masked', async () => {
      const x = await send({ context, request: terminal, environment: environmentAt('http://127.0.0.1:9'), apiKey: KEY, binding: 'get' });
      assert.equal(x.error?.kind !== undefined, true);
      assert.deepEqual(named(x, 'host'), ['127.0.0.1:9']);
      noKeyIn(x);
    });
  });
});
