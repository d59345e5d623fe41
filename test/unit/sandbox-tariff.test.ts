/**
 * Property tests of the carrier model's tariff, over seeded random shipments: never cheaper for
 * more weight (every weight break, with the deficit-weight rule), adding freight never lowers a
 * price, accessorials charged once whatever their order, repetition or spelling, service-level
 * surcharges on the discounted freight only, and every amount in the money format.
 */
import { strict as assert } from 'node:assert';
import { formatMoney, FREIGHT_CLASSES, price, surchargeCents, WEIGHT_BREAKS, RULES, SERVICE_LEVELS } from '../../src/sandbox/carrier';
import { seededRandom } from '../../src/sandbox/history/random';

const ACCESSORIALS = [
  'OriginLiftgate',
  'DestinationLiftgate',
  'InsidePickup',
  'InsideDelivery',
  'ResidentialDelivery',
  'DeliveryNotification',
  'Freezable',
  'KeepFromFreezing',
  'FZ',
  'Hazmat',
  'SortAndSegregate',
  'COD',
  'OverDimension',
  'DockPickup',
  'CubicFeet',
];
const MONEY = /^-?\$\d{1,3}(,\d{3})*\.\d\d$/;

describe('sandbox tariff: properties', () => {
  const random = seededRandom(19);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  it('is never cheaper for more weight: each class, across every weight break (999 lb, 1,000 lb, …)', () => {
    for (const cls of FREIGHT_CLASSES) {
      for (const miles of [60, 700, 2_400]) {
        let last = 0;
        for (let w = 50; w <= 20_000; w += w < 2_500 ? 7 : 61) {
          const net = price({ items: [{ freightClass: cls, weight: w }], miles }).netCents;
          assert.ok(net >= last, `class ${cls}, ${miles} mi: ${w} lb costs ${formatMoney(net)}, less than ${formatMoney(last)} for less`);
          last = net;
        }
        for (const b of WEIGHT_BREAKS.slice(1)) {
          const below = price({ items: [{ freightClass: cls, weight: b.min - 1 }], miles });
          const at = price({ items: [{ freightClass: cls, weight: b.min }], miles });
          assert.ok(at.netCents >= below.netCents, `class ${cls}: ${b.min} lb`);
        }
      }
    }
  });

  it('rates at the next break when that is cheaper, with the missing pounds as a deficit-weight line', () => {
    const p = price({ items: [{ freightClass: '85.0', weight: 999 }], miles: 700 });
    assert.equal(p.deficitWeight, 1);
    assert.equal(p.ratedWeight, 1_000);
    const deficit = p.lines.find((l) => l.Title.startsWith('Deficit Weight'))!;
    assert.equal(deficit.weight, 1);
    assert.equal(
      p.lines.filter((l) => l.Type === '').reduce((s, l) => s + l.amountCents, 0),
      p.grossCents,
      'the item and deficit lines add up to GROSS',
    );
  });

  it('never lowers a price when freight is added or made heavier, whatever the classes (random multi-item shipments)', () => {
    for (let n = 0; n < 400; n++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
        freightClass: pick(FREIGHT_CLASSES),
        weight: 20 + Math.round(random() * 4_000),
      }));
      const miles = 50 + random() * 2_800;
      const base = price({ items, miles }).netCents;
      const heavier = items.map((i, k) => (k === 0 ? { ...i, weight: i.weight + 1 + Math.round(random() * 900) } : i));
      assert.ok(price({ items: heavier, miles }).netCents >= base, JSON.stringify({ items, miles }));
      const more = [...items, { freightClass: pick(FREIGHT_CLASSES), weight: 10 + Math.round(random() * 800) }];
      assert.ok(price({ items: more, miles }).netCents >= base, JSON.stringify({ more, miles }));
    }
  });

  it('charges accessorials once, whatever their order, repetition or spelling', () => {
    for (let n = 0; n < 300; n++) {
      const set = ACCESSORIALS.filter(() => random() < 0.3);
      const shuffled = [...set].sort(() => random() - 0.5);
      const repeated = [...shuffled, ...shuffled.filter(() => random() < 0.5)];
      const input = { items: [{ freightClass: pick(FREIGHT_CLASSES), weight: 100 + Math.round(random() * 5_000) }], miles: 50 + random() * 2_000 };
      const a = price({ ...input, accessorials: set });
      const b = price({ ...input, accessorials: repeated });
      assert.deepEqual(b.lines, a.lines, `${set.join()} vs ${repeated.join()}`);
    }
    const freeze = (names: string[]) => price({ items: [{ freightClass: '70', weight: 900 }], miles: 500, accessorials: names });
    const once = freeze(['FreezeProtection']);
    for (const names of [['Freezable'], ['KeepFromFreezing', 'FZ'], ['Freezable', 'KeepFromFreezing', 'FZ', 'FreezeProtection']]) {
      assert.equal(freeze(names).netCents, once.netCents, names.join());
      assert.equal(freeze(names).lines.filter((l) => l.Title === 'Freeze Protection').length, 1);
    }
    const hazmat = price({ items: [{ freightClass: '55', weight: 900 }], miles: 500, accessorials: ['Hazmat'], hazmat: true });
    assert.equal(hazmat.lines.filter((l) => l.Title === 'Hazardous Materials').length, 1, 'a hazmat item and the Hazmat accessorial are one charge');
  });

  it('puts service-level surcharges on the discounted freight charge, not on COD fees, excess liability or fuel', () => {
    const plain = price({ items: [{ freightClass: '70', weight: 1_200 }], miles: 800 });
    const extras = price({
      items: [{ freightClass: '70', weight: 1_200 }],
      miles: 800,
      codAmount: 5_000,
      declaredValue: 50_000,
      accessorials: ['InsideDelivery'],
    });
    assert.equal(extras.discountedCents, plain.discountedCents);
    for (const level of SERVICE_LEVELS) {
      const pct = RULES[level].surchargePercent;
      assert.equal(surchargeCents(extras, pct), surchargeCents(plain, pct), level);
      assert.equal(surchargeCents(plain, pct), Math.round((plain.discountedCents * pct) / 100), level);
    }
  });

  it('writes every amount as $1,234.56, up to the largest shipment and amounts the carrier takes', () => {
    const p = price({
      items: [{ freightClass: '500.0', weight: 20_000 }],
      miles: 3_500,
      codAmount: 50_000,
      declaredValue: 100_000,
      overDimensionPieces: 9_999,
      accessorials: ACCESSORIALS,
    });
    for (const l of p.lines) assert.match(formatMoney(l.amountCents), MONEY, l.Title);
    assert.match(formatMoney(1e20), MONEY);
  });
});
