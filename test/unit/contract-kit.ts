/**
 * A "live service" for the contract tests: the embedded sandbox started with other namespaces,
 * behind a small server that serves its WSDLs altered (elements added, removed, reordered,
 * retyped, an enumeration changed, an operation and a binding gone), strips an element from its
 * replies, and keeps every request body it was sent so a test can see where an element went.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Namespaces } from '../../src/core/catalog';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';

/** Namespaces no catalog default shares: the "live" service's. */
export const LIVE_NAMESPACES: Namespaces = { service: 'http://live.carrier.test/ws/', data: 'http://tempuri.org/', pickup: 'http://live.carrier.test/pickup' };

export interface LiveService {
  readonly url: string;
  readonly sandbox: SandboxHandle;
  /** Request bodies as they arrived, by path. */
  readonly requests: Array<{ readonly method: string; readonly path: string; readonly body: string }>;
  close(): Promise<void>;
}

export interface LiveOptions {
  readonly namespaces?: Namespaces;
  /** The WSDL of `path` as the live service publishes it. */
  readonly alterWsdl?: (path: string, wsdl: string) => string;
  /** A reply body as the live service sends it. */
  readonly alterReply?: (path: string, body: string) => string;
  /** A request as the sandbox behind reads it: what the live service knows and the sandbox does not, taken out. */
  readonly alterRequest?: (path: string, body: string) => string;
  /** Answer a path itself instead (HTML pages, broken XML, 404s). */
  readonly answer?: (path: string, query: string) => { status: number; type: string; body: string } | undefined;
}

/** `<Name>…</Name>` (any prefix, attributes, or self-closed) taken out of an XML text. */
export function withoutElement(xml: string, name: string): string {
  const open = `<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?`;
  return xml.replace(new RegExp(`${open}/>|${open}>[\\s\\S]*?</(?:[\\w.-]+:)?${name}>`, 'g'), '');
}

/** Edits the content of `<s:complexType name="…">` (or simpleType) in a WSDL. */
export function inType(wsdl: string, name: string, edit: (content: string) => string): string {
  const re = new RegExp(`(<s:(?:complex|simple)Type name="${name}">)([\\s\\S]*?)(</s:(?:complex|simple)Type>)`);
  if (!re.test(wsdl)) throw new Error(`no type ${name} in the WSDL`);
  return wsdl.replace(re, (_m, a: string, content: string, b: string) => a + edit(content) + b);
}

/** An element declaration line of a type, found by name. */
export function declaration(name: string): RegExp {
  return new RegExp(`<s:element [^>]*name="${name}"[^>]*/>`);
}

export async function startLiveService(options: LiveOptions = {}): Promise<LiveService> {
  const sandbox = await startSandbox({ port: 0, namespaces: options.namespaces ?? LIVE_NAMESPACES });
  const requests: Array<{ method: string; path: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://live.invalid');
        let body = Buffer.concat(chunks).toString('utf8');
        requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
        const own = options.answer?.(url.pathname, url.search);
        if (own) {
          res.writeHead(own.status, { 'Content-Type': own.type });
          res.end(own.body);
          return;
        }
        if (options.alterRequest) body = options.alterRequest(url.pathname, body);
        const headers: Record<string, string> = {};
        for (const h of ['content-type', 'soapaction']) if (req.headers[h]) headers[h] = String(req.headers[h]);
        const r = await fetch(`${sandbox.url}${url.pathname}${url.search}`, { method: req.method, headers, ...(req.method === 'POST' ? { body } : {}) });
        let text = await r.text();
        const isWsdl = /^\?wsdl$/i.test(url.search);
        // The sandbox names its own address in the WSDL; the live one names its own.
        if (isWsdl) text = text.split(sandbox.url).join(`http://${req.headers.host}`);
        if (isWsdl && options.alterWsdl) text = options.alterWsdl(url.pathname, text);
        else if (!isWsdl && options.alterReply) text = options.alterReply(url.pathname, text);
        res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'text/xml; charset=utf-8' });
        res.end(text);
      })().catch((err: Error) => {
        res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end(String(err.stack ?? err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sandbox,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sandbox.close();
    },
  };
}

/**
 * The alterations of the contract tests, one of each kind the check must name:
 * - 1.0.3 rate quotes: CustomerData added first to the request and Pieces (int) after Weight in
 *   each item; COD added to RQAccessorial and SortAndSegregate taken out;
 * - transit times: LineOfBusiness gone from the input, DateOfPickup a string instead of a dateTime;
 * - pickups: the contact's Name and CompanyName swapped, IncludeBol required, LoadAttributes expanded;
 * - GetHazmatDescription gone from /sandbox/BillOfLadingService.asmx;
 * - terminals: no HTTP GET binding, and TerminalType gone from TerminalDetails (and its replies).
 */
export function alterLiveWsdl(path: string, wsdl: string): string {
  let w = wsdl;
  switch (path) {
    case '/1.0.3/RateQuoteService.asmx':
      w = inType(w, 'RateQuoteRequestV103', (c) =>
        c.replace('<s:sequence>', '<s:sequence><s:element minOccurs="0" maxOccurs="1" name="CustomerData" type="s:string"/>'),
      );
      w = inType(w, 'RateItem', (c) => c.replace(declaration('Weight'), (m) => `${m}<s:element minOccurs="1" maxOccurs="1" name="Pieces" type="s:int"/>`));
      w = inType(w, 'RQAccessorial', (c) =>
        c
          .replace(/<s:enumeration value="SortAndSegregate"\/>/, '')
          .replace('<s:enumeration value="OverDimension"/>', '<s:enumeration value="COD"/><s:enumeration value="OverDimension"/>'),
      );
      break;
    case '/1.0.0/TransitTimesService.asmx':
      w = inType(w, 'TransitTimesInput', (c) => c.replace(declaration('LineOfBusiness'), '').replace(/(name="DateOfPickup" type=")s:dateTime"/, '$1s:string"'));
      break;
    case '/1.0.3/PickupRequestService.asmx': {
      w = inType(w, 'PickupContact', (c) => {
        const name = declaration('Name').exec(c)![0];
        const company = declaration('CompanyName').exec(c)![0];
        return c.replace(name, '\u0000').replace(company, name).replace('\u0000', company);
      });
      w = inType(w, 'CreatePickupRequestRequest', (c) => c.replace(/minOccurs="0"( maxOccurs="1" name="IncludeBol")/, 'minOccurs="1"$1'));
      w = inType(w, 'LoadAttributes', (c) =>
        c.replace(
          /<s:any [^>]*\/>/,
          '<s:element minOccurs="0" maxOccurs="1" name="Stackable" type="s:boolean"/><s:element minOccurs="0" maxOccurs="1" name="TotalPallets" type="s:int"/>',
        ),
      );
      break;
    }
    case '/sandbox/BillOfLadingService.asmx':
      w = w.replace(/<wsdl:operation name="GetHazmatDescription">[\s\S]*?<\/wsdl:operation>/g, '');
      break;
    case '/1.0.2/TerminalInformationService.asmx':
      w = w
        .replace(/<wsdl:binding name="TerminalInformationServiceHttpGet"[\s\S]*?<\/wsdl:binding>/, '')
        .replace(/<wsdl:port name="TerminalInformationServiceHttpGet"[\s\S]*?<\/wsdl:port>/, '');
      w = inType(w, 'TerminalDetails', (c) => c.replace(declaration('TerminalType'), ''));
      break;
  }
  return w;
}

/** The 1.0.3 rate quote's additions taken out of a request (a CustomerData first, a Pieces after an item's Weight), as the sandbox does not know them. */
export function liveRequest(path: string, body: string): string {
  if (path !== '/1.0.3/RateQuoteService.asmx') return body;
  return body
    .replace(/(<(?:[\w.-]+:)?request\b[^>]*>\s*)<((?:[\w.-]+:)?)CustomerData\b[^>]*>[^<]*<\/\2CustomerData>/, '$1')
    .replace(/(<\/(?:[\w.-]+:)?Weight>\s*)<((?:[\w.-]+:)?)Pieces\b[^>]*>[^<]*<\/\2Pieces>/g, '$1');
}

/** Terminal replies without TerminalType, as the altered WSDL has them. */
export function alterLiveReply(path: string, body: string): string {
  return path.startsWith('/1.0.2/TerminalInformationService.asmx') ? withoutElement(body, 'TerminalType') : body;
}
