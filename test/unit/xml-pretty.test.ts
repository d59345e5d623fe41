import * as assert from 'node:assert/strict';
import { INDENT_LIMIT, looksLikeXml, prettyLines, prettyText, tokenize } from '../../src/core/xml/pretty';

describe('XML pretty-printing (results panel, carrier inspect --show)', () => {
  it('puts one element per line and keeps text-only elements on one line', () => {
    const xml =
      '<?xml version="1.0"?><soap:Envelope xmlns:soap="urn:s"><soap:Body><Op xmlns="urn:a"><APIKey>••••</APIKey><Empty/><E></E><!-- c --></Op></soap:Body></soap:Envelope>';
    assert.equal(
      prettyText(xml),
      [
        '<?xml version="1.0"?>',
        '<soap:Envelope xmlns:soap="urn:s">',
        '  <soap:Body>',
        '    <Op xmlns="urn:a">',
        '      <APIKey>••••</APIKey>',
        '      <Empty/>',
        '      <E></E>',
        '      <!-- c -->',
        '    </Op>',
        '  </soap:Body>',
        '</soap:Envelope>',
      ].join('\n'),
    );
  });

  it('classifies prefixes, names, attributes and values for colouring', () => {
    const [line] = prettyLines('<soap:Body a:x="1">t</soap:Body>');
    assert.deepEqual(
      line.pieces.slice(0, 8).map((p) => `${p.cls}:${p.text}`),
      ['punct:<', 'prefix:soap:', 'tag:Body', 'text: ', 'prefix:a:', 'attr:x', 'punct:=', 'value:"1"'],
    );
  });

  it('never throws on malformed input and keeps every character', () => {
    for (const bad of ['<a', '<<>>', '</', '<a b="x>', 'plain text', '<!-- open', '<![CDATA[ x', "<a x=1 y='2'>& <b</a>"]) {
      const kept = tokenize(bad)
        .map((t) => t.raw)
        .join('');
      assert.equal(kept, bad, `tokens of ${JSON.stringify(bad)} cover the input`);
      assert.doesNotThrow(() => prettyText(bad));
    }
  });

  it('keeps CDATA and attribute values with ">" intact', () => {
    assert.deepEqual(
      tokenize('<a h="x>y"><![CDATA[<b>]]></a>').map((t) => t.kind),
      ['open', 'cdata', 'close'],
    );
  });

  it('tells XML from other bodies', () => {
    assert.equal(looksLikeXml('  \n<?xml?>'), true);
    assert.equal(looksLikeXml('{"a":1}'), false);
  });

  // Linear time is the bench's to measure (ratios, npm run bench); a quadratic printer would not finish within the test's timeout here.
  it('prints 200,000 levels, indenting no deeper than INDENT_LIMIT', () => {
    const levels = 200_000;
    const text = prettyText(`${'<Nest>'.repeat(levels)}x${'</Nest>'.repeat(levels)}`);
    const lines = text.split('\n');
    assert.equal(lines.length, 2 * levels - 1);
    assert.equal(lines[3], '      <Nest>');
    assert.equal(lines[levels - 1], `${'  '.repeat(INDENT_LIMIT)}<Nest>x</Nest>`);
    assert.equal(lines[lines.length - 1], '</Nest>');
    assert.ok(lines.every((l) => l.length <= 2 * INDENT_LIMIT + 20));
  });

  it('prints 200,000 siblings', () => {
    const lines = prettyLines(`<r>${'<a k="v">1</a>'.repeat(200_000)}</r>`);
    assert.equal(lines.length, 200_002);
    assert.deepEqual(
      lines.slice(1, 2).map((l) => l.depth),
      [1],
    );
  });

  it('finishes on markup that never closes, and keeps every character', () => {
    for (const bad of [
      '<a '.repeat(100_000),
      '<a b="'.repeat(100_000),
      `<a${' b=c'.repeat(100_000)}`,
      '<'.repeat(200_000),
      `<a b="${'<'.repeat(100_000)}`,
      '<!--'.repeat(50_000),
      '&'.repeat(200_000),
    ]) {
      const tokens = tokenize(bad);
      assert.equal(tokens.map((t) => t.raw).join(''), bad);
      assert.doesNotThrow(() => prettyText(bad));
    }
  });

  it('keeps every character of random damaged markup', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    const bits = ['<', '>', '/', '"', "'", '=', ' ', 'a', 'b:c', '<!--', '-->', '<![CDATA[', ']]>', '<?', '?>', '<!', '&amp;', '\n'];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let n = Math.floor(rand() * 40); n > 0; n--) text += bits[Math.floor(rand() * bits.length)];
      assert.equal(
        tokenize(text)
          .map((t) => t.raw)
          .join(''),
        text,
      );
      assert.doesNotThrow(() => prettyLines(text));
    }
  });
});
