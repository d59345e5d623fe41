/**
 * parseJson measures a plain-JSON file's depth on its parsed value (src/core/requestFile/valueShape.ts)
 * and scans the text only to locate a file that is too deep: the limit falls on the same level,
 * comments or not, and the error points at the first bracket past it.
 */
import { strict as assert } from 'node:assert';
import { MAX_JSON_DEPTH, tooDeepAt } from '../../src/core/requestFile/depth';
import { parseJson } from '../../src/core/requestFile/jsonc';
import { valueShape } from '../../src/core/requestFile/valueShape';

const nested = (levels: number, comment = '') => `${'['.repeat(levels - 1)}{${comment}"a": 1}${']'.repeat(levels - 1)}`;

describe('request files: depth from the parsed value', () => {
  it('the limit is the same level for the value walk, the text scan, plain JSON and JSONC', () => {
    for (const comment of ['', ' /* c */ ']) {
      const ok = parseJson(nested(MAX_JSON_DEPTH, comment));
      assert.equal(ok.ok, true, `${MAX_JSON_DEPTH} levels${comment ? ' with a comment' : ''} are read`);
      const deep = parseJson(nested(MAX_JSON_DEPTH + 1, comment));
      assert.equal(deep.ok, false);
      assert.match(deep.findings[0].message, /nested deeper than 128 levels/);
      assert.equal(deep.findings[0].range.start.character, tooDeepAt(nested(MAX_JSON_DEPTH + 1, comment)));
      assert.equal(deep.findings[0].range.start.character, MAX_JSON_DEPTH);
    }
    assert.equal(valueShape(JSON.parse(nested(MAX_JSON_DEPTH))).tooDeep, false);
    assert.equal(valueShape(JSON.parse(nested(MAX_JSON_DEPTH + 1))).tooDeep, true);
  });

  it('counts the keys JSON.parse kept, __proto__ included, and walks 200,000 levels without recursion', () => {
    assert.equal(valueShape(JSON.parse('{"a": {"b": [1, {"c": 2, "__proto__": 3}]}, "d": []}')).keys, 5);
    assert.equal(valueShape(JSON.parse('[{"a": 1}, {"a": 2}]')).keys, 2);
    const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    assert.equal(valueShape(JSON.parse(text), Infinity).tooDeep, false);
    assert.equal(parseJson(text).ok, false);
  });
});
