/**
 * No spelling of the key leaves through the inspector or the CLI. Random keys (some full of
 * regex, XML, URL and JSON special characters, one with a Latin-1 letter), written in every
 * spelling test/unit/key-spellings.ts knows, sent through the inspector in XML, JSON, query
 * strings, an unlisted header, gzip and brotli bodies, UTF-16 and Latin-1 bodies, to a target that
 * echoes each request back; then every output is searched: the store, the recording files (read
 * as UTF-8, Latin-1 and UTF-16), `carrier inspect --show`, the exported request file, what
 * `carrier inspect` prints, and the files `carrier send --out` writes for a gzip-encoded reply.
 * Meanwhile the relayed bytes stay exactly what each side sent.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { DEFAULT_NAMESPACES } from '../../src/core/catalog';
import { runCli } from '../../src/cli/dispatch';
import { startInspector, type InspectorHandle } from '../../src/inspector';
import { closeClientAgent, filesUnder, pairs, plainRequest, tmpDir } from './inspect-kit';
import { leaksOf, randomKey, readings, seeded, spellingsOf, type Spelling } from './key-spellings';

const ROOT = path.resolve(__dirname, '..', '..');
const SEED = Number(process.env.REDACT_SEED ?? Date.now() % 1_000_000);
const MASK = '••••';

interface Echo {
  readonly url: string;
  /** What the target received: method, URL, headers, body bytes. */
  readonly seen: Array<{ method: string; url: string; headers: Array<[string, string]>; body: Buffer; reply: Buffer }>;
  close(): Promise<void>;
}

/**
 * Answers each request with its own body, Content-Type and Content-Encoding (a GET with its URL
 * in XML), and adds the key in a header of its own: every spelling comes back in the reply too.
 */
function startEcho(key: string): Promise<Echo> {
  const seen: Echo['seen'] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const reply = req.method === 'GET' ? Buffer.from(`<Echo>${req.url}</Echo>`) : body;
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: pairs(req.rawHeaders), body, reply });
      const headers: Record<string, string> = {
        'Content-Type': req.headers['content-type'] ?? 'text/xml',
        'Content-Length': String(reply.length),
        'X-Partner-Ref': Buffer.from(key, 'utf8').toString('latin1'),
      };
      if (req.headers['content-encoding']) headers['Content-Encoding'] = req.headers['content-encoding'];
      res.writeHead(200, headers);
      res.end(reply);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        seen,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

interface Call {
  readonly what: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Array<[string, string]>;
  readonly body?: Buffer;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

/** Every way a client sends the key: each spelling where it can stand, and the transfer forms. */
function callsFor(key: string, spellings: readonly Spelling[]): Call[] {
  const calls: Call[] = [];
  const post = (what: string, p: string, type: string, body: Buffer, extra: Array<[string, string]> = []): Call => ({
    what,
    method: 'POST',
    path: p,
    headers: [['Content-Type', type], ['Content-Length', String(body.length)], ...extra],
    body,
  });
  for (const s of spellings) {
    if (s.context === 'xml' || s.context === 'any') {
      const text = s.context === 'any' ? xmlText(s.text) : s.text;
      calls.push(
        post(`XML: ${s.name}`, '/echo/xml', 'text/xml; charset=utf-8', Buffer.from(`<r><APIKey>${text}</APIKey><Note a="1">key ${text} here</Note></r>`)),
      );
    }
    if (s.context === 'url') calls.push({ what: `query: ${s.name}`, method: 'GET', path: `/echo/q?token=${s.text}&APIKEY=${s.text}&x=1`, headers: [] });
    if (s.context === 'json')
      calls.push(post(`JSON: ${s.name}`, '/echo/json', 'application/json', Buffer.from(`{"apiKey":"${s.text}","note":"key ${s.text} here"}`)));
  }
  const doc = `<r><Note>key ${xmlText(key)} here</Note></r>`;
  calls.push({
    what: 'an unlisted header',
    method: 'GET',
    path: '/echo/h',
    headers: [
      ['X-Partner-Ref', Buffer.from(key, 'utf8').toString('latin1')],
      ['X-ApiKey', Buffer.from(key, 'utf8').toString('latin1')],
    ],
  });
  calls.push(post('gzip', '/echo/gz', 'text/xml; charset=utf-8', zlib.gzipSync(doc), [['Content-Encoding', 'gzip']]));
  calls.push(post('brotli', '/echo/br', 'text/xml; charset=utf-8', zlib.brotliCompressSync(doc), [['Content-Encoding', 'br']]));
  calls.push(post('deflate', '/echo/df', 'text/xml; charset=utf-8', zlib.deflateSync(doc), [['Content-Encoding', 'deflate']]));
  calls.push(
    post('UTF-16 with a byte-order mark', '/echo/u16', 'text/xml; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')])),
  );
  calls.push(post('UTF-16BE', '/echo/u16be', 'text/xml; charset=utf-16be', utf16be(doc)));
  calls.push(post('Latin-1', '/echo/l1', 'text/xml; charset=iso-8859-1', Buffer.from(doc, 'latin1')));
  // A call of the catalog: its request file is exported, the request line quoted in a comment.
  const pct = [...Buffer.from(key, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetTerminalInformation xmlns="${DEFAULT_NAMESPACES.service}"><APIKey>${[...key].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')}</APIKey><ZipCode>68507</ZipCode><CountryCode>USA</CountryCode></GetTerminalInformation></soap:Body></soap:Envelope>`;
  calls.push(
    post('a call of the catalog', `/1.0.2/TerminalInformationService.asmx?APIKEY=${pct}`, 'text/xml; charset=utf-8', Buffer.from(envelope), [
      ['SOAPAction', `"${DEFAULT_NAMESPACES.service}/GetTerminalInformation"`],
    ]),
  );
  return calls;
}

/** Every output that is a file, in every reading (and gunzipped if it still were gzip). */
function fileLeaks(dir: string, key: string, spellings: readonly Spelling[]): string[] {
  return filesUnder(dir).flatMap((f) => {
    const bytes = fs.readFileSync(f);
    const all = bytes[0] === 0x1f && bytes[1] === 0x8b ? [...readings(bytes), zlib.gunzipSync(bytes).toString('utf8')] : readings(bytes);
    const found = [...new Set(all.flatMap((t) => leaksOf(t, key, spellings)))];
    return found.length ? [`${path.basename(f)}: ${found.join(', ')}`] : [];
  });
}

async function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      out += t;
    },
    cwd,
    env,
  });
  return { code, out };
}

describe(`redaction by value through the inspector and the CLI (seed ${SEED}, REDACT_SEED to repeat)`, function () {
  this.timeout(120_000);
  const next = seeded(SEED);
  afterEach(() => closeClientAgent());

  for (const [run, options] of [
    [0, { latin1: true }],
    [1, { specials: true }],
    [2, { specials: true, latin1: true }],
  ] as const) {
    const key = randomKey(next, options);
    const spellings = spellingsOf(key, next);
    it(`run ${run}: ${JSON.stringify(key)} in every spelling reaches no store, recording, --show or export; the relay passes every byte`, async () => {
      const echo = await startEcho(key);
      const dir = tmpDir('carrier-inspect-redact-');
      let inspector: InspectorHandle | undefined;
      const logged: string[] = [];
      try {
        inspector = await startInspector({
          target: echo.url,
          namespaces: DEFAULT_NAMESPACES,
          recordDir: path.join(dir, 'rec'),
          secrets: [key],
          log: (l) => logged.push(l),
        });
        const calls = callsFor(key, spellings);
        for (const [i, call] of calls.entries()) {
          const got = await plainRequest(`${inspector.url}${call.path}`, call.method, call.headers, call.body);
          const seen = echo.seen[i];
          assert.equal(got.status, 200, call.what);
          assert.equal(seen.url, call.path, `${call.what}: the URL went on as sent`);
          assert.ok(seen.body.equals(call.body ?? Buffer.alloc(0)), `${call.what}: the body went on byte for byte`);
          assert.ok(got.body.equals(seen.reply), `${call.what}: the reply came back byte for byte`);
        }
        await inspector.flush();
        const stored = inspector.exchanges();
        assert.equal(stored.length, calls.length);
        for (const [i, r] of stored.entries()) {
          const x = r.exchange;
          const texts = [
            JSON.stringify(r),
            x.request.url,
            x.request.body,
            x.reply?.bodyText ?? '',
            ...x.request.headers.flat(),
            ...(x.reply?.headers.flat() ?? []),
          ];
          assert.deepEqual([...new Set(texts.flatMap((t) => leaksOf(t, key, spellings)))], [], `the store, ${calls[i].what}`);
        }
        // Compressed bodies are kept decoded (and say so); UTF-16 and Latin-1 ones as they went, masked in place.
        const byPath = (p: string) => stored.find((r) => r.exchange.request.url.includes(p))!;
        for (const [p, coding] of [
          ['/echo/gz', 'gzip'],
          ['/echo/br', 'br'],
          ['/echo/df', 'deflate'],
        ]) {
          const r = byPath(p);
          assert.deepEqual(r.decoded, { request: coding, reply: coding });
          assert.ok(r.exchange.reply!.bodyText.startsWith(`<r><Note>key ${MASK} here`), `${coding}: shown decoded, masked`);
          assert.match(r.files!.replyBody!, /\.reply\.decoded\.xml$/);
        }
        const u16 = fs.readFileSync(path.join(dir, 'rec', byPath('/echo/u16').files!.replyBody!));
        assert.deepEqual([u16[0], u16[1]], [0xff, 0xfe], 'UTF-16 recorded as it went');
        assert.ok(u16.subarray(2).toString('utf16le').includes(`key ${MASK} here`));
        const l1 = fs.readFileSync(path.join(dir, 'rec', byPath('/echo/l1').files!.replyBody!));
        assert.ok(l1.toString('latin1').includes('key \x95\x95\x95\x95 here'), 'Latin-1 recorded as it went, the mask in windows-1252');
        const known = byPath('/1.0.2/');
        assert.equal(known.recognition.kind, 'operation');
        assert.ok(known.files?.requestFile, 'a request file is exported');
        assert.match(fs.readFileSync(path.join(dir, 'rec', known.files!.requestFile!), 'utf8'), /APIKEY=••••/);

        assert.deepEqual(fileLeaks(path.join(dir, 'rec'), key, spellings), [], 'the recording');
        for (const f of fs.readdirSync(path.join(dir, 'rec')).filter((n) => n.endsWith('.exchange.json'))) {
          const shown = await cli(['inspect', '--show', path.join('rec', f)], dir);
          assert.equal(shown.code, 0, shown.out);
          assert.deepEqual(leaksOf(shown.out, key, spellings), [], `--show ${f}`);
        }
        assert.deepEqual(leaksOf(logged.join('\n'), key, spellings), [], 'the log');
      } finally {
        await inspector?.close();
        await echo.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('`carrier inspect` in front of an environment prints and records no spelling of the key from CARRIER_API_KEY_<ENV>', async () => {
    const key = randomKey(next, { specials: true });
    const spellings = spellingsOf(key, next);
    const echo = await startEcho(key);
    const dir = tmpDir('carrier-inspect-redact-cli-');
    fs.writeFileSync(path.join(dir, 'carrier.environments.json'), JSON.stringify({ echo: { baseUrl: echo.url } }));
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CARRIER_API_KEY')));
    const child = spawn(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'src', 'cli', 'main.ts'), 'inspect', '--target', 'echo', '--record', 'rec'],
      { cwd: dir, env: { ...clean, CARRIER_API_KEY_ECHO: key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(
        () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.test(out),
        'the listening line',
        () => out,
      );
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
      const calls = callsFor(key, spellings).filter((c, i) => c.method === 'GET' || i % 3 === 0);
      for (const call of calls) assert.equal((await plainRequest(`${url}${call.path}`, call.method, call.headers, call.body)).status, 200, call.what);
      await until(
        () => (out.match(/\n\d\d:\d\d:\d\d #\d+ /g) ?? []).length >= calls.length,
        'a line per exchange',
        () => out,
      );
      child.kill('SIGTERM');
      assert.equal(await exited, 0, out);
      assert.match(out, /GET \/echo\/q\?token=••••&APIKEY=••••&x=1/);
      assert.deepEqual(leaksOf(out, key, spellings), [], 'what carrier inspect printed');
      assert.deepEqual(fileLeaks(path.join(dir, 'rec'), key, spellings), [], 'the recording');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await echo.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`carrier send --out` writes a gzip-encoded reply decoded and masked, and prints no spelling of the key', async () => {
    const key = randomKey(next, { specials: true });
    const spellings = spellingsOf(key, next);
    const echoed = spellings
      .filter((s) => s.context === 'xml')
      .map((s) => `<Note>${s.text}</Note>`)
      .join('');
    const server = http.createServer((req, res) => {
      req.resume();
      const reply = zlib.gzipSync(
        `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Key ${xmlText(key)} refused</faultstring><detail>${echoed}</detail></soap:Fault></soap:Body></soap:Envelope>`,
      );
      res.writeHead(500, {
        'Content-Type': 'text/xml; charset=utf-8',
        'Content-Encoding': 'gzip',
        'Content-Length': String(reply.length),
        'X-Partner-Ref': key.replace(/[^\x20-\x7e]/g, '?'),
      });
      res.end(reply);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const dir = tmpDir('carrier-send-out-');
    try {
      fs.writeFileSync(
        path.join(dir, 'carrier.environments.json'),
        JSON.stringify({ gz: { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` } }),
      );
      fs.writeFileSync(
        path.join(dir, 'terminal.carrier.json'),
        JSON.stringify({ operation: 'GetTerminalInformation', environment: 'gz', params: { ZipCode: '68507', CountryCode: 'USA' } }),
      );
      for (const flags of [[], ['--json']]) {
        const out = path.join(dir, `out${flags.length}`);
        const r = await cli(['send', 'terminal.carrier.json', '--out', out, ...flags], dir, { CARRIER_API_KEY_GZ: key });
        assert.equal(r.code, 1, r.out);
        assert.deepEqual(leaksOf(r.out, key, spellings), [], `carrier send ${flags.join(' ')} printed`);
        assert.deepEqual(fs.readdirSync(out).sort(), ['exchange.json', 'reply.decoded.xml', 'request.http']);
        const reply = fs.readFileSync(path.join(out, 'reply.decoded.xml'), 'utf8');
        assert.match(reply, /^<\?xml [\s\S]*<faultstring>Key •••• refused<\/faultstring>/, 'the reply, decoded and masked');
        assert.deepEqual(fileLeaks(out, key, spellings), [], '--out files');
      }
    } finally {
      server.closeAllConnections();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function until(test: () => boolean, what: string, got: () => string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; so far:\n${got()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
