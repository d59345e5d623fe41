/**
 * Every operation shape at its path and version, over every binding it offers, with requests in
 * every envelope style real clients send — once with three distinct namespaces and once with all
 * roles in one URI (the reference carrier's arrangement).
 */
import { strict as assert } from 'node:assert';
import { findShape, operations } from '../../src/core/catalog';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { actionOf, Clock, envelope, http, NS_DISTINCT, NS_SAME, soapHeaders, soapResult, STYLES, xml, type ActionStyle } from './sandbox-kit';
import { CASES } from './sandbox-requests';

const ACTIONS: readonly ActionStyle[] = ['quoted', 'unquoted', 'missing'];
const CONTENT_TYPES_11 = ['text/xml; charset=utf-8', 'text/xml', 'text/xml; charset=UTF-8'];

for (const [label, ns] of [
  ['distinct namespaces', NS_DISTINCT],
  ['one namespace for every role', NS_SAME],
] as const) {
  describe(`sandbox bindings (${label})`, () => {
    let sb: SandboxHandle;
    before(async () => {
      sb = await startSandbox({ namespaces: ns, now: new Clock().now });
    });
    after(() => sb.close());

    it('has a case for every operation shape of the catalog', () => {
      for (const c of CASES) assert.ok(findShape(c.operation, c.version), `${c.operation} ${c.version}`);
      assert.equal(CASES.length, operations.length);
    });

    for (const c of CASES) {
      const shape = findShape(c.operation, c.version)!;
      for (const version of ['1.1', '1.2'] as const) {
        it(`${c.operation} ${c.version} over SOAP ${version}, in every envelope style`, async () => {
          for (const [i, style] of STYLES.entries()) {
            const action = ACTIONS[i % ACTIONS.length]!;
            const contentType = version === '1.1' ? CONTENT_TYPES_11[i % CONTENT_TYPES_11.length] : undefined;
            const r = await http(sb.url + c.path, {
              method: 'POST',
              body: envelope(version, c.wrapper(), ns, style),
              headers: soapHeaders(version, actionOf(ns, c.operation), action, contentType),
            });
            const where = `${style}, action ${action}`;
            assert.equal(r.status, 200, `${where}: ${r.text.slice(0, 600)}`);
            assert.equal(r.contentType, version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8', where);
            // The reference carrier's reply shape: soap: prefix on Envelope and Body, default xmlns on the Response.
            assert.match(r.text, new RegExp(`<soap:Body><${c.operation}Response xmlns="${ns.service.replace(/[.]/g, '\\.')}">`), where);
            await c.check(soapResult(r.text, c.operation, version));
          }
        });
      }
      for (const binding of ['get', 'post'] as const) {
        if (!shape.bindings.includes(binding)) continue;
        it(`${c.operation} ${c.version} over HTTP ${binding.toUpperCase()}`, async () => {
          const form = new URLSearchParams(c.form!());
          const url = `${sb.url}${c.path}/${c.operation}`;
          const r =
            binding === 'get'
              ? await http(`${url}?${form}`)
              : await http(url, { method: 'POST', body: form.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.contentType, 'text/xml; charset=utf-8');
          const root = xml(r.text);
          assert.equal(root.local, shape.httpReplyRoot);
          assert.equal(root.ns, ns.service);
          await c.check(root);
        });
      }
      if (!shape.bindings.includes('get')) {
        it(`${c.operation} ${c.version} has no HTTP GET binding`, async () => {
          const r = await http(`${sb.url}${c.path}/${c.operation}?APIKey=x`);
          assert.equal(r.status, 500);
          assert.match(r.contentType, /^text\/plain/);
          assert.match(r.text, /Request format is unrecognized for URL unexpectedly ending in '\/\w+'/);
        });
      }
    }
  });
}
