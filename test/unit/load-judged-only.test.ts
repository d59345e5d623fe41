/**
 * A load run's exchange, judged and dropped (send's `judgedOnly`, docs/load.md): judged exactly as
 * a full send's exchange is, its reply redacted as ever, and a byte-identical reply of the same
 * prepared request read once (src/core/replyMemo.ts), a different one read afresh.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { prepareRequest } from '../../src/core/envelope/prepare';
import { errorClassOf } from '../../src/core/load/run';
import { MAX_REPLIES, MAX_REPLY_BYTES, ReplyMemos } from '../../src/core/replyMemo';
import { secretSpellings } from '../../src/core/redact';
import { judgeExchange } from '../../src/core/runner/judge';
import { compileRequestFile } from '../../src/core/runner/loadFile';
import { send, rawReplyBytes } from '../../src/core/send';
import { classifyExchange } from '../../src/core/verdict';
import type { Exchange } from '../../src/core/exchange';
import { nodeContext } from '../../src/host';
import { environmentAt, soapReply, SOAP11_TYPE, startServer, type TestServer } from './transport-support';

const KEY = 'Judged-Only-Key-abcdefghijklmnopqrstuvwxyz0123456789';
const NS = DEFAULT_NAMESPACES;
const terminal = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA' } };

const good = (code: string) =>
  soapReply(
    '1.1',
    `<GetTerminalInformationResponse xmlns="${NS.service}"><GetTerminalInformationResult><Result><TerminalInfo><TerminalDetails xmlns="${NS.data}"><TerminalCode>${code}</TerminalCode></TerminalDetails></TerminalInfo></Result></GetTerminalInformationResult></GetTerminalInformationResponse>`,
  );
const fault = soapReply('1.1', `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Bad request</faultstring></soap:Fault>`);

/** A test of the terminal request: a stated status, no fault, the terminal code. */
const FILE = JSON.stringify({ ...terminal, expect: { status: 200, fault: false, reply: { 'Result[0].TerminalDetails.TerminalCode': 'LNK' } } });
const compiled = compileRequestFile(FILE, '/tmp/terminal.carrier.json');
assert.deepEqual(compiled.problems, []);

function judged(x: Exchange) {
  return judgeExchange(x, { expect: compiled.expect, lookup: () => undefined, fileLocation: compiled.location, file: compiled.file, keepExchange: false });
}

function noKeyIn(value: unknown): void {
  const text = JSON.stringify(value);
  assert.deepEqual(
    secretSpellings(KEY).filter((s) => text.includes(s)),
    [],
  );
}

describe('load: exchanges judged only, replies read once', () => {
  const context = nodeContext();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => context.http.close());

  /** A server answering `replies` in turn (status, body), again from the first after the last. */
  async function answering(replies: ReadonlyArray<readonly [number, string]>) {
    let n = 0;
    server = await startServer((_req, res) => {
      const [status, body] = replies[n++ % replies.length];
      res.writeHead(status, { 'Content-Type': SOAP11_TYPE, 'X-Count': String(n) });
      res.end(body);
    });
    const environment = environmentAt(server.url);
    const prepared = prepareRequest({ request: terminal, environment, apiKey: KEY });
    const memos = new ReplyMemos();
    const base = { context, request: terminal, environment, apiKey: KEY, prepared };
    return { prepared, memos, full: () => send(base), lean: () => send({ ...base, judgedOnly: true, replies: memos }) };
  }

  it('a byte-identical reply reuses its reading, frozen, and is judged as a full send is', async () => {
    const s = await answering([[200, good('OMA')]]);
    const full = await s.full();
    const first = await s.lean();
    const second = await s.lean();
    assert.equal(second.parsed, first.parsed, 'the second reply took the first one’s reading');
    assert.equal(second.findings, first.findings);
    assert.ok(Object.isFrozen(first.parsed) && Object.isFrozen(first.findings) && Object.isFrozen(first.reply));
    assert.equal(s.memos.for(s.prepared).size, 1);
    for (const x of [first, second]) {
      assert.deepEqual(x.parsed, full.parsed);
      assert.deepEqual(x.fault, full.fault);
      assert.deepEqual(x.findings, full.findings);
      assert.deepEqual(x.documents, full.documents);
      assert.deepEqual(x.judgement, full.judgement);
      assert.equal(x.reply?.bodyText, full.reply?.bodyText);
      assert.equal(x.reply?.status, full.reply?.status);
      assert.deepEqual(x.reply?.headers, [['Content-Type', SOAP11_TYPE]], 'only the Content-Type is kept');
      assert.ok(x.timing && x.timing.totalMs >= 0, 'each exchange has its own timing');
      // The expectation on TerminalCode fails the same way on each.
      assert.deepEqual(judged(x).failures, judged(full).failures);
      assert.equal(judged(x).failures.length, 1);
      assert.equal(errorClassOf(x, judged(x).failures, false), 'expect-failed');
      assert.equal(rawReplyBytes(x), undefined, 'nothing kept for display');
    }
    assert.notEqual(second.timing, first.timing);
  });

  it('a different reply is read afresh: each exchange gets its own reply’s verdict', async () => {
    const s = await answering([
      [200, good('LNK')],
      [500, fault],
    ]);
    const kinds: string[] = [];
    const classes: Array<string | undefined> = [];
    for (let i = 0; i < 6; i++) {
      const x = await s.lean();
      kinds.push(classifyExchange(x).kind);
      classes.push(errorClassOf(x, judged(x).failures, false));
    }
    assert.deepEqual(kinds, ['success', 'fault', 'success', 'fault', 'success', 'fault']);
    assert.deepEqual(classes, [undefined, 'fault', undefined, 'fault', undefined, 'fault']);
    assert.equal(s.memos.for(s.prepared).size, 2);
  });

  it('a reply that echoes the key is redacted as a full send’s', async () => {
    const s = await answering([[200, good(KEY)]]);
    const full = await s.full();
    const a = await s.lean();
    const b = await s.lean();
    for (const x of [a, b]) {
      noKeyIn(x);
      assert.deepEqual(x.parsed, full.parsed);
      assert.equal(x.reply?.bodyText, full.reply?.bodyText);
    }
    assert.equal(b.parsed, a.parsed);
  });

  it('a transport error is an exchange of its own, never kept', async () => {
    server = await startServer((_req, res) => {
      res.destroy();
    });
    const environment = environmentAt(server.url);
    const memos = new ReplyMemos();
    const prepared = prepareRequest({ request: terminal, environment, apiKey: KEY });
    const x = await send({ context, request: terminal, environment, apiKey: KEY, prepared, judgedOnly: true, replies: memos });
    assert.ok(x.error);
    assert.equal(errorClassOf(x, judged(x).failures, false), 'transport-error');
    assert.equal(memos.for(prepared).size, 0);
  });

  it('memory is bounded: a few replies per request, none too large, a budget for all', () => {
    const memos = new ReplyMemos(3 * 1024);
    const prepared = prepareRequest({ request: terminal, environment: environmentAt('http://127.0.0.1:9'), apiKey: KEY });
    const memo = memos.for(prepared);
    const reading = () => ({
      reply: { status: 200, statusText: 'OK', headers: [], bodyText: '', size: 0 },
      findings: [],
      documents: [],
      judgement: { verdict: { kind: 'success' as const, ok: true, label: '', reason: '', tone: 'ok' as const } },
    });
    for (let i = 0; i < MAX_REPLIES + 2; i++) memo.keep(200, 'OK', SOAP11_TYPE, Buffer.alloc(100, i), reading());
    assert.equal(memo.size, MAX_REPLIES);
    assert.equal(memos.held, MAX_REPLIES * 100);
    // The oldest went: the last MAX_REPLIES are found.
    assert.equal(memo.find(200, 'OK', SOAP11_TYPE, Buffer.alloc(100, 0)), undefined);
    assert.ok(memo.find(200, 'OK', SOAP11_TYPE, Buffer.alloc(100, MAX_REPLIES + 1)));
    // Another status, status text or content type is another reply.
    assert.equal(memo.find(500, 'OK', SOAP11_TYPE, Buffer.alloc(100, MAX_REPLIES + 1)), undefined);
    assert.equal(memo.find(200, 'Fine', SOAP11_TYPE, Buffer.alloc(100, MAX_REPLIES + 1)), undefined);
    assert.equal(memo.find(200, 'OK', 'text/html', Buffer.alloc(100, MAX_REPLIES + 1)), undefined);
    // Past the budget, or larger than a reply may be, nothing more is kept.
    const other = memos.for(prepareRequest({ request: terminal, environment: environmentAt('http://127.0.0.1:10'), apiKey: KEY }));
    other.keep(200, 'OK', SOAP11_TYPE, Buffer.alloc(3 * 1024), reading());
    assert.equal(other.size, 0);
    other.keep(200, 'OK', SOAP11_TYPE, Buffer.alloc(MAX_REPLY_BYTES + 1), reading());
    assert.equal(other.size, 0);
    assert.equal(memos.held, MAX_REPLIES * 100);
  });
});
