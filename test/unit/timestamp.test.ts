/**
 * An Exchange's startedAt (src/core/timestamp.ts) is formatted once a second with the
 * milliseconds appended: it must read exactly as Date.prototype.toISOString would, at every
 * millisecond of a second, across second, day and year boundaries, before 1970 and after 9999.
 */
import { strict as assert } from 'node:assert';
import { timestamp } from '../../src/core/timestamp';
import { seeded } from './key-spellings';

describe('timestamp (an Exchange’s startedAt)', () => {
  it('is toISOString of the same instant, millisecond by millisecond through whole seconds', () => {
    const base = Date.UTC(2026, 10, 27, 23, 59, 58);
    for (let ms = base - 1500; ms < base + 2500; ms++) assert.equal(timestamp(ms), new Date(ms).toISOString(), `at ${ms}`);
  });

  it('is toISOString at year ends, before 1970 and beyond year 9999', () => {
    const instants = [
      0,
      -1,
      -999,
      -1000,
      -1001,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1, 0, 0, 0, 7),
      -62198755200000,
      8.64e15,
      -8.64e15,
    ];
    for (const ms of instants) assert.equal(timestamp(ms), new Date(ms).toISOString(), `at ${ms}`);
  });

  it('is toISOString of seeded instants in any order (the second it keeps is replaced, not trusted)', () => {
    const random = seeded(23);
    for (let i = 0; i < 20000; i++) {
      const ms = Math.floor((random() - 0.3) * 4e12);
      assert.equal(timestamp(ms), new Date(ms).toISOString(), `at ${ms}`);
    }
  });

  it('is now when given nothing', () => {
    const before = Date.now();
    const stamp = Date.parse(timestamp());
    assert.ok(stamp >= before && stamp <= Date.now());
  });
});
