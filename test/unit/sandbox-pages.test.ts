/**
 * The sandbox's service pages (issue items 1–3, docs/wire.md#transport-rule-8 and
 * docs/wire.md#transport-rule-9): the service page and operation pages of every service path, their
 * samples, the two kinds of test form, who gets the SOAP test form (decided by the connection's
 * address), the 404 page and the page headers.
 * Rendering from elsewhere than loopback is checked at the function level, since every test
 * connection comes from this machine.
 */
import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { parametersRecord, servicePaths, shapesAtPath, soapAction, type Namespaces } from '../../src/core/catalog';
import type { OperationDef } from '../../src/core/catalog/types';
import { parseXml } from '../../src/core/xml/dom';
import type { Reply } from '../../src/sandbox/http/reply';
import { isLoopback } from '../../src/sandbox/pages/loopback';
import { operationPageUrl } from '../../src/sandbox/pages/links';
import { servicePage } from '../../src/sandbox/pages/servicePage';
import { sameOrigin, testFormPost } from '../../src/sandbox/routes/testFormRoute';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import type { SandboxContext } from '../../src/sandbox/context';
import { Clock, http, KEY, NS_DISTINCT, NS_SAME, type HttpResult } from './sandbox-kit';

const BOL = '/sandbox/BillOfLadingService.asmx';
const RATE = '/1.0.3/RateQuoteService.asmx';
const PATHS = [...servicePaths().keys()];
const hasHttp = (op: OperationDef) => op.bindings.includes('get') || op.bindings.includes('post');

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
/** The text content of every <pre> of a page (tags of placeholder spans removed). */
const pres = (html: string) => [...html.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => unescape(m[1].replace(/<[^>]+>/g, '')));
/** The text of the <pre> with this class (the test form's reply and request). */
const preOf = (html: string, cls: string) => unescape(new RegExp(`<pre class="${cls}">([\\s\\S]*?)</pre>`).exec(html)?.[1] ?? '');
const textarea = (html: string) => unescape(/<textarea[^>]*>\n([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? '');
/** The XML after the blank line that ends an HTTP message's headers. */
const bodyOf = (message: string) => message.slice(message.indexOf('\n\n') + 2);
const bodyText = (r: Reply) => (typeof r.body === 'string' ? r.body : r.body.toString('utf8'));
// Pages link relatively (they also work under a proxy's path prefix): where a link on the page at `path` leads.
const resolved = (path: string, href: string) => {
  const u = new URL(unescape(href), `http://sandbox${path}`);
  return `${u.pathname}${u.search}${u.hash}`;
};
const hrefs = (html: string) => [...html.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1]);
const linksTo = (html: string, path: string, target: string) => hrefs(html).some((h) => resolved(path, h) === target);

function pageInput(path: string, op: string | undefined, remoteAddress: string | undefined, namespaces: Namespaces = NS_DISTINCT) {
  return { path, shapes: shapesAtPath(path), namespaces, baseUrl: 'http://127.0.0.1:8080', query: new URLSearchParams(op ? { op } : {}), remoteAddress };
}

/** A POST whose Origin header the test sets (fetch may add or refuse its own). */
function postWithOrigin(url: string, body: string, origin: string): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            headers: new Headers(),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox service pages', () => {
  describe('isLoopback (the connection address decides who gets the SOAP test form)', () => {
    for (const a of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:127.9.8.7', '::ffff:7f00:1']) {
      it(`${a} is the local machine`, () => assert.equal(isLoopback(a), true));
    }
    for (const a of [
      '10.1.2.3',
      '::ffff:192.168.1.5',
      '192.168.1.5',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '::2',
      'fe80::1',
      '::ffff:10.0.0.1',
      'localhost',
      '127.0.0.1.example',
      '',
      undefined,
    ]) {
      it(`${String(a) || '(empty)'} is not`, () => assert.equal(isLoopback(a), false));
    }
  });

  describe('sameOrigin (a page of another site may not drive the SOAP test form)', () => {
    it('accepts a post from the page itself, and one without Origin (a non-browser client)', () => {
      assert.equal(sameOrigin('http://127.0.0.1:8080', '127.0.0.1:8080'), true);
      assert.equal(sameOrigin('http://LOCALHOST:8080', 'localhost:8080'), true);
      assert.equal(sameOrigin(undefined, '127.0.0.1:8080'), true);
    });
    it('refuses another origin, the opaque origin and a missing Host', () => {
      assert.equal(sameOrigin('http://evil.example', '127.0.0.1:8080'), false);
      assert.equal(sameOrigin('http://127.0.0.1:9999', '127.0.0.1:8080'), false);
      assert.equal(sameOrigin('https://127.0.0.1:8080', '127.0.0.1:8080'), false);
      assert.equal(sameOrigin('null', '127.0.0.1:8080'), false);
      assert.equal(sameOrigin('http://127.0.0.1:8080', undefined), false);
    });
  });

  describe('rendered for a caller elsewhere (remote address injected)', () => {
    for (const remote of ['10.1.2.3', '::ffff:192.168.1.5']) {
      it(`GetRateQuote 1.0.3 from ${remote}: no form, and the page says why`, () => {
        const r = servicePage(pageInput(RATE, 'GetRateQuote', remote));
        const html = bodyText(r);
        assert.equal(r.status, 200);
        assert.doesNotMatch(html, /<form|<textarea/);
        assert.match(html, /id="no-test-form"/);
        assert.match(html, /only available for requests from the local machine/);
        assert.ok(html.includes(`requested from ${remote}`));
        // The samples are still there to copy into a SOAP client.
        assert.match(html, /<h2 id="soap11">SOAP 1\.1<\/h2>/);
      });
    }
    it('the same page from 127.0.0.1 and from ::1 has the SOAP form', () => {
      for (const remote of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const html = bodyText(servicePage(pageInput(RATE, 'GetRateQuote', remote)));
        const action = /<form class="test panel" method="post" action="([^"]+)">/.exec(html)?.[1];
        assert.equal(action && resolved(RATE, action), '/1.0.3/RateQuoteService.asmx?op=GetRateQuote#result', remote);
        assert.match(html, /<textarea id="envelope" name="envelope"/);
        assert.doesNotMatch(html, /no-test-form/);
      }
    });
    it('an operation with HTTP bindings keeps its HTTP POST form for any caller', () => {
      const html = bodyText(servicePage(pageInput(BOL, 'GetHazmatDescription', '10.1.2.3')));
      const action = /<form class="test panel" method="post" action="([^"]+)">/.exec(html)?.[1];
      assert.equal(action && resolved(BOL, action), '/sandbox/BillOfLadingService.asmx/GetHazmatDescription');
      assert.doesNotMatch(html, /no-test-form/);
    });
    it('the test form POST route refuses a caller elsewhere without reading the body', async () => {
      let read = false;
      let discarded = false;
      const ctx = { namespaces: NS_DISTINCT, log: () => undefined } as unknown as SandboxContext;
      const reply = await testFormPost(
        {
          path: RATE,
          shapes: shapesAtPath(RATE),
          query: new URLSearchParams({ op: 'GetRateQuote' }),
          remoteAddress: '10.1.2.3',
          originHeader: undefined,
          hostHeader: '10.0.0.1:8080',
          readBody: async () => {
            read = true;
            return { text: 'soap=1.1&envelope=x' };
          },
          discardBody: () => {
            discarded = true;
          },
        },
        ctx,
      );
      assert.equal(reply.status, 403);
      assert.equal(read, false);
      assert.equal(discarded, true);
      assert.match(bodyText(reply), /accepts requests from the local machine only, and this one came from 10\.1\.2\.3/);
    });
  });

  describe('escaping', () => {
    it('escapes configured namespaces and the values it echoes', () => {
      const ns: Namespaces = { service: 'http://ns.test/s?a=1&b="<x>"', data: 'http://ns.test/d', pickup: 'http://ns.test/p' };
      const html = bodyText(servicePage(pageInput(BOL, 'GetHazmatDescription', '127.0.0.1', ns)));
      assert.ok(
        html.includes('xmlns=&quot;http://ns.test/s?a=1&amp;amp;b=&amp;quot;&amp;lt;x&amp;gt;&amp;quot;&quot;'),
        'XML-escaped in the xmlns, then HTML-escaped',
      );
      assert.ok(html.includes('SOAPAction: &quot;http://ns.test/s?a=1&amp;b=&quot;&lt;x&gt;&quot;/GetHazmatDescription&quot;'), 'HTML-escaped in the header');
      assert.ok(!html.includes('<x>'));
      const notFound = bodyText(servicePage(pageInput(BOL, '<script>alert(1)</script>', '127.0.0.1')));
      assert.ok(!notFound.includes('<script'));
      assert.ok(notFound.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    });
  });

  describe('over HTTP', () => {
    let sb: SandboxHandle;
    before(async () => {
      sb = await startSandbox({ namespaces: NS_DISTINCT, now: new Clock().now });
    });
    after(async () => {
      await sb.close();
    });

    const page = (path: string, query = '') => http(`${sb.url}${path}${query}`);
    const postForm = (path: string, fields: Record<string, string>) =>
      http(`${sb.url}${path}`, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });

    it("answers HTML under a strict Content-Security-Policy whose nonce is the stylesheet's, with no script", async () => {
      const r = await page(BOL, '?op=GetHazmatDescription');
      assert.equal(r.status, 200);
      assert.equal(r.contentType, 'text/html; charset=utf-8');
      const csp = r.headers.get('content-security-policy') ?? '';
      const nonce = /style-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      assert.match(csp, /^default-src 'none'; /);
      assert.match(csp, /form-action 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|script-src/);
      assert.ok(r.text.includes(`<style nonce="${nonce}">`));
      assert.doesNotMatch(r.text, /<script|\sstyle="|\son[a-z]+="/i);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('cache-control'), 'no-store');
      assert.equal(r.headers.get('referrer-policy'), 'same-origin', "no-referrer would make the page's own form posts say Origin: null");
      const again = await page(BOL, '?op=GetHazmatDescription');
      assert.notEqual(again.headers.get('content-security-policy'), csp, 'a fresh nonce per page');
    });

    for (const path of PATHS) {
      it(`service page ${path}: name, version, every operation with its description and page, the WSDL`, async () => {
        const shapes = shapesAtPath(path);
        const r = await page(path);
        assert.equal(r.status, 200);
        assert.ok(r.text.includes(`<h1>${shapes[0].service}<span class="version">version ${shapes[0].version}</span></h1>`));
        assert.ok(linksTo(r.text, path, `${path}?WSDL`));
        for (const op of shapes) {
          const link = new RegExp(`href="([^"]*)">${op.operation}</a>`).exec(r.text)?.[1];
          assert.equal(link && resolved(path, link), `${path}?op=${op.operation}`, op.operation);
          assert.ok(r.text.includes(`<p>${op.description.replace(/'/g, '&#39;')}</p>`), op.description);
        }
        const listed = [...r.text.matchAll(/<a class="name" href="[^"]*">([^<]+)<\/a>/g)].map((m) => m[1]);
        assert.deepEqual(
          listed,
          shapes.map((s) => s.operation),
        );
      });
    }

    for (const path of PATHS) {
      for (const op of shapesAtPath(path)) {
        it(`operation page ${op.operation} ${op.version}: parameters, and samples that parse, for each binding`, async () => {
          const r = await page(path, `?op=${op.operation}`);
          assert.equal(r.status, 200);
          for (const p of op.parameters) assert.ok(r.text.includes(`<td><code>${p.name}</code>`), p.name);
          const samples = pres(r.text);
          // Request and reply per binding, in the catalog's binding order.
          assert.equal(samples.length, op.bindings.length * 2);
          const soap11 = samples[0];
          assert.ok(soap11.startsWith(`POST ${path} HTTP/1.1\n`));
          assert.ok(soap11.includes(`SOAPAction: "${soapAction(NS_DISTINCT.service, op.operation)}"`));
          const wrapper = parseXml(bodyOf(soap11)).children[0].children[0];
          assert.equal(wrapper.local, op.operation);
          assert.equal(wrapper.ns, NS_DISTINCT.service);
          assert.deepEqual(
            wrapper.children.map((c) => c.local),
            parametersRecord(op).fields.map((f) => f.name),
          );
          assert.equal(wrapper.children[0].text, 'string', 'placeholders where values go');
          const reply = parseXml(bodyOf(samples[1])).children[0].children[0];
          assert.equal(reply.local, `${op.operation}Response`);
          assert.equal(reply.children[0].local, `${op.operation}Result`);
          const soap12 = samples[2];
          assert.match(soap12, /Content-Type: application\/soap\+xml; charset=utf-8/);
          assert.doesNotMatch(soap12, /SOAPAction/);
          assert.equal(parseXml(bodyOf(soap12)).ns, 'http://www.w3.org/2003/05/soap-envelope');
          if (hasHttp(op)) {
            const query = op.parameters.map((p) => `${p.name}=${p.type === 'record' ? 'xml' : p.type}`).join('&');
            assert.ok(samples[4].startsWith(`GET ${path}/${op.operation}?${query} HTTP/1.1\n`), samples[4]);
            assert.equal(parseXml(bodyOf(samples[5])).local, op.httpReplyRoot);
            assert.ok(samples[6].startsWith(`POST ${path}/${op.operation} HTTP/1.1\n`));
            assert.ok(samples[6].endsWith(`\n\n${query}`));
          } else {
            assert.doesNotMatch(r.text, /id="http-get"|id="http-post"/);
          }
        });
      }
    }

    it('expands records and enumerations on the page: GetRateQuote 1.0.3', async () => {
      const r = await page(RATE, '?op=GetRateQuote');
      assert.match(r.text, /<h3 id="record-RateQuoteRequest103"|<h3 id="record-[A-Za-z0-9]+"><code>/);
      assert.match(r.text, /href="#record-/);
      assert.match(r.text, /AlaskaHawaii · Domestic · International/);
      const sample = pres(r.text)[0];
      assert.match(sample, /<QuoteType>AlaskaHawaii or Domestic or International<\/QuoteType>/);
      assert.match(sample, /<Weight>float<\/Weight>/);
    });

    describe('HTTP POST test form (operations with HTTP bindings)', () => {
      for (const path of PATHS) {
        for (const op of shapesAtPath(path).filter(hasHttp)) {
          it(`${op.operation}: its fields are the parameters, and the prefilled form is answered by the HTTP POST binding`, async () => {
            const html = (await page(path, `?op=${op.operation}`)).text;
            const form = /<form class="test panel" method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
            assert.ok(form, 'a form');
            assert.equal(resolved(path, form[1]), `${path}/${op.operation}`);
            const inputs = [...form[2].matchAll(/<input type="text" id="[^"]+" name="([^"]+)"(?: value="([^"]*)")?/g)];
            assert.deepEqual(
              inputs.map((m) => m[1]),
              op.parameters.map((p) => p.name),
            );
            const fields = Object.fromEntries(inputs.map((m) => [m[1], unescape(m[2] ?? '')]));
            fields.APIKey = KEY;
            const r = await postForm(resolved(path, form[1]), fields);
            assert.equal(r.status, 200, r.text);
            assert.equal(r.contentType, 'text/xml; charset=utf-8');
            assert.equal(parseXml(r.text).local, op.httpReplyRoot);
          });
        }
      }

      it('GetHazmatDescription for UN 1203 answers GetHazmatDescriptionReply with Gasoline', async () => {
        const r = await postForm(`${BOL}/GetHazmatDescription`, { APIKey: KEY, UNNANumber: '1203' });
        assert.equal(r.status, 200);
        const root = parseXml(r.text);
        assert.equal(root.local, 'GetHazmatDescriptionReply');
        assert.match(r.text, /Gasoline/);
      });

      it('does not silently accept wrong-case parameter names (docs/wire.md#transport-rule-9)', async () => {
        const lower = await postForm(`${BOL}/GetHazmatDescription`, { APIKey: KEY, unnanumber: '1203' });
        assert.equal(lower.status, 500);
        assert.match(lower.text, /Unknown parameter: unnanumber\. Parameter names are case-sensitive: did you mean UNNANumber\?/);
        const key = await postForm(`${BOL}/GetHazmatDescription`, { apikey: KEY, UNNANumber: '1203' });
        assert.equal(key.status, 500);
        assert.match(key.text, /Unknown parameter: apikey\./);
      });
    });

    describe('SOAP test form (SOAP-only operations, from this machine)', () => {
      const soapOnly = PATHS.flatMap((path) =>
        shapesAtPath(path)
          .filter((op) => !hasHttp(op))
          .map((op) => [path, op] as const),
      );

      for (const [path, op] of soapOnly) {
        for (const version of ['1.1', '1.2'] as const) {
          it(`${op.operation} ${op.version}: the prefilled SOAP ${version} envelope goes through and the reply is shown`, async () => {
            const html = (await page(path, `?op=${op.operation}${version === '1.2' ? '&soap=1.2' : ''}`)).text;
            const envelope = textarea(html);
            assert.ok(envelope.includes(version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope'));
            assert.match(html, new RegExp(`<input type="radio" name="soap" value="${version.replace('.', '\\.')}" checked>`));
            const r = await postForm(`${path}?op=${op.operation}`, { soap: version, envelope });
            assert.equal(r.status, 200);
            const reply = preOf(r.text, 'reply');
            const request = preOf(r.text, 'request');
            assert.match(r.text, /<h3 id="result-title">Reply <span class="status ok">200 OK<\/span><\/h3>/, reply);
            assert.match(
              reply,
              new RegExp(`^HTTP/1\\.1 200 OK\\nContent-Type: ${version === '1.1' ? 'text/xml' : 'application/soap\\+xml'}; charset=utf-8\\n`),
            );
            assert.ok(reply.includes(`<${op.operation}Response`));
            assert.ok(request.startsWith(`POST ${path} HTTP/1.1\n`));
            assert.equal(request.includes(`SOAPAction: "${soapAction(NS_DISTINCT.service, op.operation)}"`), version === '1.1');
            assert.ok(request.endsWith(`\n\n${envelope}`), 'the exact envelope');
            assert.equal(textarea(r.text), envelope, 'the form keeps what was sent');
          });
        }
      }

      it('shows a fault as the SOAP endpoint gives it (a SOAP 1.1 envelope sent as SOAP 1.2)', async () => {
        const envelope = textarea((await page(RATE, '?op=GetRateQuote')).text);
        const r = await postForm(`${RATE}?op=GetRateQuote`, { soap: '1.2', envelope });
        assert.match(r.text, /<span class="status bad">500 Internal Server Error<\/span>/);
        assert.match(preOf(r.text, 'reply'), /soap:VersionMismatch/);
      });

      it('echoes what was sent escaped, never as markup', async () => {
        const envelope = '<x><script>alert(1)</script></x>';
        const r = await postForm(`${RATE}?op=GetRateQuote`, { soap: '1.1', envelope });
        assert.equal(r.status, 200);
        assert.ok(!r.text.includes('<script'));
        assert.ok(r.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      });

      it('refuses a post from a page of another site (Origin), and accepts one from its own page', async () => {
        const body = new URLSearchParams({ soap: '1.1', envelope: '<x/>' }).toString();
        const evil = await postWithOrigin(`${sb.url}${RATE}?op=GetRateQuote`, body, 'http://evil.example');
        assert.equal(evil.status, 403);
        assert.match(evil.text, /accepts posts from its own page only/);
        const own = await postWithOrigin(`${sb.url}${RATE}?op=GetRateQuote`, body, sb.url);
        assert.equal(own.status, 200);
      });

      it('refuses incomplete forms, unknown operations and operations that have the HTTP POST form', async () => {
        assert.equal((await postForm(`${RATE}?op=GetRateQuote`, { envelope: '<x/>' })).status, 400);
        assert.equal((await postForm(`${RATE}?op=GetRateQuote`, { soap: '2.0', envelope: '<x/>' })).status, 400);
        assert.equal((await postForm(`${RATE}?op=Nope`, { soap: '1.1', envelope: '<x/>' })).status, 404);
        const http = await postForm(`${BOL}?op=GetHazmatDescription`, { soap: '1.1', envelope: '<x/>' });
        assert.equal(http.status, 400);
        assert.match(http.text, /offers HTTP bindings/);
      });

      it('leaves a form POST to the service path without ?op= to the SOAP endpoint (415)', async () => {
        const r = await postForm(RATE, { soap: '1.1', envelope: '<x/>' });
        assert.equal(r.status, 415);
      });
    });

    describe('404 page', () => {
      it('answers ?op=Nope with a 404 HTML page that lists the operations', async () => {
        const r = await page(RATE, '?op=Nope');
        assert.equal(r.status, 404);
        assert.equal(r.contentType, 'text/html; charset=utf-8');
        assert.ok(r.headers.get('content-security-policy'));
        assert.match(r.text, /<h1>Operation not found<\/h1>/);
        assert.match(r.text, /no operation named <code>Nope<\/code>/);
        assert.ok(linksTo(r.text, RATE, '/1.0.3/RateQuoteService.asmx?op=GetRateQuote'));
      });
      it('does not accept a wrong-case operation name, and names the right one', async () => {
        const r = await page(BOL, '?op=gethazmatdescription');
        assert.equal(r.status, 404);
        const link = /did you mean <a href="([^"]+)">GetHazmatDescription<\/a>/.exec(r.text)?.[1];
        assert.equal(link && resolved(BOL, link), '/sandbox/BillOfLadingService.asmx?op=GetHazmatDescription');
      });
      it('an operation of another path is not found here', async () => {
        assert.equal((await page(RATE, '?op=GetHazmatDescription')).status, 404);
      });
    });

    it('answers HEAD for a page with its status and no body', async () => {
      const r = await http(`${sb.url}${RATE}?op=GetRateQuote`, { method: 'HEAD' });
      assert.equal(r.status, 200);
      assert.equal(r.text, '');
    });

    it("works with the reference carrier's namespace arrangement (every role in one URI)", async () => {
      const same = await startSandbox({ namespaces: NS_SAME, now: new Clock().now });
      try {
        const html = (await http(`${same.url}${RATE}?op=GetRateQuote`)).text;
        const r = await http(`${same.url}${RATE}?op=GetRateQuote`, {
          method: 'POST',
          body: new URLSearchParams({ soap: '1.1', envelope: textarea(html) }).toString(),
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        });
        assert.match(r.text, /<span class="status ok">200 OK<\/span>/);
        assert.match(pres(html)[0], /SOAPAction: "http:\/\/ltl\.carrier\.test\/GetRateQuote"/);
      } finally {
        await same.close();
      }
    });
  });

  it('operationPageUrl: the address the extension opens', () => {
    const op = shapesAtPath(RATE)[0];
    assert.equal(operationPageUrl('http://127.0.0.1:4000/', op), 'http://127.0.0.1:4000/1.0.3/RateQuoteService.asmx?op=GetRateQuote');
  });
});
