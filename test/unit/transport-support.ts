/**
 * Helpers shared by the envelope, transport, reply, redaction and send tests: local HTTP servers
 * on OS-assigned loopback ports that close themselves, reply builders and small PDFs.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { deflateSync } from 'node:zlib';
import { DEFAULT_NAMESPACES, SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS } from '../../src/core/catalog';
import { sandboxEnvironment, type Environment } from '../../src/core/environments';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  /** Header names as sent, in order. */
  readonly rawHeaderNames: string[];
  readonly body: Buffer;
}

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void | Promise<void>;

/** Tracks sockets so close() ends keep-alive connections too: no test waits on an idle socket. */
export function track(server: http.Server | import('node:net').Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

export async function startServer(handler: Handler, server: http.Server = http.createServer()): Promise<TestServer> {
  const received: Received[] = [];
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rawHeaderNames = req.rawHeaders.filter((_, i) => i % 2 === 0);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaderNames, body });
      Promise.resolve(handler(req, res, body)).catch((err) => {
        res.destroy(err as Error);
      });
    });
  });
  const close = track(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = 'setSecureContext' in server ? 'https' : 'http';
  return { url: `${scheme}://127.0.0.1:${port}`, port, received, close };
}

export function soapReply(version: '1.1' | '1.2', inner: string): string {
  const ns = version === '1.1' ? SOAP11_ENVELOPE_NS : SOAP12_ENVELOPE_NS;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
}

export const SOAP11_TYPE = 'text/xml; charset=utf-8';
export const SOAP12_TYPE = 'application/soap+xml; charset=utf-8';

/** An environment pointing at a local server, with the neutral namespaces unless told otherwise. */
export function environmentAt(baseUrl: string, extra: Partial<Environment> = {}): Environment {
  return { ...sandboxEnvironment(), name: 'test', baseUrl, embedded: false, builtIn: false, namespaces: DEFAULT_NAMESPACES, ...extra };
}

export function tmpDir(prefix = 'carrier-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A small, valid PDF with `pages` page objects and a filler stream of `fillerBytes` random bytes
 * (incompressible, so the size is real). With `objectStream`, the page objects sit compressed in
 * an object stream, as PDF 1.5 writers put them.
 */
export function makePdf(pages: number, fillerBytes = 0, objectStream: false | 'flate' | 'hex' = false): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    size += buf.length;
  };
  const obj = (num: number, body: Buffer | string) => {
    offsets[num] = size;
    push(`${num} 0 obj\n`);
    push(body);
    push('\nendobj\n');
  };
  push('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n');
  const pageNums = Array.from({ length: pages }, (_, i) => 4 + i);
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Kids [${pageNums.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages} >>`);
  const filler = randomBytes(fillerBytes);
  obj(3, Buffer.concat([Buffer.from(`<< /Length ${filler.length} >>\nstream\n`, 'latin1'), filler, Buffer.from('\nendstream', 'latin1')]));
  const pageDict = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>';
  let last = 3 + pages;
  if (objectStream) {
    let header = '';
    let content = '';
    for (const n of pageNums) {
      header += `${n} ${content.length} `;
      content += `${pageDict}\n`;
    }
    const plain = Buffer.from(header + content, 'latin1');
    // A filter the byte scan does not decode (hex) leaves the count to pdf-lib.
    const [filter, data] =
      objectStream === 'flate' ? ['/FlateDecode', deflateSync(plain)] : ['/ASCIIHexDecode', Buffer.from(`${plain.toString('hex')}>`, 'latin1')];
    last += 1;
    obj(
      last,
      Buffer.concat([
        Buffer.from(`<< /Type /ObjStm /N ${pages} /First ${header.length} /Filter ${filter} /Length ${data.length} >>\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  } else {
    for (const n of pageNums) obj(n, pageDict);
  }
  const xref = size;
  push(`xref\n0 ${last + 1}\n0000000000 65535 f \n`);
  for (let n = 1; n <= last; n++) push(`${String(offsets[n] ?? 0).padStart(10, '0')} 00000 ${offsets[n] === undefined ? 'f' : 'n'} \n`);
  push(`trailer\n<< /Size ${last + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
