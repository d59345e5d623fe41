/**
 * GetRateQuote 1.0.0, 1.0.1 and 1.0.3: deterministic pricing, the charge-line and service-level
 * layout of docs/carrier-facts.md#charges and docs/carrier-facts.md#service-levels, each version's
 * own reply shape, the reference carrier's error texts (docs/carrier-facts.md#errors), Class
 * normalisation, and the strict and lenient treatment of missing fields
 * (docs/carrier-facts.md#leniency).
 */
import { strict as assert } from 'node:assert';
import type { XmlElement } from '../../src/core/xml/dom';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { call, callFault, child, children, Clock, el, KEY, messagesOf, NS_DISTINCT, textAt, withChild, type Node } from './sandbox-kit';
import { rate103 } from './sandbox-requests';

const P103 = '/1.0.3/RateQuoteService.asmx';
const P101 = '/1.0.1/RateQuoteService.asmx';
const P100 = '/1.0.0/RateQuoteService.asmx';

const quote = (request: Node) => el('GetRateQuote', [el('APIKey', KEY), request]);
const item = (cls: string, weight = '1500') => el('Item', [el('Class', cls), el('Weight', weight)]);
const money = (s: string) => Math.round(Number(s.replace(/[$,]/g, '')) * 100);

function charges(result: XmlElement): Array<{ type: string; title: string; amount: string }> {
  return children(at(result, 'Charges'), 'Charge').map((c) => ({ type: textAt(c, 'Type'), title: textAt(c, 'Title'), amount: textAt(c, 'Amount') }));
}
function at(result: XmlElement, name: string): XmlElement | undefined {
  return child(child(result, 'Result'), name);
}
function levels(result: XmlElement): XmlElement[] {
  return children(at(result, 'ServiceLevels'), 'ServiceLevel');
}
function netOf(result: XmlElement): string {
  return charges(result).find((c) => c.type === 'NET')!.amount;
}
function notes(result: XmlElement): string[] {
  return children(at(result, 'Messages'), 'Message').map((m) => textAt(m, 'Text'));
}

describe('sandbox GetRateQuote', () => {
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: new Clock().now });
  });
  after(() => sb.close());

  it('lays out one line per item (empty Type), then GROSS, DISCNT, DISCNF, FUEL and NET "Net Charge", in $1,234.56 money', async () => {
    const r = await call(sb.url, P103, quote(withChild(rate103([item('50.0'), item('85', '700')]), 'Accessorials', undefined)));
    const lines = charges(r);
    assert.deepEqual(
      lines.map((l) => l.type),
      ['', '', 'GROSS', 'DISCNT', 'DISCNF', 'FUEL', 'NET'],
    );
    assert.equal(lines[6]!.title, 'Net Charge');
    for (const l of lines) assert.match(l.amount, /^-?\$\d{1,3}(,\d{3})*\.\d\d$/, l.amount);
    const [a, b, gross, discount, discounted, fuel, net] = lines.map((l) => money(l.amount));
    assert.equal(gross, a! + b!);
    assert.equal(discounted, gross! + discount!);
    assert.equal(net, discounted! + fuel!);
  });

  it('adds accessorial lines between DISCNF and FUEL, and they raise the net charge', async () => {
    const without = await call(sb.url, P103, quote(withChild(rate103(), 'Accessorials', el('Accessorials', []))));
    const withLift = await call(sb.url, P103, quote(rate103()));
    const types = charges(withLift).map((c) => c.type);
    assert.deepEqual(types.slice(-4), ['DISCNF', 'ACC', 'FUEL', 'NET']);
    assert.ok(money(netOf(withLift)) > money(netOf(without)));
  });

  it('quotes deterministically: the same request gets the same amounts and quote numbers', async () => {
    const a = await call(sb.url, P103, quote(rate103()));
    const b = await call(sb.url, P103, quote(rate103()));
    assert.equal(netOf(a), netOf(b));
    assert.deepEqual(
      levels(a).map((l) => textAt(l, 'QuoteNumber')),
      levels(b).map((l) => textAt(l, 'QuoteNumber')),
    );
  });

  it('prices by weight and distance: heavier and farther cost more', async () => {
    const base = money(netOf(await call(sb.url, P103, quote(rate103([item('70', '1000')])))));
    const heavier = money(netOf(await call(sb.url, P103, quote(rate103([item('70', '3000')])))));
    const farther = await call(
      sb.url,
      P103,
      quote(withChild(rate103([item('70', '1000')]), 'Destination', el('Destination', [el('ZipOrPostalCode', '98108'), el('CountryCode', 'USA')]))),
    );
    assert.ok(heavier > base, `${heavier} > ${base}`);
    assert.ok(money(netOf(farther)) > base);
    assert.ok(Number(textAt(levels(farther)[0], 'ServiceDays')) > Number(textAt(levels(await call(sb.url, P103, quote(rate103())))[0], 'ServiceDays')));
  });

  it('offers STD, GSDS, GSAM, GSHW and EXPD with their titles, each with its own quote number', async () => {
    const ls = levels(await call(sb.url, P103, quote(rate103())));
    assert.deepEqual(
      ls.map((l) => [textAt(l, 'Code'), textAt(l, 'Title')]),
      [
        ['STD', 'Standard Service'],
        ['GSDS', 'Guaranteed Service'],
        ['GSAM', 'Guaranteed AM Service'],
        ['GSHW', 'Guaranteed HW Service'],
        ['EXPD', 'Expedited Service'],
      ],
    );
    const numbers = ls.map((l) => textAt(l, 'QuoteNumber'));
    assert.ok(numbers.every((n) => /^\d{7}$/.test(n)));
    assert.equal(new Set(numbers).size, numbers.length);
    assert.equal(textAt(ls[3], 'HourlyWindow', 'Start'), '01:00 PM');
    assert.ok(ls.every((l) => /^\d+$/.test(textAt(l, 'ServiceDays'))));
    assert.ok(money(textAt(ls[1], 'NetCharge')) > money(textAt(ls[0], 'NetCharge')));
    assert.equal(textAt(ls[0], 'Charge'), '$0.00');
  });

  for (const [written, same] of [
    ['50', '50.0'],
    ['50.0', '50.0'],
    ['55.0', '55'],
    [' 77.5 ', '77.5'],
    ['100.00', '100'],
  ] as const) {
    it(`reads Class ${JSON.stringify(written)} as class ${same}`, async () => {
      const a = await call(sb.url, P103, quote(rate103([item(written)])));
      const b = await call(sb.url, P103, quote(rate103([item(same)])));
      assert.equal(textAt(a, 'WasSuccess'), 'true');
      assert.equal(netOf(a), netOf(b));
      assert.match(charges(a)[0]!.title, new RegExp(`Class ${Number(same).toFixed(1).replace('.', '\\.')}`));
    });
  }

  it('refuses a class that is not one of the 18 freight classes, in the body', async () => {
    const r = await call(sb.url, P103, quote(rate103([item('45')])));
    assert.equal(textAt(r, 'WasSuccess'), 'false');
    assert.match(messagesOf(r)[0]!, /Item 1: Class 45 is not a valid freight class\. Valid classes: 50\.0, 55\.0/);
    assert.equal(child(r, 'Result'), undefined);
  });

  it("answers a non-domestic destination with the reference carrier's own message", async () => {
    const r = await call(
      sb.url,
      P103,
      quote(withChild(rate103(), 'Destination', el('Destination', [el('ZipOrPostalCode', '00920'), el('CountryCode', 'PRI')]))),
    );
    assert.equal(textAt(r, 'WasSuccess'), 'false');
    assert.deepEqual(messagesOf(r), ['Destination Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.']);
  });

  it('answers a non-domestic origin with the Origin variant of that message', async () => {
    const r = await call(
      sb.url,
      P101,
      quote(
        el('request', [
          el('QuoteType', 'Domestic'),
          el('CODAmount', '0'),
          el('Origin', [el('ZipOrPostalCode', '00920'), el('CountryCode', 'PRI')]),
          el('Destination', [el('ZipOrPostalCode', '33635'), el('CountryCode', 'USA')]),
          el('Items', [item('50')]),
          el('DeclaredValue', '0'),
          el('OverDimensionPcs', '0'),
        ]),
      ),
    );
    assert.deepEqual(messagesOf(r), ['Origin Country must be USA or CAN for Quote Type: Domestic. Please use either AlaskaHawaii or International.']);
  });

  it('quotes Puerto Rico as International and Alaska as AlaskaHawaii, standard service only', async () => {
    const pr = await call(
      sb.url,
      P103,
      quote(
        withChild(
          withChild(rate103(), 'QuoteType', el('QuoteType', 'International')),
          'Destination',
          el('Destination', [el('ZipOrPostalCode', '00920'), el('CountryCode', 'PRI')]),
        ),
      ),
    );
    assert.equal(textAt(pr, 'WasSuccess'), 'true', messagesOf(pr).join());
    assert.deepEqual(
      levels(pr).map((l) => textAt(l, 'Code')),
      ['STD'],
    );
    const ak = await call(
      sb.url,
      P103,
      quote(
        withChild(
          withChild(rate103(), 'QuoteType', el('QuoteType', 'AlaskaHawaii')),
          'Destination',
          el('Destination', [el('ZipOrPostalCode', '99501'), el('CountryCode', 'USA')]),
        ),
      ),
    );
    assert.equal(textAt(ak, 'WasSuccess'), 'true', messagesOf(ak).join());
    const wrongType = await call(sb.url, P103, quote(withChild(rate103(), 'QuoteType', el('QuoteType', 'AlaskaHawaii'))));
    assert.match(messagesOf(wrongType)[0]!, /AlaskaHawaii needs an Origin or Destination in Alaska or Hawaii/);
  });

  describe('missing schema-required fields', () => {
    it('lenient: the minimal hosted-script request (no QuoteType, CODAmount, DeclaredValue or dimensions) is quoted, with notes', async () => {
      const minimal = el('request', [
        el('Origin', [el('ZipOrPostalCode', '66227'), el('CountryCode', 'USA')]),
        el('Destination', [el('ZipOrPostalCode', '71671'), el('CountryCode', 'USA')]),
        el('Items', [item('50.0', '1500')]),
      ]);
      const r = await call(sb.url, P103, quote(minimal));
      assert.equal(textAt(r, 'WasSuccess'), 'true', messagesOf(r).join());
      const n = notes(r);
      assert.ok(n.includes('QuoteType was not sent; quoted with Domestic.'), n.join(' | '));
      assert.ok(n.includes('DeclaredValue was not sent; quoted with 0.'));
      assert.ok(n.some((x) => /Width, Height or Length was not sent/.test(x)));
      // A default is a default: the same quote as when the values are sent.
      const explicit = await call(
        sb.url,
        P103,
        quote(
          el('request', [
            el('QuoteType', 'Domestic'),
            ...minimal.children!.slice(0, 2),
            el('Items', [el('Item', [el('Class', '50'), el('Weight', '1500'), el('Width', '0'), el('Height', '0'), el('Length', '0')])]),
            el('DeclaredValue', '0'),
          ]),
        ),
      );
      assert.equal(netOf(r), netOf(explicit));
    });
    it('strict: an item without a weight, a zero weight or no Class is refused in the body', async () => {
      const r = await call(sb.url, P103, quote(rate103([el('Item', [el('Class', '50')]), item('60', '0'), el('Item', [el('Weight', '100')])])));
      assert.equal(textAt(r, 'WasSuccess'), 'false');
      assert.deepEqual(messagesOf(r), ['Item 1: Weight is required.', 'Item 2: Weight must be greater than 0.', 'Item 3: Class is required.']);
    });
    it('strict: a point without CountryCode, a ZIP that does not exist, and no items', async () => {
      const r = await call(
        sb.url,
        P103,
        quote(
          el('request', [
            el('Origin', [el('ZipOrPostalCode', '37029')]),
            el('Destination', [el('ZipOrPostalCode', '00000'), el('CountryCode', 'USA')]),
            el('Items', []),
          ]),
        ),
      );
      assert.deepEqual(messagesOf(r), [
        'Origin CountryCode is required.',
        'Destination ZipOrPostalCode 00000 is not a valid postal code for USA.',
        'At least one Item is required.',
      ]);
    });
    it('strict: a missing request is refused in the body', async () => {
      const r = await call(sb.url, P103, el('GetRateQuote', [el('APIKey', KEY)]));
      assert.deepEqual(messagesOf(r), ['request is required.']);
    });
  });

  it('1.0.0 has its own shape: MyCarrierID, ServiceDays, a decimal CustomerDiscounts, service centers without City/State, ChargeTypes', async () => {
    const req = (discount: string) =>
      quote(
        el('request', [
          el('QuoteType', 'Domestic'),
          el('CODAmount', '0'),
          el('CustomerDiscount', discount),
          el('Origin', [el('ZipOrPostalCode', '37029'), el('CountryCode', 'USA')]),
          el('Destination', [el('ZipOrPostalCode', '33635'), el('CountryCode', 'USA')]),
          el('HandlingUnits', [el('HandlingUnit', [el('Class', '55.0'), el('Weight', '1200')])]),
          el('DeclaredValue', '0'),
        ]),
      );
    const r = await call(sb.url, P100, req('60'));
    const res = child(r, 'Result')!;
    assert.deepEqual(
      res.children.map((c) => c.local),
      [
        'MyCarrierID',
        'Origin',
        'Destination',
        'OriginServiceCenter',
        'DestinationServiceCenter',
        'ServiceDays',
        'CustomerDiscounts',
        'HandlingUnits',
        'ChargeTypes',
        'Messages',
        'ServiceLevels',
      ],
    );
    assert.equal(textAt(res, 'CustomerDiscounts'), '60');
    assert.deepEqual(
      child(res, 'OriginServiceCenter')!.children.map((c) => c.local),
      ['Code', 'Location', 'ZipCode', 'Phone', 'Address1', 'Address2'],
    );
    assert.equal(children(child(res, 'ChargeTypes'), 'ChargeType').length, 6);
    const bigger = await call(sb.url, P100, req('20'));
    assert.ok(money(textAt(levels(bigger)[0], 'NetCharge')) > money(textAt(levels(r)[0], 'NetCharge')), 'a smaller discount costs more');
    const bad = await call(sb.url, P100, req('120'));
    assert.match(messagesOf(bad)[0]!, /CustomerDiscount 120 must be a percentage/);
  });

  it('1.0.0 shows the ocean leg of an Alaska lane', async () => {
    const r = await call(
      sb.url,
      P100,
      quote(
        el('request', [
          el('QuoteType', 'AlaskaHawaii'),
          el('Origin', [el('ZipOrPostalCode', '98108'), el('CountryCode', 'USA')]),
          el('Destination', [el('ZipOrPostalCode', '99501'), el('CountryCode', 'USA')]),
          el('HandlingUnits', [el('HandlingUnit', [el('Class', '100'), el('Weight', '400')])]),
        ]),
      ),
    );
    assert.equal(textAt(r, 'WasSuccess'), 'true', messagesOf(r).join());
    assert.equal(textAt(child(r, 'Result'), 'Ocean', 'Entry', 'Port'), 'Tacoma, WA');
    assert.equal(textAt(child(r, 'Result'), 'Ocean', 'Exit', 'Port'), 'Anchorage, AK');
  });

  it('1.0.1 and 1.0.3 have Charges and service centers with City and State, and no 1.0.0 fields', async () => {
    for (const [path, request] of [
      [P103, rate103()],
      [
        P101,
        el('request', [
          el('QuoteType', 'Domestic'),
          el('CODAmount', '0'),
          el('Origin', [el('ZipOrPostalCode', '37029'), el('CountryCode', 'USA')]),
          el('Destination', [el('ZipOrPostalCode', '33635'), el('CountryCode', 'USA')]),
          el('Items', [item('50')]),
          el('DeclaredValue', '0'),
          el('Accessorials', [el('Accessorial', 'COD')]),
          el('OverDimensionPcs', '2'),
        ]),
      ],
    ] as const) {
      const r = await call(sb.url, path, quote(request));
      const res = child(r, 'Result')!;
      assert.deepEqual(
        res.children.map((c) => c.local),
        ['Origin', 'Destination', 'OriginServiceCenter', 'DestinationServiceCenter', 'CustomerDiscounts', 'Charges', 'Messages', 'ServiceLevels'],
        path,
      );
      assert.equal(textAt(res, 'CustomerDiscounts'), '68%');
      assert.ok(textAt(res, 'OriginServiceCenter', 'City'));
      assert.equal(textAt(res, 'Destination', 'StateOrProvince'), 'FL', 'the state is filled in from the ZIP');
    }
  });

  it('1.0.1 charges COD and over-dimension pieces; 1.0.3 takes OverDimensionList and Pallets', async () => {
    const r101 = await call(
      sb.url,
      P101,
      quote(
        el('request', [
          el('QuoteType', 'Domestic'),
          el('CODAmount', '250.00'),
          el('Origin', [el('ZipOrPostalCode', '37029'), el('CountryCode', 'USA')]),
          el('Destination', [el('ZipOrPostalCode', '33635'), el('CountryCode', 'USA')]),
          el('Items', [item('50')]),
          el('DeclaredValue', '0'),
          el('Accessorials', [el('Accessorial', 'COD')]),
          el('OverDimensionPcs', '2'),
        ]),
      ),
    );
    const titles = charges(r101).map((c) => c.title);
    assert.ok(titles.includes('COD Fee') && titles.includes('Over Dimension (2 pcs)'), titles.join());
    const r103 = await call(
      sb.url,
      P103,
      quote(
        withChild(
          withChild(rate103(), 'OverDimensionList', el('OverDimensionList', [el('OverDimension', [el('Pieces', '3'), el('Inches', '12')])])),
          'Pallets',
          el('Pallets', [el('Pallet', [el('Code', '0001'), el('Weight', '40'), el('Quantity', '2')])]),
        ),
      ),
    );
    assert.ok(charges(r103).some((c) => c.title === 'Over Dimension (3 pcs)'));
    assert.ok(notes(r103).some((n) => /Pallet weight of 80 lb/.test(n)));
  });

  it('refuses a 1.0.3 accessorial name in a 1.0.1 request element (Accessorial vs RQAccessorial): it is ignored, not read', async () => {
    const req = withChild(rate103(), 'Accessorials', el('Accessorials', [el('Accessorial', 'DestinationLiftgate')]));
    const r = await call(sb.url, P103, quote(req));
    assert.ok(!charges(r).some((c) => c.type === 'ACC'), 'an <Accessorial> item is not an <RQAccessorial>');
  });

  it('faults a decimal that is not a number, as XmlSerializer would', async () => {
    const f = await callFault(sb.url, P103, quote(withChild(rate103(), 'DeclaredValue', el('DeclaredValue', 'none'))));
    assert.equal(f.code, 'soap:Client');
    assert.match(f.reason, /DeclaredValue.*not a decimal/);
  });
});
