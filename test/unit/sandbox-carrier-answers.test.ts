/**
 * Issue 36, item 5: the sandbox answers as the carrier would. Hazardous items must be the hazmat
 * table's, with a phone number for emergencies; ZIPs the sandbox does not know are refused
 * wherever a ZIP is read; a COD names whom to remit to; money is exact cents rounded half up
 * (docs/sandbox.md, docs/sandbox-model.md#tariff).
 */
import { strict as assert } from 'node:assert';
import { divHalfUp, exactDecimal, formatMoney, price, weightCents, type ChargeLine } from '../../src/sandbox/carrier';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import {
  actionOf,
  call,
  callFault,
  child,
  children,
  Clock,
  el,
  envelope,
  http,
  KEY,
  messagesOf,
  NS_DISTINCT,
  soapFault,
  soapHeaders,
  soapResult,
  textAt,
  withChild,
  type Node,
} from './sandbox-kit';
import { bolRequest, pickupRequest, rate103 } from './sandbox-requests';

const BOL = '/1.0.1/BillOfLadingService.asmx';
const PICKUP = '/1.0.3/PickupRequestService.asmx';
const TRANSIT = '/1.0.0/TransitTimesService.asmx';
const QUOTE = '/1.0.3/RateQuoteService.asmx';
const TERMINALS = '/1.0.2/TerminalInformationService.asmx';

const create = (request: Node) => el('CreateBillOfLading', [el('APIKey', KEY), request]);
const bolOf = (request: Node) => request.children!.find((c) => c.name === 'BillOfLading')!;
const editBol = (request: Node, edit: (bol: Node) => Node): Node => withChild(request, 'BillOfLading', edit(bolOf(request)));
const withDescription = (request: Node, description: string): Node =>
  editBol(request, (bol) => {
    const items = bol.children!.find((c) => c.name === 'Items')!;
    const item = withChild(items.children![0]!, 'Description', el('Description', description));
    return withChild(bol, 'Items', el('Items', [item]));
  });
const withEmergency = (request: Node, phone: string): Node =>
  editBol(request, (bol) =>
    withChild(bol, 'HazmatInformation', el('HazmatInformation', [el('EmergenyNumber', phone), el('ContractNumber', 'CCN1'), el('ContractHolder', 'ChemTrec')])),
  );

/** The BOL reply over SOAP 1.1 and 1.2: the same WasSuccess and messages on both. */
async function bolBoth(sb: SandboxHandle, request: Node): Promise<{ success: string; messages: string[] }> {
  const out: { success: string; messages: string[] }[] = [];
  for (const version of ['1.1', '1.2'] as const) {
    const r = await call(sb.url, BOL, create(request), NS_DISTINCT, version);
    out.push({ success: textAt(r, 'WasSuccess'), messages: messagesOf(r) });
  }
  assert.deepEqual(out[0], out[1], 'SOAP 1.1 and 1.2 answer alike');
  return out[0]!;
}

describe('sandbox answers as the carrier would (issue 36, item 5)', function () {
  this.timeout(60_000);
  const clock = new Clock();
  let sb: SandboxHandle;
  before(async () => {
    sb = await startSandbox({ namespaces: NS_DISTINCT, now: clock.now });
  });
  after(() => sb.close());

  it('creates a hazmat bill of lading whose item is the table entry', async () => {
    const r = await bolBoth(sb, withDescription(bolRequest({ hazmat: true }), 'UN1203, Gasoline, 3, PG II, 4 drums'));
    assert.equal(r.success, 'true', r.messages.join(' | '));
  });

  it('refuses a hazardous item whose description is not the table entry, naming the field and what the table says', async () => {
    const cases: [string, RegExp][] = [
      ['UN1203, Stuff, 3, PG II', /^Item 1 Description proper shipping name "Stuff" is not the hazmat table's for UN1203: "Gasoline"/],
      ['UN1203, Gasoline, 8, PG II', /^Item 1 Description hazard class 8 is not the hazmat table's for UN1203: class 3\.$/],
      ['UN1203, Gasoline, 3, PG III', /^Item 1 Description packing group PG III is not the hazmat table's for UN1203: PG II\.$/],
      ['UN1203, Gasoline, 3', /^Item 1 Description packing group is missing after the hazard class: the hazmat table gives UN1203 PG II\.$/],
      ['UN9999, Gasoline, 3, PG II', /^Item 1 Description names UN9999, which is not in the hazmat table/],
      ['Paint, UN1263', /^Item 1 Description of a hazardous item must begin with its UN or NA number/],
    ];
    for (const [description, message] of cases) {
      const r = await bolBoth(sb, withDescription(bolRequest({ hazmat: true }), description));
      assert.equal(r.success, 'false', description);
      assert.equal(r.messages.length, 1, `${description}: ${r.messages.join(' | ')}`);
      assert.match(r.messages[0]!, message);
    }
  });

  it('takes an emergency number with +1 and punctuation, and refuses one that is no phone number', async () => {
    for (const phone of ['800-555-0199', '+1 (800) 555-0199', '1.800.555.0199']) {
      const r = await bolBoth(sb, withEmergency(bolRequest({ hazmat: true }), phone));
      assert.equal(r.success, 'true', `${phone}: ${r.messages.join(' | ')}`);
    }
    for (const phone of ['call me', '555-0199', '+44 20 7946 0000']) {
      const r = await bolBoth(sb, withEmergency(bolRequest({ hazmat: true }), phone));
      assert.equal(r.success, 'false', phone);
      assert.deepEqual(r.messages.length, 1, r.messages.join(' | '));
      assert.match(
        r.messages[0]!,
        new RegExp(`^HazmatInformation EmergenyNumber ${phone.replace(/[+()]/g, '\\$&')} is not a 24-hour emergency response phone number`),
      );
    }
  });

  it('refuses a COD without the party to remit to, saying the document shows RemitCOD without it', async () => {
    const cod = (fields: Node[]) => editBol(bolRequest(), (bol) => withChild(bol, 'RemitCOD', el('RemitCOD', fields)));
    const bare = await bolBoth(sb, cod([el('CODAmount', '250.00'), el('CheckType', 'Company'), el('FeeType', 'Collect')]));
    assert.equal(bare.success, 'false');
    assert.deepEqual(
      bare.messages.map((m) => m.split(' is required')[0]),
      ['RemitCOD Name', 'RemitCOD AddressLine1', 'RemitCOD ISO3Country', 'RemitCOD ZipCode', 'RemitCOD City', 'RemitCOD State'],
    );
    assert.match(bare.messages[0]!, /the interface document shows only the last three/);
    const named = await bolBoth(
      sb,
      cod([
        el('Name', 'Volunteer Plastics Inc'),
        el('AddressLine1', '401 Industrial Dr'),
        el('ISO3Country', 'USA'),
        el('ZipCode', '37029'),
        el('City', 'Burns'),
        el('State', 'TN'),
        el('CODAmount', '250.00'),
        el('CheckType', 'Company'),
        el('FeeType', 'Collect'),
      ]),
    );
    assert.equal(named.success, 'true', named.messages.join(' | '));
  });

  it('says why a Consignee needs its address when it has only Attention', async () => {
    const r = await bolBoth(
      sb,
      editBol(bolRequest(), (bol) => withChild(bol, 'Consignee', el('Consignee', [el('Attention', 'Receiving')]))),
    );
    assert.equal(r.success, 'false');
    assert.ok(
      r.messages.includes(
        `Consignee Name is required. The Consignee is an address block (Name, EmailAddress, AddressLine1, AddressLine2, ISO3Country, ZipCode, City, State, PhoneNumber, PhoneExtension), then Attention: the interface document shows Attention alone.`,
      ),
      r.messages.join(' | '),
    );
  });

  it('refuses ZIP 99999 (Nowhere, AK) in quotes, transit times, bills of lading, pickups and terminal lookups', async () => {
    const quote = await call(
      sb.url,
      QUOTE,
      el('GetRateQuote', [
        el('APIKey', KEY),
        withChild(
          rate103(),
          'Destination',
          el('Destination', [el('City', 'Nowhere'), el('StateOrProvince', 'AK'), el('ZipOrPostalCode', '99999'), el('CountryCode', 'USA')]),
        ),
      ]),
    );
    assert.equal(textAt(quote, 'WasSuccess'), 'false');
    assert.deepEqual(messagesOf(quote), ['Destination ZipOrPostalCode 99999 is not a valid postal code for USA.']);

    const transit = await call(
      sb.url,
      TRANSIT,
      el('GetTransitTimes', [
        el('APIKey', KEY),
        el('input', [
          el('DateOfPickup', '2026-11-19T00:00:00'),
          el('OriginPoint', [el('d:ZipOrPostalCode', '99999'), el('d:CountryCode', 'USA')]),
          el('Destinations', [el('d:DestinationPoint', [el('d:ServicePoint', [el('d:ZipOrPostalCode', '33635'), el('d:CountryCode', 'USA')])])]),
        ]),
      ]),
    );
    assert.equal(textAt(transit, 'WasSuccess'), 'false');
    assert.match(messagesOf(transit).join(' | '), /ZipOrPostalCode 99999 is not a valid postal code for USA/);

    const bol = await bolBoth(
      sb,
      editBol(bolRequest(), (b) => {
        const consignee = b.children!.find((c) => c.name === 'Consignee')!;
        return withChild(
          b,
          'Consignee',
          withChild(withChild(withChild(consignee, 'ZipCode', el('ZipCode', '99999')), 'City', el('City', 'Nowhere')), 'State', el('State', 'AK')),
        );
      }),
    );
    assert.equal(bol.success, 'false');
    assert.deepEqual(bol.messages, ['Consignee ZipCode 99999 is not a valid postal code for USA.']);

    const pick = pickupRequest();
    const pickup = await call(
      sb.url,
      PICKUP,
      el('CreatePickupRequest', [
        el('APIKey', KEY),
        withChild(
          pick,
          'Pickup',
          (() => {
            const p = pick.children!.find((c) => c.name === 'Pickup')!;
            const shipper = p.children!.find((c) => c.name === 'Shipper')!;
            return withChild(p, 'Shipper', withChild(withChild(shipper, 'ZipCode', el('ZipCode', '99999')), 'State', el('State', 'AK')));
          })(),
        ),
      ]),
    );
    assert.equal(textAt(pickup, 'Pickup', 'WasSuccess'), 'false');
    assert.match(textAt(pickup, 'Pickup', 'Message'), /Shipper ZipCode 99999 is not a valid postal code for USA/);

    const wrapper = el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '99999'), el('CountryCode', 'USA'), el('CustomerData', '')]);
    for (const version of ['1.1', '1.2'] as const) {
      const r = await http(sb.url + TERMINALS, {
        method: 'POST',
        body: envelope(version, wrapper, NS_DISTINCT, 'default-xmlns'),
        headers: soapHeaders(version, actionOf(NS_DISTINCT, 'GetTerminalInformation'), 'quoted'),
      });
      assert.equal(r.status, 500);
      assert.equal(soapFault(r.text, version).reason, 'ZipCode 99999 is not a valid ZIP or postal code for USA.');
    }
    const query = `APIKey=${KEY}&ZipCode=99999&CountryCode=USA&CustomerData=`;
    const get = await http(`${sb.url}${TERMINALS}/GetTerminalInformation?${query}`);
    const post = await http(`${sb.url}${TERMINALS}/GetTerminalInformation`, {
      method: 'POST',
      body: query,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    for (const r of [get, post]) {
      assert.equal(r.status, 500);
      assert.match(r.text, /ZipCode 99999 is not a valid ZIP or postal code for USA\./);
    }
    // The highest real ZIP, in the same prefix, is known.
    const known = await call(
      sb.url,
      TERMINALS,
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '99950'), el('CountryCode', 'USA'), el('CustomerData', '')]),
    );
    assert.ok(children(child(known, 'Result'), 'TerminalInfo').length >= 1);
  });

  it('prints 650 lb at $58.85/cwt as $382.53 and 550 lb as $323.68 (exact half up, no float artefact)', async () => {
    // Burns TN 37029 to Pottsville PA 17901 rates class 70 at $58.85 under 1,000 lb.
    for (const [weight, amount] of [
      ['650', '$382.53'],
      ['550', '$323.68'],
    ]) {
      const r = await call(
        sb.url,
        QUOTE,
        el('GetRateQuote', [
          el('APIKey', KEY),
          withChild(
            rate103([el('Item', [el('Class', '70'), el('Weight', weight!), el('Width', '48.00'), el('Height', '40.00'), el('Length', '48.00')])]),
            'Destination',
            el('Destination', [el('City', 'Pottsville'), el('StateOrProvince', 'PA'), el('ZipOrPostalCode', '17901'), el('CountryCode', 'USA')]),
          ),
        ]),
      );
      assert.equal(textAt(r, 'WasSuccess'), 'true', messagesOf(r).join(' | '));
      const line = children(child(child(r, 'Result'), 'Charges'), 'Charge')[0];
      assert.equal(textAt(line, 'Rate'), '$58.85');
      assert.equal(textAt(line, 'Amount'), amount);
    }
  });

  it('still creates the kit bill of lading and answers the SOAP 1.2 envelope of it', async () => {
    const r = await http(sb.url + BOL, {
      method: 'POST',
      body: envelope('1.2', create(bolRequest({ hazmat: true })), NS_DISTINCT, 'default-xmlns'),
      headers: soapHeaders('1.2', actionOf(NS_DISTINCT, 'CreateBillOfLading'), 'quoted'),
    });
    assert.equal(textAt(soapResult(r.text, 'CreateBillOfLading', '1.2'), 'WasSuccess'), 'true');
    await callFault(
      sb.url,
      TERMINALS,
      el('GetTerminalInformation', [el('APIKey', KEY), el('ZipCode', '00000'), el('CountryCode', 'USA'), el('CustomerData', '')]),
    );
  });
});

describe('sandbox money: exact cents, half up', () => {
  const exact = (weight: number, rateCents: number): bigint => divHalfUp(BigInt(weight) * BigInt(rateCents), 100n);

  it('charges every weight from 1 to 20,000 lb at the exactly computed half-up amount, and the lines add up', () => {
    const rates = [5885, 1, 49, 50, 51, 4499, 10_001, 12_345];
    for (const rate of rates) for (let w = 1; w <= 20_000; w++) assert.equal(BigInt(weightCents(w, rate)), exact(w, rate), `${w} lb at ${rate} cents/cwt`);
    for (const [cls, miles] of [
      ['70.0', 769.3],
      ['50.0', 60],
      ['500.0', 2_400],
    ] as const) {
      for (let w = 1; w <= 20_000; w += 13) {
        const p = price({ items: [{ freightClass: cls, weight: w }], miles });
        const item = p.lines[0]!;
        // The printed line is the printed weight at the printed rate, rounded half up exactly.
        assert.equal(BigInt(item.amountCents), exact(w, Math.round(item.ratePerCwt! * 100)), `${w} lb class ${cls}`);
        addsUp(p.lines, p.grossCents, p.netCents);
      }
    }
  });

  it('reads weights and percentages as the decimals they are written as', () => {
    assert.deepEqual(exactDecimal(2120.5), { num: 21205n, den: 10n });
    assert.deepEqual(exactDecimal(24.5), { num: 245n, den: 10n });
    assert.equal(weightCents(550, 5885), 32368);
    assert.equal(weightCents(650, 5885), 38253);
    assert.equal(formatMoney(weightCents(2120.5, 4000)), '$848.20');
  });
});

/** Freight lines add up to GROSS; GROSS, DISCNT, the accessorials and FUEL add up to NET. */
function addsUp(lines: readonly ChargeLine[], gross: number, net: number): void {
  const freight = lines.filter((l) => l.Type === '').reduce((s, l) => s + l.amountCents, 0);
  if (freight >= 14_500) assert.equal(freight, gross);
  const rest = lines.filter((l) => ['GROSS', 'DISCNT', 'ACC', 'FUEL'].includes(l.Type)).reduce((s, l) => s + l.amountCents, 0);
  assert.equal(rest, net);
}
