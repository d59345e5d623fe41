import * as assert from 'node:assert/strict';
import { countNodes, formatPath, joinPath, parsePath, searchTree } from '../../src/webview/views/treePath';

describe('results panel: paths into the parsed reply', () => {
  it('writes paths the way findings do', () => {
    assert.equal(formatPath(['Result', 'Shipment', 0, 'ErrorMessage']), 'Result.Shipment[0].ErrorMessage');
    assert.equal(joinPath('', '@_xmlns:soap'), '@_xmlns:soap');
    assert.equal(joinPath('a', 'with space'), 'a["with space"]');
    assert.equal(joinPath('a', 'dot.ted'), 'a["dot.ted"]');
  });

  it('reads back what it writes', () => {
    for (const segments of [['Result', 'Shipment', 12, 'Parties'], ['a', 'with space', 0, 'x"y'], ['PdfDocument']]) {
      assert.deepEqual(parsePath(formatPath(segments)), segments);
    }
  });

  it('counts nodes and stops at the cap', () => {
    assert.deepEqual(countNodes({ a: [1, 2, { b: null }], c: 'x' }, 100), { count: 7, capped: false });
    const wide = { list: Array.from({ length: 10_000 }, (_, i) => i) };
    assert.deepEqual(countNodes(wide, 500), { count: 500, capped: true });
  });

  it('finds keys and values case-insensitively, in document order, up to a limit', () => {
    const data = { Result: { Shipment: [{ Status: 'Delivered' }, { Status: 'in transit', DeliveredAt: '10:00' }] } };
    const { matches, complete } = searchTree(data, 'deliver', 10);
    assert.equal(complete, true);
    assert.deepEqual(matches.map(formatPath), ['Result.Shipment[0].Status', 'Result.Shipment[1].DeliveredAt']);
    assert.equal(searchTree(data, 'status', 1).matches.length, 1);
    assert.equal(searchTree(data, 'status', 1).complete, false);
  });
});
