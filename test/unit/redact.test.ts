/**
 * The API key and secret variables never reach a displayed, logged, stored or exported copy of a
 * request: envelopes (also XML-escaped), GET URLs (also percent-encoded), form bodies, curl
 * commands and error messages — for all four bindings. Each test first shows that the wire copy
 * does carry the secret, so the check could fail.
 */
import { strict as assert } from 'node:assert';
import { formatHttpRequest, prepareRequest, toCurl } from '../../src/core/envelope';
import { MASK, redactRequest, redactText, Redactor, secretSpellings } from '../../src/core/redact';
import { environmentAt } from './transport-support';

const KEY = `K&y<"'> +%/é-0123456789`;
const request = { operation: 'GetTerminalInformation', params: { ZipCode: '68507', CountryCode: 'USA', CustomerData: 'token {{token}}' } };
const environment = environmentAt('https://carrier.example.test', { variables: { token: 'T0ken/Value+123' }, secrets: ['token'] });

function leaks(text: string, secret: string): string[] {
  return secretSpellings(secret).filter((s) => text.includes(s));
}

describe('redaction: all four bindings', () => {
  for (const binding of ['soap11', 'soap12', 'get', 'post'] as const) {
    it(`${binding}: the wire copy has the key; every displayed copy has •••• instead`, () => {
      const { spec, display } = prepareRequest({ request, environment, apiKey: KEY, binding });
      const wire = `${spec.url}\n${spec.body}`;
      if (binding === 'get') assert.ok(new URL(spec.url).searchParams.get('APIKey') === KEY && spec.url.includes(encodeURIComponent('T0ken/Value+123')));
      else if (binding === 'post') assert.equal(new URLSearchParams(spec.body).get('APIKey'), KEY);
      else assert.ok(spec.body.includes('<APIKey>K&amp;y&lt;"\'&gt; +%/é-0123456789</APIKey>'), 'XML-escaped key in the envelope');
      assert.ok(leaks(wire, KEY).length > 0 && leaks(wire, 'T0ken/Value+123').length > 0);

      for (const shown of [formatHttpRequest(display), toCurl(display), JSON.stringify(display)]) {
        assert.deepEqual(leaks(shown, KEY), [], shown);
        assert.deepEqual(leaks(shown, 'T0ken/Value+123'), [], shown);
        assert.ok(shown.includes(MASK));
      }
      if (binding === 'get') assert.match(display.url, /\?APIKey=••••&ZipCode=68507/);
      if (binding === 'post') assert.match(display.body, /^APIKey=••••&ZipCode=68507&CountryCode=USA&CustomerData=token\+••••$/);
      if (binding === 'soap11' || binding === 'soap12') assert.match(display.body, /<APIKey>••••<\/APIKey>[\s\S]*<CustomerData>token ••••<\/CustomerData>/);
    });
  }
});

describe('redaction: spellings and texts', () => {
  it('knows the raw, XML-escaped, percent-encoded (either case), form-encoded and JSON spellings', () => {
    const spellings = secretSpellings('a&b c/é"');
    for (const s of ['a&b c/é"', 'a&amp;b c/é"', 'a&amp;b c/é&quot;', 'a%26b%20c%2F%C3%A9%22', 'a%26b%20c%2f%c3%a9%22', 'a%26b+c%2F%C3%A9%22', 'a&b c/é\\"'])
      assert.ok(spellings.includes(s), s);
    assert.deepEqual(
      spellings,
      [...spellings].sort((a, b) => b.length - a.length),
    );
  });

  it('redacts error messages, URLs of any spelling and nested values', () => {
    const key = 'abc DEF/123';
    assert.equal(
      redactText(`GET https://h/x?APIKey=abc%20DEF%2F123 failed; body had <APIKey>abc DEF/123</APIKey>; form APIKey=abc+DEF%2F123`, [key]),
      `GET https://h/x?APIKey=${MASK} failed; body had <APIKey>${MASK}</APIKey>; form APIKey=${MASK}`,
    );
    const r = new Redactor([key, undefined, '']);
    const value = { a: [1, 'x abc DEF/123 y'], b: { c: 'plain' } };
    const out = r.deep(value);
    assert.deepEqual(out, { a: [1, `x ${MASK} y`], b: { c: 'plain' } });
    assert.equal(out.b, value.b, 'unchanged branches are not copied');
    assert.equal(value.a[1], 'x abc DEF/123 y', 'the original is left alone');
  });

  it('a % or & that starts no escape (a discount of 68%, a bare & in text) leaves every spelling found', () => {
    const key = 'bench-key-0042';
    const r = new Redactor([key]);
    // Literal only: the text has a % and an & but no escape.
    assert.equal(
      r.text(`<CustomerDiscounts>68%</CustomerDiscounts> R&D <APIKey>${key}</APIKey>`),
      `<CustomerDiscounts>68%</CustomerDiscounts> R&D <APIKey>${MASK}</APIKey>`,
    );
    // Escaped spellings beside a bare %: each escape kind still sends the text through the spelling pattern.
    for (const spelled of [
      'bench%2Dkey-0042',
      'bench&#45;key-0042',
      'bench&#x2d;key-0042',
      'bench\\u002dkey-0042',
      'bench%26%2345%3Bkey-0042',
      'bench&amp;#45;key-0042',
    ]) {
      assert.equal(r.text(`68% off; key=${spelled}; done`), `68% off; key=${MASK}; done`, spelled);
      assert.ok(r.finds(`68% ${spelled}`), spelled);
    }
    assert.ok(!r.finds('68% off, R&D, \\q'));
  });

  it('redacts a whole request: URL, header values and body', () => {
    const spec = { method: 'POST' as const, url: 'https://h/p?k=s3cret-value', headers: [['X-Echo', 'Bearer s3cret-value']] as const, body: 's3cret-value' };
    assert.deepEqual(redactRequest(spec, ['s3cret-value']), {
      method: 'POST',
      url: `https://h/p?k=${MASK}`,
      headers: [['X-Echo', `Bearer ${MASK}`]],
      body: MASK,
    });
  });

  it('with nothing secret, changes nothing', () => {
    const r = new Redactor([]);
    assert.ok(r.empty);
    const spec = { method: 'GET' as const, url: 'https://h/', headers: [], body: '' };
    assert.equal(r.request(spec), spec);
  });
});
