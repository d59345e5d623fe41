import * as assert from 'node:assert/strict';
import { looksLikeXml, prettyLines, prettyText, tokenize } from '../../src/webview/xml/prettyXml';

describe('results panel: XML pretty-printing', () => {
  it('puts one element per line and keeps text-only elements on one line', () => {
    const xml = '<?xml version="1.0"?><soap:Envelope xmlns:soap="urn:s"><soap:Body><Op xmlns="urn:a"><APIKey>••••</APIKey><Empty/><E></E><!-- c --></Op></soap:Body></soap:Envelope>';
    assert.equal(prettyText(xml), [
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
    ].join('\n'));
  });

  it('classifies prefixes, names, attributes and values for colouring', () => {
    const [line] = prettyLines('<soap:Body a:x="1">t</soap:Body>');
    assert.deepEqual(line.pieces.slice(0, 8).map((p) => `${p.cls}:${p.text}`), ['punct:<', 'prefix:soap:', 'tag:Body', 'text: ', 'prefix:a:', 'attr:x', 'punct:=', 'value:"1"']);
  });

  it('never throws on malformed input and keeps every character', () => {
    for (const bad of ['<a', '<<>>', '</', '<a b="x>', 'plain text', '<!-- open', '<![CDATA[ x', '<a x=1 y=\'2\'>& <b</a>']) {
      const kept = tokenize(bad).map((t) => t.raw).join('');
      assert.equal(kept, bad, `tokens of ${JSON.stringify(bad)} cover the input`);
      assert.doesNotThrow(() => prettyText(bad));
    }
  });

  it('keeps CDATA and attribute values with ">" intact', () => {
    assert.deepEqual(tokenize('<a h="x>y"><![CDATA[<b>]]></a>').map((t) => t.kind), ['open', 'cdata', 'close']);
  });

  it('tells XML from other bodies', () => {
    assert.equal(looksLikeXml('  \n<?xml?>'), true);
    assert.equal(looksLikeXml('{"a":1}'), false);
  });
});
