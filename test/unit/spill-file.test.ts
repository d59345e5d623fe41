/**
 * The run's scratch store (src/host/spillFile.ts): text encoded straight into its blocks reads back
 * as the bytes Buffer.from makes of it (lone surrogates, pairs, empty text, text larger than a
 * block), mixed with bytes appended as they are, in memory and past the budget in a file, read in
 * any order while more is appended.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { SpillFile, type Spilled } from '../../src/host/spillFile';

const odd = fc.constantFrom('a', '"', '\n', '\u0000', '\u007f', '\u0080', 'é', '•', '\u2028', '\ud800', '\udc00', '😀', '\uffff');
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: odd }), fc.string({ unit: fc.oneof(odd, fc.string({ maxLength: 1 })), maxLength: 200 }));
/** Each appended piece: text, or bytes; now and then a large one (past a block of 256 KB). */
const piece = fc.oneof(
  { weight: 8, arbitrary: text.map((t) => ({ text: t })) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ bytes: Buffer.from(b) })) },
  { weight: 1, arbitrary: fc.tuple(odd, fc.integer({ min: 1, max: 120_000 })).map(([t, n]) => ({ text: t.repeat(n) })) },
);

function bytesOf(p: { text: string } | { bytes: Buffer }): Buffer {
  return 'text' in p ? Buffer.from(p.text, 'utf8') : p.bytes;
}

describe("the run's scratch store", function () {
  this.timeout(60_000);

  for (const memoryBytes of [0, 64 * 1024, 16 * 1024 * 1024]) {
    it(`reads back every piece as Buffer.from encodes it, appended as text or bytes, with a memory budget of ${memoryBytes} bytes`, () => {
      const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-file-test-'));
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 20 }), (pieces, readsAsWeGo) => {
          const file = new SpillFile('parts', { parent, memoryBytes });
          const kept: Spilled[] = [];
          const wanted: Buffer[] = [];
          pieces.forEach((p, i) => {
            kept.push('text' in p ? file.appendText(p.text) : file.append(p.bytes));
            wanted.push(bytesOf(p));
            // Reads while appending: often of what is not written yet, or still in memory.
            const r = readsAsWeGo[i];
            if (r !== undefined) assert.deepEqual(file.read(kept[r % kept.length]), wanted[r % kept.length], `piece ${r % kept.length}, read while appending`);
          });
          // Backwards, then forwards: each read's window replaces the last one's in the same buffer.
          for (let i = kept.length - 1; i >= 0; i--) assert.deepEqual(file.read(kept[i]), wanted[i], `piece ${i}`);
          for (let i = 0; i < kept.length; i++) assert.deepEqual(file.read(kept[i]), wanted[i], `piece ${i}, read again`);
          file.close();
          assert.deepEqual(fs.readdirSync(parent), [], 'nothing left behind');
        }),
        { numRuns: memoryBytes ? 60 : 30 },
      );
      fs.rmSync(parent, { recursive: true, force: true });
    });
  }

  it('keeps a few hundred test parts in memory without a file, and moves them all to one, readable by its owner only, past the budget', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-file-test-'));
    const part = (i: number) =>
      `    {\n      "id": "rate-quotes/${i}.carrier.json",\n      "exchange": {"body":"<APIKey>••••</APIKey> ${'x'.repeat(i % 5000)}"}\n    }`;
    const small = new SpillFile('parts', { parent });
    const keptSmall = Array.from({ length: 300 }, (_, i) => small.appendText(part(i)));
    assert.deepEqual(fs.readdirSync(parent), [], 'no scratch file for a run this small');
    keptSmall.forEach((k, i) => assert.equal(small.read(k).toString('utf8'), part(i)));
    small.close();
    const large = new SpillFile('parts', { parent, memoryBytes: 1024 * 1024 });
    const kept = Array.from({ length: 2000 }, (_, i) => large.appendText(part(i)));
    const [folder] = fs.readdirSync(parent);
    const file = path.join(parent, folder, 'parts');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'readable by its owner only');
    kept.forEach((k, i) => assert.equal(large.read(k).toString('utf8'), part(i)));
    assert.equal(
      fs.statSync(file).size,
      kept.reduce((n, k) => n + k[1], 0),
      'every byte once, none of the blocks left unfilled',
    );
    large.close();
    assert.deepEqual(fs.readdirSync(parent), [], 'the file and its folder are gone');
    assert.throws(() => large.read(kept[0]), /after the run closed it/);
    assert.throws(() => large.appendText('more'), /after the run closed it/);
    fs.rmSync(parent, { recursive: true, force: true });
  });
});
