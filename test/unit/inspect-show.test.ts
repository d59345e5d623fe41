/**
 * `carrier inspect --show` shows the text as it is (issue 18, item 5): spaces at the ends of a
 * value kept and said, CDATA and mixed text in place, a cut tail marked, and --max-lines / --head
 * for large bodies with a count of what was left out.
 */
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../src/core';
import { formatExchange, prettyBody } from '../../src/inspector/show';

describe('carrier inspect --show: text as it is', () => {
  it('keeps a trailing space and says so: <ZipCode>33635 </ZipCode>', () => {
    const shown = prettyBody('<Op><ZipCode>33635 </ZipCode><City>  Tampa</City><State>FL</State></Op>', 'text/xml');
    assert.ok(shown.includes('<ZipCode>33635 </ZipCode>   ← 1 trailing space'), shown);
    assert.ok(shown.includes('<City>  Tampa</City>   ← 2 leading spaces'), shown);
    assert.ok(/<State>FL<\/State>$/m.test(shown), shown);
  });

  it('shows CDATA and mixed text in place, on the line of their element', () => {
    const shown = prettyBody('<Op><Note><![CDATA[a <b> & c ]]></Note><Mixed>one <b>two</b> three</Mixed></Op>', 'text/xml');
    assert.deepEqual(shown.split('\n'), [
      '<Op>',
      '  <Note><![CDATA[a <b> & c ]]></Note>   ← 1 trailing space',
      '  <Mixed>one <b>two</b> three</Mixed>',
      '</Op>',
    ]);
  });

  it('marks a cut tail instead of printing lone < and / lines', () => {
    const shown = prettyBody('<Op><ZipCode>33635</ZipCode></Op', 'text/xml', true);
    const lines = shown.split('\n');
    assert.equal(lines[lines.length - 1], '[… the body is cut here: the rest was not kept]', shown);
    assert.ok(!lines.some((l) => l.trim() === '<' || l.trim() === '/'), shown);
    assert.ok(
      lines.some((l) => l.trim() === '</Op'),
      shown,
    );
  });

  it('--max-lines prints the first lines of each body and counts the rest', () => {
    const body = `<Op>${'<Item>x</Item>'.repeat(1000)}</Op>`;
    const x = {
      id: '1',
      startedAt: '2026-11-25T00:00:00.000Z',
      endpoint: 'http://t/x',
      findings: [],
      documents: [],
      request: { method: 'POST', url: 'http://t/x', headers: [['Content-Type', 'text/xml']], body },
    } as unknown as Exchange;
    const all = formatExchange(x);
    const some = formatExchange(x, undefined, { maxLines: 10 });
    assert.ok(all.split('\n').length > 1000);
    assert.ok(some.split('\n').length < 30, some);
    assert.ok(some.includes('[… 992 more lines of this body not shown (--max-lines 10)]'), some);
  });
});
