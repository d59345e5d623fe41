/**
 * One verdict per exchange: the same replies, served over real HTTP on loopback, go through every
 * face that judges an exchange — core's send(), `carrier send`'s exit code and last line,
 * `carrier run` of a file without `expect`, the History entry and the traffic inspector's
 * recording — and each face must agree with core's classifyExchange (src/core/verdict.ts).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_NAMESPACES, findShape } from '../../src/core/catalog';
import { send } from '../../src/core/send';
import { validateRequestText } from '../../src/core/validation/validate';
import { classifyExchange, type VerdictKind } from '../../src/core/verdict';
import { runCli } from '../../src/cli/dispatch';
import { toHistoryEntry } from '../../src/extension/history/historyEntry';
import { startInspector } from '../../src/inspector';
import { startSandbox } from '../../src/sandbox/server';
import { nodeContext } from '../../src/host';
import { environmentAt, soapReply, SOAP11_TYPE, startServer, tmpDir, type TestServer } from './transport-support';

const KEY = 'verdict-test-key-0123456789';
const TRACE = (pro: string) =>
  JSON.stringify({ operation: 'TraceShipment', version: '1.0.2', params: { request: { TraceNumbers: [pro], TraceType: 'PRO' } } }, null, 2);

interface Case {
  readonly name: string;
  readonly kind: VerdictKind;
  /** What the server answers; `reset` destroys the connection instead. */
  readonly reply: { status: number; type?: string; body: string | (() => string) } | 'reset';
}

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    env: { CARRIER_API_KEY: KEY },
  });
  return { code, out, err };
}

describe('one verdict per exchange, in every face', function () {
  this.timeout(60_000);
  const context = nodeContext();
  const replies: { found?: string; missing?: string } = {};
  const servers = new Map<string, TestServer>();
  let dir: string;

  const fault = (_status: number) =>
    soapReply('1.1', '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Invalid PRO</faultstring><detail><Why>test</Why></detail></soap:Fault>');
  const cases: Case[] = [
    { name: 'a trace of a known PRO', kind: 'success', reply: { status: 200, type: SOAP11_TYPE, body: () => replies.found! } },
    { name: 'a shipment with an ErrorMessage (in-body error)', kind: 'in-body-error', reply: { status: 200, type: SOAP11_TYPE, body: () => replies.missing! } },
    { name: 'a SOAP fault with status 200', kind: 'fault', reply: { status: 200, type: SOAP11_TYPE, body: fault(200) } },
    { name: 'a SOAP fault with status 500', kind: 'fault', reply: { status: 500, type: SOAP11_TYPE, body: fault(500) } },
    {
      name: 'an HTML page with status 200',
      kind: 'unreadable',
      reply: {
        status: 200,
        type: 'text/html',
        body: '<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Maintenance</h1></body></html>',
      },
    },
    {
      name: 'an HTML page with status 500',
      kind: 'http-error',
      reply: { status: 500, type: 'text/html', body: '<html><body><h1>Server Error in / Application</h1></body></html>' },
    },
    { name: 'an empty body with status 200', kind: 'unreadable', reply: { status: 200, type: SOAP11_TYPE, body: '' } },
    { name: 'plain text with status 200', kind: 'unreadable', reply: { status: 200, type: 'text/plain', body: 'OK' } },
    { name: 'JSON with status 200', kind: 'unreadable', reply: { status: 200, type: 'application/json', body: '{"ok":true}' } },
    {
      name: 'XML cut short with status 200',
      kind: 'unreadable',
      reply: { status: 200, type: SOAP11_TYPE, body: () => replies.found!.slice(0, Math.floor(replies.found!.length / 2)) },
    },
    {
      name: 'the reply of another operation',
      kind: 'unreadable',
      reply: {
        status: 200,
        type: SOAP11_TYPE,
        body: soapReply('1.1', `<GetDocumentTypesResponse xmlns="${DEFAULT_NAMESPACES.service}"><GetDocumentTypesResult/></GetDocumentTypesResponse>`),
      },
    },
    { name: 'a 404 with no body', kind: 'http-error', reply: { status: 404, type: 'text/plain', body: '' } },
    { name: 'a connection reset before any reply', kind: 'transport-error', reply: 'reset' },
  ];

  before(async () => {
    // Real replies of the sandbox, so the good cases are what the service really says.
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
    try {
      const env = environmentAt(sandbox.url);
      for (const [pro, key] of [
        ['056391174', 'found'],
        ['999999999', 'missing'],
      ] as const) {
        const { request } = validateRequestText(TRACE(pro), 'trace.carrier.json');
        const x = await send({ context, request: request!, environment: env, apiKey: KEY });
        replies[key] = x.reply!.bodyText;
      }
    } finally {
      await sandbox.close();
    }
    dir = tmpDir('carrier-verdict-');
    fs.writeFileSync(path.join(dir, 'trace.carrier.json'), TRACE('056391174'));
    const envs: Record<string, { baseUrl: string }> = {};
    for (const [i, c] of cases.entries()) {
      const server = await startServer((req, res) => {
        if (c.reply === 'reset') {
          req.socket.destroy();
          return;
        }
        const body = typeof c.reply.body === 'function' ? c.reply.body() : c.reply.body;
        res.writeHead(c.reply.status, { ...(c.reply.type ? { 'Content-Type': c.reply.type } : {}), 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      });
      servers.set(c.name, server);
      envs[`case${i}`] = { baseUrl: server.url };
    }
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify(envs));
  });
  after(async () => {
    await Promise.all([...servers.values()].map((s) => s.close()));
    await context.http.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [i, c] of cases.entries()) {
    it(`${c.name}: ${c.kind} everywhere`, async () => {
      const server = servers.get(c.name)!;
      const { request } = validateRequestText(TRACE('056391174'), 'trace.carrier.json');
      const op = findShape('TraceShipment', '1.0.2')!;
      assert.ok(op);

      // core
      const exchange = await send({ context, request: request!, environment: environmentAt(server.url), apiKey: KEY });
      const verdict = classifyExchange(exchange);
      assert.equal(verdict.kind, c.kind, `core: ${verdict.reason}`);
      assert.equal(verdict.ok, c.kind === 'success');
      if (c.reply !== 'reset')
        assert.equal(exchange.reply?.bodyText, typeof c.reply.body === 'function' ? c.reply.body() : c.reply.body, 'the raw reply is kept as it came');

      // History
      assert.equal(toHistoryEntry(exchange).verdict, c.kind, 'History');

      // carrier send
      const sent = await cli(['send', 'trace.carrier.json', '--env', `case${i}`], dir);
      assert.equal(sent.code, c.kind === 'success' ? 0 : 1, `carrier send exit code\n${sent.out}${sent.err}`);
      assert.doesNotMatch(sent.out + sent.err, /internal error/);

      // carrier run, no expect
      const out = path.join(dir, `out${i}`);
      const run = await cli(['run', 'trace.carrier.json', '--env', `case${i}`, '-r', 'json', '--out', out], dir);
      const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as { tests: Array<{ status: string }> };
      assert.equal(report.tests[0].status, c.kind === 'success' ? 'passed' : 'failed', `carrier run\n${run.out}${run.err}`);
      assert.equal(run.code, c.kind === 'success' ? 0 : 1);

      // The traffic inspector, recording the same exchange between a client and the server.
      const inspector = await startInspector({ target: server.url, namespaces: DEFAULT_NAMESPACES, environment: `case${i}`, host: '127.0.0.1', port: 0 });
      try {
        await send({ context, request: request!, environment: environmentAt(inspector.url), apiKey: KEY });
        const recorded = await waitFor(() => inspector.exchanges()[0]);
        assert.equal(classifyExchange(recorded.exchange).kind, c.kind, `inspector: ${classifyExchange(recorded.exchange).reason}`);
      } finally {
        await inspector.close();
      }
    });
  }
});

async function waitFor<T>(get: () => T | undefined, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
