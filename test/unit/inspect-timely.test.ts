/**
 * The inspector never goes quiet (src/inspector/scheduler.ts): an exchange is read, recorded and
 * handed to the listeners (what `carrier inspect` prints and the Traffic Inspector view lists)
 * while other exchanges are still under way — a client uploading a byte at a time, a reply held
 * open (a long poll), or a client sending one request after another without a pause. Each test is
 * an ordering: the ordinary exchange is shown while the other traffic is still in flight.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { startInspector, type InspectorHandle, type RecordedExchange } from '../../src/inspector';
import { IdleQueue } from '../../src/inspector/scheduler';
import { closeClientAgent, plainRequest, tmpDir } from './inspect-kit';
import { startServer, type TestServer } from './transport-support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the first exchange `match` accepts, seen from now on. */
function nextExchange(inspector: InspectorHandle, match: (r: RecordedExchange) => boolean): { seen: Promise<RecordedExchange>; done: () => boolean } {
  let got = false;
  const seen = new Promise<RecordedExchange>((resolve) => {
    const off = inspector.onExchange((r) => {
      if (!match(r)) return;
      got = true;
      off();
      resolve(r);
    });
  });
  return { seen, done: () => got };
}

const pathOf = (r: RecordedExchange) => new URL(r.exchange.request.url).pathname;

describe('inspector: every exchange is shown while others are in flight', function () {
  this.timeout(60_000);
  let target: TestServer;
  let inspector: InspectorHandle;
  let record: string;
  /** Long polls held open, answered when the test says. */
  const held: Array<() => void> = [];

  before(async () => {
    target = await startServer((req, res, body) => {
      if (req.url === '/poll') {
        held.push(() => res.end('<polled/>'));
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end(`<ok bytes="${body.length}"/>`);
    });
    record = tmpDir('carrier-timely-');
    inspector = await startInspector({ target: target.url, namespaces: DEFAULT_NAMESPACES, recordDir: record });
  });

  after(async () => {
    for (const release of held.splice(0)) release();
    closeClientAgent();
    await inspector.close();
    await target.close();
    fs.rmSync(record, { recursive: true, force: true });
  });

  const recordedFiles = () => fs.readdirSync(record).filter((f) => f.endsWith('.exchange.json'));

  it('a client uploading a byte at a time: an ordinary exchange beside it is recorded before the upload ends', async () => {
    const length = 400;
    const { port } = new URL(inspector.url);
    const slow = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => slow.once('connect', resolve));
    const slowReply = new Promise<string>((resolve) => {
      let text = '';
      slow.on('data', (c) => {
        text += c.toString('latin1');
      });
      slow.on('end', () => resolve(text));
      slow.on('close', () => resolve(text));
    });
    slow.write(`POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`);
    let written = 0;
    slow.write('<');
    written++;

    const ordinary = nextExchange(inspector, (r) => pathOf(r) === '/ordinary');
    const before = recordedFiles().length;
    const sent = await plainRequest(`${inspector.url}/ordinary`, 'POST', [['Content-Type', 'text/xml']], Buffer.from('<a/>'));
    assert.equal(sent.status, 200);
    // A byte every 50 ms while waiting: the upload is in flight all along.
    while (!ordinary.done() && written < length - 1) {
      slow.write('x');
      written++;
      await sleep(50);
    }
    assert.ok(ordinary.done(), 'the ordinary exchange was shown before the slow upload finished');
    assert.ok(written < length - 1, 'the slow upload was still being written');
    assert.equal(target.received.filter((r) => r.url === '/slow').length, 0, 'the target has not had the whole upload yet');
    assert.equal(recordedFiles().length, before + 1, 'the ordinary exchange is in the recording folder');
    assert.equal((await ordinary.seen).exchange.reply?.status, 200);

    // Then the upload ends, and is shown in its turn.
    const slowShown = nextExchange(inspector, (r) => pathOf(r) === '/slow');
    slow.end('x'.repeat(length - written));
    assert.match(await slowReply, new RegExp(`^HTTP/1\\.1 200[^]*<ok bytes="${length}"/>`));
    const shown = await slowShown.seen;
    assert.equal(shown.exchange.sizes?.requestBytes, length);
  });

  it('a reply held open (a long poll): an ordinary exchange beside it is recorded while the poll waits', async () => {
    const poll = plainRequest(`${inspector.url}/poll`, 'GET', []);
    while (!held.length) await sleep(10);
    const ordinary = nextExchange(inspector, (r) => pathOf(r) === '/ordinary2');
    const polled = nextExchange(inspector, (r) => pathOf(r) === '/poll');
    const sent = await plainRequest(`${inspector.url}/ordinary2`, 'POST', [['Content-Type', 'text/xml']], Buffer.from('<b/>'));
    assert.equal(sent.status, 200);
    // The poll stays open until the ordinary exchange is shown (or the test gives up, failing).
    for (let tick = 0; !ordinary.done() && tick < 200; tick++) await sleep(50);
    assert.ok(ordinary.done(), 'the ordinary exchange was shown while the poll was open');
    assert.ok(!polled.done(), 'the poll is still open');
    held.shift()!();
    assert.equal((await poll).body.toString(), '<polled/>');
    assert.equal((await polled.seen).exchange.reply?.status, 200);
  });

  it('a client that never pauses: its first exchange is shown while it is still sending', async () => {
    // Without a quiet moment the inspector reads once an exchange has waited its deadline; the
    // load stops at the first one shown, or after `most` requests. On a quiet machine four clients
    // send more than 3,000 requests before a deadline timer gets its turn on the busy loop, so the
    // bound is counted in requests far past any deadline (tens of seconds of load), not in time.
    const most = 30_000;
    const first = nextExchange(inspector, (r) => pathOf(r) === '/load/0');
    let sent = 0;
    let next = 0;
    const load = async () => {
      while (!first.done() && sent < most) {
        const r = await plainRequest(`${inspector.url}/load/${next++}`, 'POST', [['Content-Type', 'text/xml']], Buffer.from('<c/>'));
        assert.equal(r.status, 200);
        sent++;
      }
    };
    await Promise.all([load(), load(), load(), load()]);
    assert.ok(first.done(), `the first exchange was not shown in ${sent} requests`);
    assert.ok(sent < most, 'shown while requests were still being sent');
    await inspector.flush();
    // Every one is read in the end, the last one sent among them.
    assert.ok(inspector.exchanges().some((r) => pathOf(r) === `/load/${next - 1}`));
  });
});

describe('inspector: the reading queue under traffic that never pauses', () => {
  it('reads an exchange that has waited its deadline, while exchanges keep beginning and ending', async () => {
    const read: string[] = [];
    // A quiet moment would have to last a minute: only the deadline (50 ms here) reads it.
    const queue = new IdleQueue<string>(
      async (item) => {
        read.push(item);
      },
      () => 1,
      60_000,
      5000,
      1 << 30,
      50,
    );
    // An exchange begins and ends every millisecond or so.
    let ticks = 0;
    const traffic = setInterval(() => {
      queue.begin();
      queue.end();
      ticks++;
    }, 1);
    try {
      queue.begin();
      queue.push('first');
      for (let i = 0; i < 400 && !read.length; i++) await sleep(5);
      assert.deepEqual(read, ['first'], 'read under traffic');
      assert.ok(ticks > 0);
    } finally {
      clearInterval(traffic);
    }
  });

  it('reads in a quiet moment though an exchange is still in flight (an upload trickling in)', async () => {
    const read: string[] = [];
    const queue = new IdleQueue<string>(
      async (item) => {
        read.push(item);
      },
      () => 1,
      5,
      5000,
      1 << 30,
      60_000,
    );
    queue.begin(); // the slow upload, never ended here
    queue.begin();
    queue.end();
    queue.push('ordinary');
    for (let i = 0; i < 400 && !read.length; i++) await sleep(5);
    assert.deepEqual(read, ['ordinary']);
  });
});
