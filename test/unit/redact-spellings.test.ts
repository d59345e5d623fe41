/**
 * Redaction by value (src/core/redact.ts): random keys, some full of regex, XML, URL and JSON
 * special characters, in every spelling test/unit/key-spellings.ts writes, in the places each can
 * stand — masked in text, in UTF-8 bytes and at the end of a text cut short, with the text around
 * them untouched and XML still well-formed. Keys too short to be searched by value are masked only
 * where they stand as a key.
 */
import * as assert from 'node:assert/strict';
import { XMLValidator } from 'fast-xml-parser';
import { holdsEscape, MASK, MIN_SECRET_BY_VALUE, Redactor } from '../../src/core/redact';
import { apiKeysIn, SECRET_HEADER } from '../../src/core/recognize';
import { leaksOf, randomKey, seeded, spellingsOf, type Context } from './key-spellings';

const SEED = Number(process.env.REDACT_SEED ?? Date.now() % 1_000_000);

/** A spelling in a place where it can stand, with text on both sides that must survive. */
function inContext(context: Context): { before: string; after: string } {
  switch (context) {
    case 'xml':
      return { before: '<r><Note a="1">ref ', after: ' end</Note></r>' };
    case 'url':
      return { before: 'GET /svc?x=1&token=', after: '&y=2 HTTP/1.1' };
    case 'json':
      return { before: '{"a":1,"note":"see ', after: ' now"}' };
    default:
      return { before: 'X-Partner-Ref: v1 ', after: ' (sent)' };
  }
}

describe(`redaction by value: every spelling of a random key (seed ${SEED}, REDACT_SEED to repeat)`, () => {
  const next = seeded(SEED);
  for (let run = 0; run < 24; run++) {
    const key = randomKey(next, { specials: run % 2 === 1, latin1: run % 6 === 5 });
    it(`run ${run}: ${JSON.stringify(key)} is masked in every spelling, and nothing else is`, () => {
      const spellings = spellingsOf(key, next);
      const r = new Redactor([key], { inPlace: true });
      for (const s of spellings) {
        const { before, after } = inContext(s.context);
        const text = `${before}${s.text}${after}`;
        const out = r.text(text);
        assert.deepEqual(leaksOf(out, key, spellings), [], `${s.name}: ${JSON.stringify(text)} → ${JSON.stringify(out)}`);
        assert.ok(out.startsWith(before) && out.endsWith(after) && out.includes(MASK), `${s.name}: only the key is masked: ${JSON.stringify(out)}`);
        if (s.context === 'xml') assert.equal(XMLValidator.validate(out), true, `${s.name}: still well-formed: ${out}`);
        const bytes = r.bytes(Buffer.from(text, 'utf8'));
        assert.deepEqual(leaksOf(bytes.toString('utf8'), key, spellings), [], `${s.name} as UTF-8 bytes`);
        assert.equal(bytes.toString('utf8'), out, `${s.name}: bytes masked as the text is`);
        // A text cut inside the spelling still gives nothing of the key away.
        const keep = Math.max(0, s.text.length - 1 - Math.floor(next() * (s.text.length / 2)));
        const cut = r.text(`${before}${s.text.slice(0, keep)}`, { cut: true });
        assert.deepEqual(leaksOf(cut, key, spellings), [], `${s.name} cut after ${keep}`);
      }
      // A value one character off is another value.
      const other = `${key.slice(0, -1)}${key.endsWith('Q') ? 'R' : 'Q'}`;
      assert.equal(r.text(`note ${other} end`), `note ${other} end`);
    });
  }

  it('a key shorter than MIN_SECRET_BY_VALUE is masked where it stands as a key, and nowhere else', () => {
    const key = 'k3y12';
    assert.ok(key.length < MIN_SECRET_BY_VALUE);
    const r = new Redactor([key], { inPlace: true });
    const text = `ZIP k3y12 <p:APIKey xsi:type="s">k3y12</p:APIKey><APIKey/> ?APIKEY=k3y12&zip=k3y12 api_key=k3y12 {"ApiKey": "k3y12", "x": "k3y12"} &lt;APIKey&gt;k3y12&lt;/APIKey&gt; %41PIKey=k3y12`;
    assert.equal(
      r.text(text),
      `ZIP k3y12 <p:APIKey xsi:type="s">${MASK}</p:APIKey><APIKey/> ?APIKEY=${MASK}&zip=k3y12 api_key=${MASK} {"ApiKey": "${MASK}", "x": "k3y12"} &lt;APIKey&gt;${MASK}&lt;/APIKey&gt; %41PIKey=${MASK}`,
    );
    // Without inPlace (the workbench's own requests and a run's output), the spellings it writes
    // are masked where one is a whole value: an element's text, a field, a quoted string.
    assert.equal(
      new Redactor([key]).text('ZIP k3y12 <Zip>k3y12</Zip> ?zip=k3y12&a=xk3y12 {"x": "k3y12"}'),
      `ZIP k3y12 <Zip>${MASK}</Zip> ?zip=${MASK}&a=xk3y12 {"x": "${MASK}"}`,
    );
  });

  it('a text without escapes is searched for the key as it is, and still finds it split by a comment, in a form with + for a space, and in UTF-8 bytes', () => {
    const key = 'Long key-0123456789';
    const r = new Redactor([key]);
    assert.equal(r.text(`<a>${key}</a><b>Long key<!-- x -->-0123456789</b>`), `<a>${MASK}</a><b>${MASK}</b>`);
    assert.equal(r.text('APIKey=Long+key-0123456789'), `APIKey=${MASK}`);
    const accented = new Redactor(['clé-0123456789']);
    assert.equal(accented.bytes(Buffer.from('<k>clé-0123456789</k>', 'utf8')).toString('utf8'), `<k>${MASK}</k>`);
  });

  it('a one- to four-character key leaves paths, versions, bindings and dates whole, in the final text of a run too', () => {
    for (const key of ['1', 'k', '2026']) {
      for (const r of [new Redactor([key]), new Redactor([key], { derived: true })]) {
        const text = `POST /1.0.3/RateQuoteService.asmx soap11 2026-11-30 "version": "1.0.3" 001-GetRateQuote.carrier.json skipped 1 passed <APIKey>${key}</APIKey> ?APIKey=${key}`;
        assert.equal(
          r.text(text),
          `POST /1.0.3/RateQuoteService.asmx soap11 2026-11-30 "version": "1.0.3" 001-GetRateQuote.carrier.json skipped 1 passed <APIKey>${MASK}</APIKey> ?APIKey=${MASK}`,
          key,
        );
      }
    }
  });

  it('finds keys where clients put them: element (comments, CDATA, references), JSON member, any key header', () => {
    const body = '<s:Envelope><s:Body><Op><APIKey>ab<!-- c -->c&#x44;<![CDATA[ef]]></APIKey></Op></s:Body></s:Envelope>';
    assert.deepEqual(apiKeysIn({ method: 'POST', url: '/x', headers: [], body }), ['abcDef']);
    assert.deepEqual(apiKeysIn({ method: 'POST', url: '/x', headers: [['Content-Type', 'application/json']], body: '{"req":{"apiKey":"J\\u0053ON-key"}}' }), [
      'JSON-key',
    ]);
    assert.deepEqual(
      apiKeysIn({
        method: 'GET',
        url: '/x?%61pikey=q%2Bkey',
        headers: [
          ['X-ApiKey', 'hdr-key'],
          ['X-Carrier-Api-Key', 'other'],
          ['Accept', 'text/xml'],
        ],
        body: '',
      }),
      ['q+key', 'hdr-key', 'other'],
    );
    for (const name of ['X-ApiKey', 'X-API-KEY', 'api_key', 'X-Auth-Token', 'Authorization', 'Cookie', 'X-Client-Secret'])
      assert.ok(SECRET_HEADER.test(name), name);
    assert.ok(!SECRET_HEADER.test('Content-Type') && !SECRET_HEADER.test('SOAPAction'));
  });

  it('finds an escape start exactly where one pattern tried at every character finds it', () => {
    // The definition holdsEscape is looked for from each `%`, `&` and backslash by: any text made
    // of escape characters, hex digits and entity names must get the same answer from both.
    const ESCAPE_START = /%[0-9A-Fa-f]|&(?:#|amp;|lt;|gt;|quot;|apos;)|\\[u"\\/bfnrt]/;
    const pieces = ['%', '&', '\\', '#', ';', 'a', 'F', 'g', '0', '9', 'amp;', 'lt;', 'gt;', 'quot;', 'apos', 'u', 'n', '"', '/', ' ', '<', 'é'];
    const random = seeded(SEED);
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let n = Math.floor(random() * 8); n > 0; n--) text += pieces[Math.floor(random() * pieces.length)];
      assert.equal(holdsEscape(text), ESCAPE_START.test(text), JSON.stringify(text));
    }
  });
  it('in JSON full of \\" and \\n, still finds a key spelled with \\u, \\\\u, &#, &amp; or % escapes', () => {
    // A report's JSON escapes every quote and newline of an XML body; a key that holds neither can
    // be spelled only with escapes that spell any character (escapeStartsFor in redact.ts).
    const key = 'bench-key-0042';
    const redactor = new Redactor([key], { derived: true });
    const spellings = ['\\u0062ench-key-0042', '\\\\u0062ench-key-0042', '&#98;ench-key-0042', '&amp;#98;ench-key-0042', '%62ench-key-0042', key];
    for (const spelled of spellings) {
      const json = JSON.stringify({ body: `<a xmlns="urn:x">\n<k>${spelled}</k>\n</a>` });
      assert.ok(!redactor.text(json).includes('ench-key-0042'), `${spelled} in ${json}`);
    }
    // A quote in the key makes \" an escape that can spell it.
    const quoted = new Redactor(['abc"defgh'], { derived: true });
    assert.ok(!quoted.text(JSON.stringify({ v: 'x abc\\u0022defgh y' })).includes('defgh'));
  });
});
